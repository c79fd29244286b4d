#include "collector/convert/decode/clock_map.h"

#include <algorithm>

namespace sightline::collector {

void ClockMap::addPair(uint64_t ticks, int64_t monotonicNs)
{
    m_pairs.push_back({ticks, monotonicNs, 1.0});
}

void ClockMap::finish()
{
    std::sort(m_pairs.begin(), m_pairs.end(), [](const Pair& a, const Pair& b) { return a.ticks < b.ticks; });
    // Keep a strictly increasing sequence in both clocks (equal ticks would divide by zero).
    std::vector<Pair> kept;
    for (const Pair& p : m_pairs)
        if (kept.empty() || (p.ticks > kept.back().ticks && p.monotonicNs > kept.back().monotonicNs))
            kept.push_back(p);
    for (size_t i = 0; i + 1 < kept.size(); ++i)
        kept[i].slope = double(kept[i + 1].monotonicNs - kept[i].monotonicNs)
            / double(kept[i + 1].ticks - kept[i].ticks);
    if (kept.size() >= 2) kept.back().slope = kept[kept.size() - 2].slope;
    m_pairs = std::move(kept);
}

double ClockMap::ticksPerNs() const
{
    if (m_pairs.size() < 2) return 1.0;
    const Pair& a = m_pairs.front();
    const Pair& b = m_pairs.back();
    return double(b.ticks - a.ticks) / double(b.monotonicNs - a.monotonicNs);
}

// The pair whose segment holds `ticks`: the last pair at or before it (the first before all).
size_t ClockMap::segmentOf(uint64_t ticks) const
{
    auto upper = std::upper_bound(
        m_pairs.begin(), m_pairs.end(), ticks, [](uint64_t t, const Pair& p) { return t < p.ticks; });
    return upper == m_pairs.begin() ? 0 : size_t(upper - m_pairs.begin()) - 1;
}

} // namespace sightline::collector
