// Writes one GPU's metrics file (collector/spool/gpu_metrics_file.h): the device, the series
// of its metric set, then samples as they are decoded, each turned from raw CUPTI values into
// series values (metric_sets.h) on the report's clock (CLOCK_MONOTONIC). This is the seam the
// unit tests drive with recorded samples: nothing here touches CUDA.
//
// The first sample of a session is dropped: it spans from enabling to the first trigger, and
// its start can be meaningless. Samples are ordered by their end (the trigger); a start before
// the previous end is moved to it, and a sample that ends outside the time the sampler ran is
// dropped and counted. A sample that does not end after the previous one has a timestamp that
// went back: on the H200 runs of such samples came with one stale timestamp (start equal to
// end, seconds old), while the next good sample came exactly their count of intervals later.
// So they wait until that sample and are placed one interval each before it when their count
// fits the time between (`placed`); otherwise they are dropped and counted.
#pragma once

#include "collector/sampler/metric_sets.h"
#include "collector/sampler/pm_session.h"
#include "model/common/result.h"

#include <climits>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <span>
#include <string>
#include <vector>

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
    // Sampling started again after a stop: its first sample is dropped too, and the samples
    // waiting for a place.
    void restarted();
    void diagnostic(uint32_t severity, const std::string& sentence);
    void close();

    uint64_t written() const { return m_written; }
    // Out of order or of time (the first not counted), those still waiting for a place included.
    uint64_t dropped() const { return m_dropped + m_pending.size(); }
    uint64_t placed() const { return m_placed; } // given a place between good neighbours

private:
    struct Kept
    {
        uint64_t start, end; // GPU time
        const std::vector<double>* values;
    };
    static constexpr size_t kMaxPending = 200'000; // 20 s at 10 kHz; more are dropped
    void record(uint32_t type, const std::string& payload);
    // Gives the pending samples their places before a good sample ending at `nextEnd`, or drops them.
    void placePending(uint64_t nextEnd, std::vector<Kept>& kept, std::deque<RawSample>& placed);

    std::FILE* m_file = nullptr;
    MetricSet m_set;
    bool m_sawFirst = false;
    uint64_t m_lastEnd = 0;
    uint64_t m_interval = 0;
    uint64_t m_written = 0;
    uint64_t m_dropped = 0;
    uint64_t m_placed = 0;
    std::vector<RawSample> m_pending; // timestamps that went back, waiting for a good one
};

} // namespace sightline::sampler
