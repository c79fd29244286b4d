// Counter series: values sampled over time, such as GPU metrics (SMs active, DRAM bandwidth),
// GPU memory in use, CPU utilization and the counters a process recorded itself.
//
// A series is a step function over a timeline: sample i holds values[i] over
// [starts[i], starts[i + 1]) and the last sample over [starts.back(), end). A NaN value means
// "not known" (a gap). Series sampled together (the metrics of one GPU) share one timeline, so
// their timestamps are held once: resident cost is 8 bytes per value plus 8 bytes per sample
// time shared by the group, plus the level-of-detail summary (model/index/counter_lod.h).
//
// Values are held at their series' resolution (a multiple of `resolution`, e.g. 0.01 for a
// percentage), which is what the .rep format stores exactly; the builder rounds them.
#pragma once

#include "model/core/ids.h"
#include "model/core/time.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sightline {

enum class CounterSource : uint8_t {
    GpuMetrics = 0, // hardware counters sampled per GPU (CUPTI PM sampling)
    GpuMemory = 1, // bytes of GPU memory in use
    // The CPU time a process used, derived from its thread states or samples when a trace is
    // built or read (model/derived/cpu_utilization_series.h); never stored in a report.
    CpuUtilization = 2,
    // A process's own counters, as a trace from another tool recorded them (Chrome "C" events).
    Process = 3,
};

// Whether a series belongs to a process (its `pid`) rather than to a GPU (its `device`).
constexpr bool ownedByProcess(CounterSource source)
{
    return source == CounterSource::CpuUtilization || source == CounterSource::Process;
}

struct CounterTimeline
{
    std::vector<Timestamp> starts; // sorted, strictly increasing
    Timestamp end = 0; // where the last sample ends (> starts.back() when there are samples)

    size_t size() const { return starts.size(); }
    Timestamp sampleEnd(size_t i) const { return i + 1 < starts.size() ? starts[i + 1] : end; }
    friend bool operator==(const CounterTimeline&, const CounterTimeline&) = default;
};

struct CounterSeries
{
    CounterSource source = CounterSource::GpuMetrics;
    DeviceId device; // the GPU of GpuMetrics and GpuMemory series
    Pid pid; // the process of a CpuUtilization or Process series
    uint32_t timeline = 0; // index into Trace::counterTimelines
    std::string name; // "SMs Active"
    std::string unit; // "%", "B/s", "B"
    std::string description; // one line: what the value means and how it is computed
    double resolution = 1; // values are multiples of it
    std::vector<double> values; // one per sample of the timeline; NaN where unknown

    bool operator==(const CounterSeries& other) const;
};

// The names of the GPU metrics the views and tables single out, as the sampler records them
// (and as imports of Sightline's own exports carry them).
namespace gpu_metric {
inline constexpr const char* kSmsActive = "SMs Active";
inline constexpr const char* kWarpOccupancy = "Warp Occupancy";
inline constexpr const char* kTensorActive = "Tensor Active";
} // namespace gpu_metric

// `value` rounded to a multiple of `resolution`; NaN for NaN, infinities and values of 2^53
// resolutions or more, which have no exact multiple.
double roundToResolution(double value, double resolution);

} // namespace sightline
