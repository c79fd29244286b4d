#include "model/construct/memory_usage_series.h"

#include <algorithm>

namespace sightline {
namespace {

// The series of one device's changes, sorted by time.
size_t addDeviceSeries(
    TraceBuilder& builder, DeviceId device, std::span<const MemoryUsageEvent> changes, Timestamp end)
{
    CounterTimeline timeline;
    std::vector<double> inUse;
    int64_t bytes = 0;
    size_t unmatched = 0;
    for (const MemoryUsageEvent& change : changes) {
        const auto size = int64_t(std::min<uint64_t>(change.bytes, uint64_t(INT64_MAX)));
        bytes = change.release ? bytes - size : bytes + size;
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

} // namespace

size_t addMemoryUsage(TraceBuilder& builder, std::vector<MemoryUsageEvent> events, Timestamp end)
{
    // By device, then by time; a device's changes keep their order within a nanosecond.
    std::stable_sort(events.begin(), events.end(), [](const MemoryUsageEvent& a, const MemoryUsageEvent& b) {
        return std::pair(a.device, a.time) < std::pair(b.device, b.time);
    });
    size_t unmatched = 0;
    for (size_t first = 0, last = 0; first < events.size(); first = last) {
        while (last < events.size() && events[last].device == events[first].device)
            ++last;
        unmatched += addDeviceSeries(
            builder, events[first].device, std::span(events.data() + first, last - first), end);
    }
    for (const MemoryUsageEvent& event : events)
        builder.addMemoryUsage(event);
    return unmatched;
}

} // namespace sightline
