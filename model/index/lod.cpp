#include "model/index/lod.h"

#include "model/common/huge_pages.h"

#include <algorithm>

namespace sightline {

void LaneLod::build(const Track& track, IndexRange lane)
{
    m_blocks.clear();
    m_levelStart.clear();
    if (lane.empty()) return;
    const auto& start = track.events.start;
    const auto& end = track.events.end;
    auto clipped = [](Duration d) { return uint32_t(std::min<Duration>(d, kLongDuration)); };

    // Level sizes first: each level up sums up kFanOut blocks, until one has at most kFanOut.
    m_levelStart.push_back(0);
    for (uint32_t count = (lane.size() + kBlock - 1) / kBlock;; count = (count + kFanOut - 1) / kFanOut) {
        m_levelStart.push_back(m_levelStart.back() + count);
        if (count <= kFanOut) break;
    }
    resizeColumn(m_blocks, m_levelStart.back());

    // Level 0 from the events.
    for (uint32_t b = 0; b < m_levelStart[1]; ++b) {
        const uint32_t first = lane.begin + b * kBlock, last = std::min(first + kBlock, lane.end);
        Duration busy = 0, busyBeforeLongest = 0, longest = -1;
        uint32_t longestIndex = first;
        for (uint32_t i = first; i < last; ++i) {
            const Duration d = end[i] - start[i];
            if (d > longest) longest = d, longestIndex = i, busyBeforeLongest = busy;
            busy += d;
        }
        m_blocks[b] = {start[first], effectiveEnd(start[last - 1], end[last - 1]), busy, clipped(longest),
            longestIndex, clipped(busyBeforeLongest)};
    }

    // The levels above from the one below.
    for (size_t level = 1; level + 1 < m_levelStart.size(); ++level) {
        const Block* below = m_blocks.data() + m_levelStart[level - 1];
        const uint32_t belowCount = m_levelStart[level] - m_levelStart[level - 1];
        for (uint32_t p = 0; p < m_levelStart[level + 1] - m_levelStart[level]; ++p) {
            const uint32_t first = p * kFanOut, last = std::min(first + kFanOut, belowCount);
            Block sum = below[first];
            for (uint32_t k = first + 1; k < last; ++k) {
                const Block& b = below[k];
                const bool longer = b.longest != sum.longest ? b.longest > sum.longest
                                                             : b.longest == kLongDuration
                        && track.duration(b.longestIndex) > track.duration(sum.longestIndex);
                if (longer) {
                    sum.longest = b.longest;
                    sum.longestIndex = b.longestIndex;
                    sum.busyBeforeLongest = b.busyBeforeLongest == kLongDuration
                        ? kLongDuration
                        : clipped(sum.busy + b.busyBeforeLongest);
                }
                sum.busy += b.busy;
            }
            sum.lastEnd = below[last - 1].lastEnd;
            m_blocks[m_levelStart[level] + p] = sum;
        }
    }
}

size_t LaneLod::residentBytes() const
{
    return m_blocks.capacity() * sizeof(Block) + m_levelStart.capacity() * sizeof(uint32_t);
}

void queryTrackLod(
    const Track& track, const std::vector<LaneLod>& lanes, TimeRange window, std::span<LodColumn> out)
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
                && (to.longest == LodColumn::kNoEvent
                    || track.duration(from.longest) > track.duration(to.longest)))
                to.longest = from.longest;
        }
    }
}

} // namespace sightline
