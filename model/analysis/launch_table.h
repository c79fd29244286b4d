// The CUDA API call that launched each GPU operation, looked up by (process, correlation id)
// in O(1): built once per analysis from every API track, where the trace's CorrelationIndex
// would search each of the process's API tracks per operation. When a runtime call and the
// driver call inside it share an id, the outermost (lowest lane) wins, as in CorrelationIndex.
#pragma once

#include "model/trace/trace.h"

#include <optional>
#include <unordered_map>
#include <vector>

namespace sightline {

class LaunchTable
{
public:
    void build(const Trace& trace, const std::vector<TrackId>& apiTracks);
    std::optional<EventRef> find(Pid pid, CorrelationId correlation) const;

private:
    struct Entry
    {
        uint32_t track = UINT32_MAX; // UINT32_MAX: none
        uint32_t index = 0;
        uint32_t lane = 0;
    };
    // Per process, indexed by correlation id when the ids are dense enough, else by hash.
    struct ProcessCalls
    {
        std::vector<Entry> dense;
        std::unordered_map<uint32_t, Entry> sparse;
    };
    static void keep(Entry& slot, const Entry& candidate, const Trace& trace);
    std::unordered_map<uint32_t, ProcessCalls> m_byPid;
};

} // namespace sightline
