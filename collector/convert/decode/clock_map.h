// Maps host-side ticks (spool/clock_sync.h) onto CLOCK_MONOTONIC nanoseconds. The TSC and the
// monotonic clock are both host-wide, so the (ticks, monotonic) pairs of every spool file of a
// session, plus the launcher's own, form one map: piecewise linear between consecutive pairs,
// extended with the nearest segment's slope outside them. Files whose ticks already are
// monotonic nanoseconds need no map.
#pragma once

#include "collector/spool/spool_format.h"

#include <cstdint>
#include <vector>

namespace sightline::collector {

class ClockMap
{
public:
    void addPair(uint64_t ticks, int64_t monotonicNs);
    // Sorts the pairs and drops ones that contradict the ordering; call before toMonotonic.
    void finish();

    int64_t toMonotonic(spool::TickSource source, uint64_t ticks) const
    {
        size_t hint = 0;
        return toMonotonic(source, ticks, hint);
    }
    // The same, starting from the segment `hint` (updated): events come mostly in time order,
    // so a reader that keeps its hint rarely searches.
    int64_t toMonotonic(spool::TickSource source, uint64_t ticks, size_t& hint) const
    {
        if (source == spool::TickSource::MonotonicNs || m_pairs.empty()) return int64_t(ticks);
        const bool hintHolds = hint < m_pairs.size() && m_pairs[hint].ticks <= ticks
            && (hint + 1 == m_pairs.size() || ticks < m_pairs[hint + 1].ticks);
        if (!hintHolds) hint = segmentOf(ticks);
        const Pair& p = m_pairs[hint];
        const double delta = ticks >= p.ticks ? double(ticks - p.ticks) : -double(p.ticks - ticks);
        return p.monotonicNs + int64_t(delta * p.slope);
    }
    size_t pairCount() const { return m_pairs.size(); }
    double ticksPerNs() const;

private:
    struct Pair
    {
        uint64_t ticks;
        int64_t monotonicNs;
        double slope; // nanoseconds per tick from this pair to the next (the last: the previous's)
    };
    size_t segmentOf(uint64_t ticks) const;

    std::vector<Pair> m_pairs;
};

} // namespace sightline::collector
