#include "model/trace/memory_usage_query.h"

#include <algorithm>

namespace sightline {

std::vector<uint32_t> memoryChangesIn(const Trace& trace, DeviceId device, TimeRange range)
{
    const std::vector<MemoryUsageEvent>& records = trace.memoryUsage;
    const auto byTime = [](const MemoryUsageEvent& e, Timestamp t) { return e.time < t; };
    const auto first = std::lower_bound(records.begin(), records.end(), range.start, byTime);
    const auto last = std::lower_bound(first, records.end(), range.end, byTime);
    std::vector<uint32_t> changes;
    for (auto it = first; it != last; ++it)
        if (it->device == device) changes.push_back(uint32_t(it - records.begin()));
    return changes;
}

std::optional<uint32_t> lastMemoryChangeBefore(const Trace& trace, DeviceId device, Timestamp time)
{
    const std::vector<MemoryUsageEvent>& records = trace.memoryUsage;
    auto it = std::lower_bound(records.begin(), records.end(), time,
        [](const MemoryUsageEvent& e, Timestamp t) { return e.time < t; });
    while (it != records.begin())
        if ((--it)->device == device) return uint32_t(it - records.begin());
    return std::nullopt;
}

std::optional<uint32_t> releaseOf(const Trace& trace, uint32_t index)
{
    const std::vector<MemoryUsageEvent>& records = trace.memoryUsage;
    if (index >= records.size() || records[index].release) return std::nullopt;
    const MemoryUsageEvent& allocation = records[index];
    for (size_t i = index + 1; i < records.size(); ++i) {
        const MemoryUsageEvent& e = records[i];
        if (e.release && e.address == allocation.address && e.device == allocation.device
            && e.pid == allocation.pid)
            return uint32_t(i);
    }
    return std::nullopt;
}

} // namespace sightline
