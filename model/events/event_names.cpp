#include "model/events/event_names.h"

#include "model/trace/event_access.h"

namespace sightline {

EventNames::EventNames(const Trace& trace)
    : m_trace(trace)
    , m_stringCount(uint32_t(trace.strings.size()))
    , m_memoryOpCount(uint32_t(trace.memoryOps.size()))
{
    m_derived.reserve(trace.memoryOps.size() + trace.syncOps.size() + trace.counterSeries.size());
    for (const MemoryOp& op : trace.memoryOps)
        m_derived.push_back(memoryOpName(op));
    for (const SyncOp& op : trace.syncOps)
        m_derived.push_back(syncOpName(op));
    m_counterNames = m_stringCount + uint32_t(m_derived.size());
    for (const CounterSeries& series : trace.counterSeries)
        m_derived.push_back(series.name);
}

} // namespace sightline
