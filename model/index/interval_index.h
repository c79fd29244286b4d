// A centered interval tree over one track's events, for rows whose events overlap freely.
// The events overlapping [t0, t1) are those that contain t0 (a stabbing query on the tree) plus
// those starting inside [t0, t1) (a contiguous run of the start-sorted order), so a query costs
// O(log n + k) whatever the number of lanes. Built once after loading; flat arrays only.
#pragma once

#include "../core/track.h"

#include <vector>

namespace sightline {

class IntervalIndex
{
public:
    void build(const Track& track);
    bool empty() const { return m_byStart.empty(); }

    // Appends the indices of events overlapping `window` (unordered).
    void query(const Track& track, TimeRange window, std::vector<uint32_t>& out) const;
    size_t residentBytes() const;

private:
    struct Node
    {
        Timestamp center = 0;
        uint32_t left = kNone, right = kNone;
        uint32_t listBegin = 0, listEnd = 0;   // into m_nodeByStart / m_nodeByEnd
    };
    static constexpr uint32_t kNone = ~0u;

    uint32_t buildNode(const Track& track, std::vector<uint32_t>& items, std::vector<uint32_t>& scratch);
    void stab(const Track& track, Timestamp t, std::vector<uint32_t>& out) const;

    std::vector<uint32_t> m_byStart;       // every event, sorted by start
    std::vector<Node> m_nodes;
    std::vector<uint32_t> m_nodeByStart;   // per node: its intervals by start ascending
    std::vector<uint32_t> m_nodeByEnd;     // per node: its intervals by end descending
    uint32_t m_root = kNone;
};

} // namespace sightline
