#include "interval_index.h"

#include <algorithm>
#include <numeric>

namespace sightline {

void IntervalIndex::build(const Track& track)
{
    const auto& start = track.events.start;
    const auto& end = track.events.end;
    m_byStart.resize(track.size());
    std::iota(m_byStart.begin(), m_byStart.end(), 0u);
    std::stable_sort(m_byStart.begin(), m_byStart.end(), [&](uint32_t a, uint32_t b) { return start[a] < start[b]; });

    // Instants never contain a point strictly inside them; the start-range half of a query
    // finds them, so only events with a length enter the tree.
    std::vector<uint32_t> items;
    items.reserve(m_byStart.size());
    for (uint32_t i : m_byStart)
        if (end[i] > start[i]) items.push_back(i);
    m_nodes.clear();
    m_nodeByStart.clear();
    m_nodeByEnd.clear();
    std::vector<uint32_t> scratch;
    m_root = items.empty() ? kNone : buildNode(track, items, scratch);
}

uint32_t IntervalIndex::buildNode(const Track& track, std::vector<uint32_t>& items, std::vector<uint32_t>& scratch)
{
    // `items` is sorted by start. The centre is the median start, so at most half of the
    // items lie entirely left of it and at most half entirely right: depth O(log n).
    const auto& start = track.events.start;
    const auto& end = track.events.end;
    const Timestamp center = start[items[items.size() / 2]];
    std::vector<uint32_t> left, right;
    Node node;
    node.center = center;
    node.listBegin = uint32_t(m_nodeByStart.size());
    for (uint32_t i : items) {
        if (end[i] <= center) left.push_back(i);
        else if (start[i] > center) right.push_back(i);
        else m_nodeByStart.push_back(i);
    }
    node.listEnd = uint32_t(m_nodeByStart.size());
    scratch.assign(m_nodeByStart.begin() + node.listBegin, m_nodeByStart.end());
    std::stable_sort(scratch.begin(), scratch.end(), [&](uint32_t a, uint32_t b) { return end[a] > end[b]; });
    m_nodeByEnd.insert(m_nodeByEnd.end(), scratch.begin(), scratch.end());
    items.clear();
    items.shrink_to_fit();

    const uint32_t id = uint32_t(m_nodes.size());
    m_nodes.push_back(node);
    const uint32_t leftId = left.empty() ? kNone : buildNode(track, left, scratch);
    const uint32_t rightId = right.empty() ? kNone : buildNode(track, right, scratch);
    m_nodes[id].left = leftId;
    m_nodes[id].right = rightId;
    return id;
}

void IntervalIndex::stab(const Track& track, Timestamp t, std::vector<uint32_t>& out) const
{
    // Appends events with start < t < end (strictly after their start).
    const auto& start = track.events.start;
    const auto& end = track.events.end;
    uint32_t n = m_root;
    while (n != kNone) {
        const Node& node = m_nodes[n];
        if (t < node.center) {
            // Every interval here ends after the centre, hence after t.
            for (uint32_t k = node.listBegin; k < node.listEnd && start[m_nodeByStart[k]] < t; ++k)
                out.push_back(m_nodeByStart[k]);
            n = node.left;
        } else {
            // Every interval here starts at or before the centre, hence at or before t.
            for (uint32_t k = node.listBegin; k < node.listEnd && end[m_nodeByEnd[k]] > t; ++k)
                if (start[m_nodeByEnd[k]] < t) out.push_back(m_nodeByEnd[k]);
            if (t == node.center) break;  // the right subtree starts after the centre
            n = node.right;
        }
    }
}

void IntervalIndex::query(const Track& track, TimeRange window, std::vector<uint32_t>& out) const
{
    if (window.empty()) return;
    stab(track, window.start, out);
    const auto& start = track.events.start;
    auto first = std::partition_point(m_byStart.begin(), m_byStart.end(),
                                      [&](uint32_t i) { return start[i] < window.start; });
    for (auto it = first; it != m_byStart.end() && start[*it] < window.end; ++it) out.push_back(*it);
}

size_t IntervalIndex::residentBytes() const
{
    return (m_byStart.capacity() + m_nodeByStart.capacity() + m_nodeByEnd.capacity()) * sizeof(uint32_t)
        + m_nodes.capacity() * sizeof(Node);
}

} // namespace sightline
