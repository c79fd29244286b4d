#include "collector/convert/assemble/memory_usage_assembly.h"

#include "model/build/memory_usage_series.h"

#include <map>

namespace sightline::collector {

size_t addMemoryUsage(
    const std::vector<ProcessCapture>& processes, Timestamp sessionEnd, TraceBuilder& builder)
{
    std::map<uint32_t, std::vector<MemoryChange>> byDevice;
    for (const ProcessCapture& p : processes)
        for (const MemoryUsageChange& change : p.memoryUsage)
            byDevice[change.device.value].push_back({change.time, change.bytes});
    size_t unmatched = 0;
    for (auto& [device, changes] : byDevice)
        unmatched += addMemoryUsageSeries(builder, DeviceId(device), std::move(changes), sessionEnd);
    return unmatched;
}

} // namespace sightline::collector
