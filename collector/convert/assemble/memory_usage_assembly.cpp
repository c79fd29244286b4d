#include "collector/convert/assemble/memory_usage_assembly.h"

#include "model/construct/memory_usage_series.h"

namespace sightline::collector {

size_t addMemoryUsage(
    const std::vector<ProcessCapture>& processes, Timestamp sessionEnd, TraceBuilder& builder)
{
    std::vector<MemoryUsageEvent> events;
    for (const ProcessCapture& p : processes)
        for (MemoryUsageEvent event : p.memoryUsage) {
            event.pid = p.process.pid;
            events.push_back(event);
        }
    return sightline::addMemoryUsage(builder, std::move(events), sessionEnd);
}

} // namespace sightline::collector
