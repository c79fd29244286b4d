// --cuda-memory-usage: the allocations and releases of every process become the trace's
// memory usage records, and those on a GPU one counter series of the bytes in use on that
// device (model/construct/memory_usage_series.h).
#pragma once

#include "collector/convert/decode/decoded_process.h"
#include "model/construct/trace_builder.h"

#include <vector>

namespace sightline::collector {

// The number of releases larger than what was in use (a release of memory allocated before the
// capture began); those count from zero and are reported.
size_t addMemoryUsage(
    const std::vector<ProcessCapture>& processes, Timestamp sessionEnd, TraceBuilder& builder);

} // namespace sightline::collector
