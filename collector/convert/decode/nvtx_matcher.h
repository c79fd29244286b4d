// Pairs NVTX begin and end records into ranges. Push/pop ranges nest per thread and domain: a
// pop closes the latest open push of its thread and domain (records of one thread arrive in
// order). Start/end ranges are matched by their range id and may end on another thread (the
// event keeps the thread that started it and records the ending thread); since threads' records
// interleave in any order, ends are held until finish(). Unmatched ends are counted; ranges
// still open at finish() are closed at the given time and counted. The launcher decodes spool
// chunks in parallel and matches what crosses chunks here (take, openStack), in chunk order.
#pragma once

#include "collector/convert/decode/decoded_process.h"

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace sightline::collector {

class NvtxMatcher
{
public:
    explicit NvtxMatcher(std::vector<HostEvent<NvtxEvent>>& out)
        : m_out(out)
    { }

    // `event` carries everything but the end time.
    void push(Tid tid, const NvtxEvent& event);
    void pop(Tid tid, DomainId domain, Timestamp end);
    // Removes and returns the latest open push of the thread and domain (its end not set); with
    // none, counts an unmatched end like pop().
    std::optional<NvtxEvent> take(Tid tid, DomainId domain);
    // Creates the thread and domain's stack if it is new: ranges left open at finish() come out
    // stack by stack in an order that depends on when the stacks were created.
    void openStack(Tid tid, DomainId domain) { stack(tid, domain); }
    void start(uint64_t rangeId, Tid tid, const NvtxEvent& event);
    void end(uint64_t rangeId, Tid endThread, Timestamp end);
    void mark(Tid tid, const NvtxEvent& event) { m_out.push_back({tid, event}); }

    // Matches the held ends, then closes every open range at `end`; returns how many were open.
    uint64_t finish(Timestamp end);
    uint64_t unmatchedEnds() const { return m_unmatched; }

private:
    static uint64_t stackKey(Tid tid, DomainId domain) { return (uint64_t(tid.value) << 32) | domain.value; }
    std::vector<NvtxEvent>& stack(Tid tid, DomainId domain);

    std::vector<HostEvent<NvtxEvent>>& m_out;
    std::unordered_map<uint64_t, std::vector<NvtxEvent>> m_stacks; // (tid, domain) -> open pushes
    // The stack used last (map nodes never move, so the pointer stays valid).
    uint64_t m_lastKey = ~uint64_t(0);
    std::vector<NvtxEvent>* m_lastStack = nullptr;
    std::unordered_map<uint64_t, HostEvent<NvtxEvent>> m_started; // range id -> open start
    struct End
    {
        uint64_t rangeId;
        Tid thread;
        Timestamp time;
    };
    std::vector<End> m_ends;
    uint64_t m_unmatched = 0;
};

} // namespace sightline::collector
