#include "lod.h"

#include "lane_query.h"

#include <algorithm>

namespace sightline {
namespace {

constexpr uint32_t kFan = LaneLod::kBlock;

// Exponential search forward from `from` for the first index in [from, end) where `past`
// turns true (`past` is monotone), then a binary search: O(log distance).
template <class Past>
uint32_t gallop(uint32_t from, uint32_t end, Past past)
{
    uint32_t lo = from, step = 1, hi = from;
    while (hi < end && !past(hi)) {
        lo = hi + 1;
        hi = std::min<uint64_t>(uint64_t(hi) + step, end);
        step *= 2;
    }
    hi = std::min(hi, end);
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (past(mid)) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

__extension__ typedef __int128 WideInt;  // span * column can exceed 64 bits on long traces

Timestamp columnBoundary(TimeRange window, size_t column, size_t columns)
{
    const WideInt span = window.end - window.start;
    return window.start + Timestamp(span * WideInt(column) / WideInt(columns));
}

} // namespace

void LaneLod::build(const Track& track, IndexRange lane)
{
    const uint32_t n = lane.size();
    const uint32_t blocks = (n + kFan - 1) / kFan;
    m_busyAtBlock.assign(blocks + 1, 0);
    m_blockStart.resize(blocks);
    m_longestLevels.clear();
    Level level;
    level.index.reserve(blocks);
    level.duration.reserve(blocks);
    Duration busy = 0;
    for (uint32_t b = 0; b < blocks; ++b) {
        m_busyAtBlock[b] = busy;
        const uint32_t first = lane.begin + b * kFan, last = std::min(first + kFan, lane.end);
        m_blockStart[b] = track.events.start[first];
        uint32_t best = first;
        for (uint32_t i = first; i < last; ++i) {
            busy += track.duration(i);
            if (track.duration(i) > track.duration(best)) best = i;
        }
        level.index.push_back(best);
        level.duration.push_back(track.duration(best));
    }
    m_busyAtBlock[blocks] = busy;

    // Level k + 1 keeps the longest of each 16 entries of level k.
    while (level.index.size() > 1) {
        Level up;
        for (size_t b = 0; b < level.index.size(); b += kFan) {
            size_t best = b;
            for (size_t k = b + 1; k < std::min(level.index.size(), b + kFan); ++k)
                if (level.duration[k] > level.duration[best]) best = k;
            up.index.push_back(level.index[best]);
            up.duration.push_back(level.duration[best]);
        }
        m_longestLevels.push_back(std::move(level));
        level = std::move(up);
    }
    m_longestLevels.push_back(std::move(level));
}

Duration LaneLod::busyBefore(const Track& track, IndexRange lane, uint32_t index) const
{
    const uint32_t block = (index - lane.begin) / kFan;
    Duration busy = m_busyAtBlock[block];
    for (uint32_t i = lane.begin + block * kFan; i < index; ++i) busy += track.duration(i);
    return busy;
}

uint32_t LaneLod::longestIn(const Track& track, IndexRange lane, uint32_t begin, uint32_t end) const
{
    uint32_t best = LodColumn::kNoEvent;
    Duration bestDuration = -1;
    auto consider = [&](uint32_t index, Duration duration) {
        if (duration > bestDuration) best = index, bestDuration = duration;
    };
    // Walk up the levels: consume the partial blocks at both ends, then move to whole blocks.
    uint32_t lo = begin - lane.begin, hi = end - lane.begin;
    auto take = [&](int level, uint32_t k) {
        if (level < 0) consider(lane.begin + k, track.duration(lane.begin + k));
        else consider(m_longestLevels[level].index[k], m_longestLevels[level].duration[k]);
    };
    for (int level = -1; lo < hi; ++level) {
        const bool top = level + 1 == int(m_longestLevels.size());
        if (hi - lo <= 2 * kFan || top) {
            for (uint32_t k = lo; k < hi; ++k) take(level, k);
            break;
        }
        while (lo % kFan != 0) take(level, lo++);
        while (hi % kFan != 0) take(level, --hi);
        lo /= kFan;
        hi /= kFan;
    }
    return best;
}

uint32_t LaneLod::firstStartingFrom(const Track& track, IndexRange lane, uint32_t from, Timestamp t) const
{
    // Find the first block starting at or after t in the small block array, then finish
    // inside the block before it.
    const auto& start = track.events.start;
    const uint32_t fromBlock = (from - lane.begin) / kFan;
    const uint32_t block = gallop(fromBlock, uint32_t(m_blockStart.size()), [&](uint32_t b) { return m_blockStart[b] >= t; });
    const uint32_t lo = std::max(from, lane.begin + (block ? block - 1 : 0) * kFan);
    const uint32_t hi = std::min(lane.end, lane.begin + block * kFan);
    return gallop(lo, hi, [&](uint32_t i) { return start[i] >= t; });
}

void LaneLod::query(const Track& track, IndexRange lane, TimeRange window, std::span<LodColumn> out) const
{
    std::fill(out.begin(), out.end(), LodColumn {});
    if (lane.empty() || out.empty() || window.empty()) return;
    const auto& start = track.events.start;
    const auto& end = track.events.end;
    uint32_t first = firstEndingAfter(track, lane, window.start);
    uint32_t last = first;
    for (size_t c = 0; c < out.size() && first < lane.end; ++c) {
        const Timestamp c0 = columnBoundary(window, c, out.size());
        const Timestamp c1 = std::max(columnBoundary(window, c + 1, out.size()), c0 + 1);
        // Only the previous column's last event can still reach into this column.
        first = gallop(std::max(first, last ? last - 1 : 0), lane.end,
                       [&](uint32_t i) { return effectiveEnd(start[i], end[i]) > c0; });
        const uint32_t previousSpan = last > first ? last - first : 0;
        last = firstStartingFrom(track, lane, std::max(first, last), c1);
        // The next column most likely ends about as far on: fetch that memory now, so the
        // searches there do not each wait for it (the arrays outgrow the caches at 10M events).
        if (const uint64_t guess = uint64_t(last) + std::max(previousSpan, last - first); guess < lane.end) {
            __builtin_prefetch(&start[guess]);
            __builtin_prefetch(&end[guess]);
            __builtin_prefetch(&m_blockStart[(guess - lane.begin) / kFan]);
        }
        if (last <= first) continue;
        Duration covered = busyBefore(track, lane, last) - busyBefore(track, lane, first);
        covered -= std::max<Duration>(0, c0 - start[first]);
        covered -= std::max<Duration>(0, end[last - 1] - c1);
        if (first == last - 1) covered = std::max<Duration>(0, std::min(end[first], c1) - std::max(start[first], c0));
        LodColumn& column = out[c];
        column.busy = float(std::clamp(double(covered) / double(c1 - c0), 0.0, 1.0));
        column.count = last - first;
        column.longest = longestIn(track, lane, first, last);
    }
}

size_t LaneLod::residentBytes() const
{
    size_t bytes = m_busyAtBlock.capacity() * sizeof(Duration) + m_blockStart.capacity() * sizeof(Timestamp)
        + m_longestLevels.capacity() * sizeof(Level);
    for (const auto& level : m_longestLevels)
        bytes += level.index.capacity() * sizeof(uint32_t) + level.duration.capacity() * sizeof(Duration);
    return bytes;
}

void queryTrackLod(const Track& track, const std::vector<LaneLod>& lanes, TimeRange window, std::span<LodColumn> out)
{
    // Nested tracks: lane 0 encloses every deeper event, so its busy fraction and longest
    // event describe the whole row. Freely overlapping tracks: combine the lanes (busy is the
    // busiest lane's, a lower bound of the union).
    std::fill(out.begin(), out.end(), LodColumn {});
    if (track.laneCount() == 0) return;
    if (track.nested) {
        lanes[0].query(track, track.lane(0), window, out);
        return;
    }
    std::vector<LodColumn> laneColumns(out.size());
    for (uint32_t l = 0; l < track.laneCount(); ++l) {
        lanes[l].query(track, track.lane(l), window, laneColumns);
        for (size_t c = 0; c < out.size(); ++c) {
            const LodColumn& from = laneColumns[c];
            LodColumn& to = out[c];
            to.busy = std::max(to.busy, from.busy);
            to.count += from.count;
            if (from.longest != LodColumn::kNoEvent
                && (to.longest == LodColumn::kNoEvent || track.duration(from.longest) > track.duration(to.longest)))
                to.longest = from.longest;
        }
    }
}

} // namespace sightline
