// The two sets that lane assignment (lane_layout.cpp) keeps while it walks a track's events in start
// order: the ends of the ranges still open, and each lane's last end. The small kinds are plain
// vectors, scanned, which is fastest for the usual handful of nested ranges; the wide kinds are
// trees (a Fenwick tree over the track's ends, a min segment tree over the lanes), so that a
// track of n mutually overlapping ranges is laid out in O(n log n) instead of O(n^2). Both
// kinds answer alike, so the assignment does not depend on which one served it.
#pragma once

#include "model/core/time.h"

#include <cstdint>
#include <queue>
#include <vector>

namespace sightline {

class SmallOpenEnds
{
public:
    void expireUpTo(Timestamp t); // ranges ending at or before t are no longer open
    size_t size() const { return m_ends.size(); }
    size_t atOrAfter(Timestamp t) const; // open ranges ending at or after t
    void add(Timestamp end) { m_ends.push_back(end); }

private:
    std::vector<Timestamp> m_ends;
};

class WideOpenEnds
{
public:
    // `ends`: every end that add() may be given, in any order.
    explicit WideOpenEnds(std::vector<Timestamp> ends);
    void expireUpTo(Timestamp t);
    size_t size() const { return m_open; }
    size_t atOrAfter(Timestamp t) const { return m_open - countBefore(t); }
    void add(Timestamp end);

private:
    size_t countBefore(Timestamp t) const;
    void change(Timestamp end, int delta);

    std::vector<Timestamp> m_keys; // sorted, unique
    std::vector<int32_t> m_counts; // Fenwick tree over m_keys
    std::priority_queue<Timestamp, std::vector<Timestamp>, std::greater<>> m_soonest;
    size_t m_open = 0;
};

class SmallLaneEnds
{
public:
    uint32_t count() const { return uint32_t(m_ends.size()); }
    // The first lane at or after `from` whose last range ends at or before t; count() if none.
    uint32_t firstFree(uint32_t from, Timestamp t) const;
    void set(uint32_t lane, Timestamp end); // lane == count() adds one
    const std::vector<Timestamp>& ends() const { return m_ends; }

private:
    std::vector<Timestamp> m_ends;
};

class WideLaneEnds
{
public:
    explicit WideLaneEnds(const std::vector<Timestamp>& ends = {});
    uint32_t count() const { return m_count; }
    uint32_t firstFree(uint32_t from, Timestamp t) const;
    void set(uint32_t lane, Timestamp end);

private:
    uint32_t find(size_t node, uint32_t low, uint32_t high, uint32_t from, Timestamp t) const;

    uint32_t m_count = 0;
    uint32_t m_capacity = 0; // leaves, a power of two
    std::vector<Timestamp> m_min; // segment tree: node 1 is the root, leaves from m_capacity
};

} // namespace sightline
