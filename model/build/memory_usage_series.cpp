#include "model/build/memory_usage_series.h"

#include <algorithm>

namespace sightline {

size_t addMemoryUsageSeries(
    TraceBuilder& builder, DeviceId device, std::vector<MemoryChange> changes, Timestamp end)
{
    if (changes.empty()) return 0;
    std::stable_sort(changes.begin(), changes.end(),
        [](const MemoryChange& a, const MemoryChange& b) { return a.time < b.time; });
    CounterTimeline timeline;
    std::vector<double> inUse;
    int64_t bytes = 0;
    size_t unmatched = 0;
    for (const MemoryChange& change : changes) {
        bytes += change.bytes;
        if (bytes < 0) {
            ++unmatched;
            bytes = 0;
        }
        if (!timeline.starts.empty() && timeline.starts.back() == change.time) {
            inUse.back() = double(bytes);
        } else {
            timeline.starts.push_back(change.time);
            inUse.push_back(double(bytes));
        }
    }
    timeline.end = std::max(end, timeline.starts.back() + 1);
    const uint32_t index = builder.addCounterTimeline(std::move(timeline));
    CounterSeries series;
    series.source = CounterSource::GpuMemory;
    series.device = device;
    series.timeline = index;
    series.name = "Memory";
    series.unit = "B";
    series.description = "bytes of GPU memory the target had allocated (CUDA memory activity)";
    series.resolution = 1;
    series.values = std::move(inUse);
    builder.addCounterSeries(std::move(series));
    return unmatched;
}

} // namespace sightline
