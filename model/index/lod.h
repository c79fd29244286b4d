// Level of detail for drawing: for W pixel columns over [t0, t1), each column's busy fraction
// (the share of the column covered by events of one lane), the number of events touching it and
// the longest of them. Each lane keeps a small summary built once after loading: the start and
// the running busy time at every 16th event and, level by level, the longest event of every
// block of 16, 256, 4096, ... events with its duration (about 2 bytes per event). A query walks
// the columns left to right, searching the small block arrays rather than the events, so its
// cost is about O(W + log n) and barely grows with the event count.
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
    // The longest event of each block of a level, with its duration kept beside it so a
    // query never has to load a far-away event to compare.
    struct Level
    {
        std::vector<uint32_t> index;
        std::vector<Duration> duration;
    };

    Duration busyBefore(const Track& track, IndexRange lane, uint32_t index) const;
    uint32_t longestIn(const Track& track, IndexRange lane, uint32_t begin, uint32_t end) const;
    // The first event of the lane starting at or after `t`, searching forward from `from`.
    uint32_t firstStartingFrom(const Track& track, IndexRange lane, uint32_t from, Timestamp t) const;

    std::vector<Duration> m_busyAtBlock;     // busy time of events before block b
    std::vector<Timestamp> m_blockStart;     // start of the first event of block b
    std::vector<Level> m_longestLevels;      // level k: the longest per block of 16^(k+1) events
};

// Column-wise summary of a whole track: per column the busiest lane's fraction (for nested
// tracks lane 0, the outermost), summed counts and the overall longest event.
void queryTrackLod(const Track& track, const std::vector<LaneLod>& lanes, TimeRange window,
                   std::span<LodColumn> out);

} // namespace sightline
