// Adds the sampled GPU metrics to the trace: one counter timeline per GPU on the session clock
// (samples clipped to the session; a pause in sampling becomes an unknown sample), one series
// per metric, each on the report's GPU of the same UUID (a GPU the target never used is added).
#pragma once

#include "collector/convert/decode/gpu_metrics_reader.h"
#include "model/construct/trace_builder.h"

#include <vector>

namespace sightline::collector {

// `originMonotonicNs` is time 0 of the report; `gpus` are the GPUs the processes reported.
void addGpuMetrics(const std::vector<GpuMetricsCapture>& captures, int64_t originMonotonicNs,
    Timestamp sessionEnd, const std::vector<Gpu>& gpus, TraceBuilder& builder);

} // namespace sightline::collector
