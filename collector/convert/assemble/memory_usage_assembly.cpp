#include "collector/convert/assemble/memory_usage_assembly.h"

#include <algorithm>
#include <map>

namespace sightline::collector {

size_t addMemoryUsage(
    const std::vector<ProcessCapture>& processes, Timestamp sessionEnd, TraceBuilder& builder)
{
    std::map<uint32_t, std::vector<MemoryUsageChange>> byDevice;
    for (const ProcessCapture& p : processes)
        for (const MemoryUsageChange& change : p.memoryUsage)
            byDevice[change.device.value].push_back(change);
    size_t unmatched = 0;
    for (auto& [device, changes] : byDevice) {
        std::stable_sort(changes.begin(), changes.end(),
            [](const MemoryUsageChange& a, const MemoryUsageChange& b) { return a.time < b.time; });
        CounterTimeline timeline;
        std::vector<double> inUse;
        int64_t bytes = 0;
        for (const MemoryUsageChange& change : changes) {
            bytes += change.bytes;
            if (bytes < 0) {
                ++unmatched;
                bytes = 0;
            }
            if (!timeline.starts.empty() && timeline.starts.back() == change.time)
                inUse.back() = double(bytes);
            else {
                timeline.starts.push_back(change.time);
                inUse.push_back(double(bytes));
            }
        }
        timeline.end = std::max(sessionEnd, timeline.starts.back() + 1);
        const uint32_t index = builder.addCounterTimeline(std::move(timeline));
        CounterSeries series;
        series.source = CounterSource::GpuMemory;
        series.device = DeviceId(device);
        series.timeline = index;
        series.name = "Memory";
        series.unit = "B";
        series.description = "bytes of GPU memory the target had allocated (CUDA memory activity)";
        series.resolution = 1;
        series.values = std::move(inUse);
        builder.addCounterSeries(std::move(series));
    }
    return unmatched;
}

} // namespace sightline::collector
