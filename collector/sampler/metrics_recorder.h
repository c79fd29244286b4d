// Writes one GPU's metrics file (collector/spool/gpu_metrics_file.h): the device, the series
// of its metric set, then samples as they are decoded, each turned from raw CUPTI values into
// series values (metric_sets.h) on the report's clock (CLOCK_MONOTONIC). This is the seam the
// unit tests drive with recorded samples: nothing here touches CUDA.
//
// The first sample of a session is dropped: it spans from enabling to the first trigger, and
// its start can be meaningless. Samples are ordered by their end (the trigger); a sample that
// does not end after the previous one, or outside the time the sampler ran, is dropped and
// counted; a start before the previous end is moved to it.
#pragma once

#include "collector/sampler/metric_sets.h"
#include "collector/sampler/pm_session.h"
#include "model/common/result.h"

#include <climits>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>

namespace sightline::sampler {

class MetricsRecorder
{
public:
    MetricsRecorder() = default;
    ~MetricsRecorder();
    MetricsRecorder(const MetricsRecorder&) = delete;
    MetricsRecorder& operator=(const MetricsRecorder&) = delete;

    // `intervalNs`: the sampling interval, the length given to a sample whose start is unusable.
    Status open(const std::string& path, uint64_t intervalNs = 0);
    void device(int ordinal, const std::string& name, const std::string& uuid, const std::string& chip);
    void series(const MetricSet& set); // once, before the first samples
    // `gpuToMonotonic` is added to each GPU timestamp to put it on CLOCK_MONOTONIC; samples must
    // lie between `earliest` and `latest` (monotonic) once shifted.
    void samples(std::span<const RawSample> raw, int64_t gpuToMonotonic, int64_t earliest = INT64_MIN,
        int64_t latest = INT64_MAX);
    // Sampling started again after a stop: its first sample is dropped too.
    void restarted() { m_sawFirst = false; }
    void diagnostic(uint32_t severity, const std::string& sentence);
    void close();

    uint64_t written() const { return m_written; }
    uint64_t dropped() const { return m_dropped; } // out of order or of time (the first not counted)

private:
    void record(uint32_t type, const std::string& payload);

    std::FILE* m_file = nullptr;
    MetricSet m_set;
    bool m_sawFirst = false;
    uint64_t m_lastEnd = 0;
    uint64_t m_interval = 0;
    uint64_t m_written = 0;
    uint64_t m_dropped = 0;
};

} // namespace sightline::sampler
