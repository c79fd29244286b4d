#include "collector/convert/decode/nvtx_matcher.h"

#include <algorithm>

namespace sightline::collector {

std::vector<NvtxEvent>& NvtxMatcher::stack(Tid tid, DomainId domain)
{
    const uint64_t key = stackKey(tid, domain);
    if (key != m_lastKey) {
        m_lastStack = &m_stacks[key];
        m_lastKey = key;
    }
    return *m_lastStack;
}

void NvtxMatcher::push(Tid tid, const NvtxEvent& event)
{
    stack(tid, event.attributes.domain).push_back(event);
}

void NvtxMatcher::pop(Tid tid, DomainId domain, Timestamp end)
{
    std::optional<NvtxEvent> event = take(tid, domain);
    if (!event) return;
    event->end = std::max(end, event->start);
    m_out.push_back({tid, *event});
}

std::optional<NvtxEvent> NvtxMatcher::take(Tid tid, DomainId domain)
{
    std::vector<NvtxEvent>& open = stack(tid, domain);
    if (open.empty()) {
        ++m_unmatched;
        return std::nullopt;
    }
    NvtxEvent event = open.back();
    open.pop_back();
    return event;
}

void NvtxMatcher::start(uint64_t rangeId, Tid tid, const NvtxEvent& event)
{
    m_started[rangeId] = {tid, event};
}

void NvtxMatcher::end(uint64_t rangeId, Tid endThread, Timestamp end)
{
    m_ends.push_back({rangeId, endThread, end});
}

uint64_t NvtxMatcher::finish(Timestamp end)
{
    for (const End& e : m_ends) {
        auto found = m_started.find(e.rangeId);
        if (found == m_started.end()) {
            ++m_unmatched;
            continue;
        }
        HostEvent<NvtxEvent> range = found->second;
        m_started.erase(found);
        range.event.end = std::max(e.time, range.event.start);
        range.event.attributes.endThread = e.thread;
        m_out.push_back(range);
    }
    m_ends.clear();
    uint64_t open = 0;
    for (auto& [key, stack] : m_stacks) {
        const Tid tid(uint32_t(key >> 32));
        for (NvtxEvent& event : stack) {
            event.end = std::max(end, event.start);
            m_out.push_back({tid, event});
            ++open;
        }
        stack.clear();
    }
    for (auto& [id, range] : m_started) {
        range.event.end = std::max(end, range.event.start);
        m_out.push_back(range);
        ++open;
    }
    m_started.clear();
    return open;
}

} // namespace sightline::collector
