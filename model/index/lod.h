// Level of detail for drawing: for W pixel columns over [t0, t1), each column's busy fraction
// (the share of the column covered by events of one lane), the number of events touching it and
// the longest of them. Each lane keeps a small summary built once after loading: the running
// busy time at every 16th event and, level by level, the longest event of every block of 16,
// 256, 4096, ... events (about 1 byte per event). A query then gallops from column to column,
// so its cost is about O(W + log n), not O(events in view).
#pragma once

#include "../core/track.h"

#include <span>
#include <vector>

namespace sightline {

struct LodColumn
{
    float busy = 0;                  // 0..1 of the column's time covered by events
    uint32_t count = 0;              // events touching the column
    uint32_t longest = kNoEvent;     // index of the longest event touching it
    static constexpr uint32_t kNoEvent = ~0u;
};

class LaneLod
{
public:
    static constexpr uint32_t kBlock = 16;

    void build(const Track& track, IndexRange lane);
    // Fills `out` (its size is the column count) for the window.
    void query(const Track& track, IndexRange lane, TimeRange window, std::span<LodColumn> out) const;
    size_t residentBytes() const;

private:
    Duration busyBefore(const Track& track, IndexRange lane, uint32_t index) const;
    uint32_t longestIn(const Track& track, IndexRange lane, uint32_t begin, uint32_t end) const;

    std::vector<Duration> m_busyAtBlock;               // busy time of events before block b
    std::vector<std::vector<uint32_t>> m_longestLevels; // level k: argmax per block of 16^(k+1)
};

// Column-wise summary of a whole track: per column the busiest lane's fraction (for nested
// tracks lane 0, the outermost), summed counts and the overall longest event.
void queryTrackLod(const Track& track, const std::vector<LaneLod>& lanes, TimeRange window,
                   std::span<LodColumn> out);

} // namespace sightline
