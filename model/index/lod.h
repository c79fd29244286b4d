// Level of detail for drawing: for W pixel columns over [t0, t1), each column's busy fraction
// (the share of the column covered by events of one lane), the number of events touching it and
// the longest of them, at a cost that does not grow with the lane's event count.
//
// Each lane keeps a pyramid of block summaries built once after loading: level 1 sums up every
// block of 16 events, each higher level every 8 blocks of the level below (first start, last
// end, busy time, longest event and the busy time before it; about 2.6 bytes per event). A
// query walks the lane once from left to right, column boundary by column boundary, taking whole
// blocks at the coarsest level that fits before the next boundary and descending only around
// the boundary itself; when the event a boundary cuts is its block's longest (a long call among
// short ones), the cut is placed there without reading the block's other events. So the memory
// a query touches grows with the column count, not with the event count.
//
// Exactness: a boundary is placed exactly (down to the event it cuts) unless it falls inside a
// block whose whole extent, first start to last end, is at most one column width (the
// tolerance). Such a block holds only events shorter than a column; it is counted whole (count,
// longest) to the column holding its midpoint, and its busy time is split by interpolation
// within what its extent allows. So a column's busy time lies between the busy time of the
// column narrowed and widened by the tolerance at each edge, and so do its count and longest
// event. Results are exact wherever no aligned group of 16 * 8^k events lies within one column
// width across a column edge. Estimating there is what keeps the cost flat: a column's edge
// costs at most one walk down the pyramid, however many events the column holds. The error is
// confined to the pixel on either side of an edge, as when drawing a dense burst antialiased.
#pragma once

#include "model/core/track.h"

#include <span>
#include <vector>

namespace sightline {

struct LodColumn
{
    float busy = 0; // 0..1 of the column's time covered by events
    uint32_t count = 0; // events touching the column
    uint32_t longest = kNoEvent; // index of the longest event touching it
    static constexpr uint32_t kNoEvent = ~0u;
};

class LaneLod
{
public:
    static constexpr int kBlockShift = 4;
    static constexpr int kFanOutShift = 3;
    static constexpr uint32_t kBlock = 1u << kBlockShift; // events per block of level 1
    static constexpr uint32_t kFanOut = 1u << kFanOutShift; // blocks per block of the next level up
    // The largest extent of a block that a query for `columns` columns over `window` may cut
    // by estimate (see "Exactness" above): one column width, 0 for columns under a nanosecond.
    static Duration tolerance(TimeRange window, size_t columns);

    void build(const Track& track, IndexRange lane);
    // Fills `out` (its size is the column count) for the window.
    void query(const Track& track, IndexRange lane, TimeRange window, std::span<LodColumn> out) const;
    size_t residentBytes() const;

private:
    friend class LodWalker;

    // The summary of one block, packed to 36 bytes. Durations kept in 32 bits saturate at
    // kLongDuration: the longest event's is then read from the events, and a block whose busy
    // time before it saturates is not cut at it.
#pragma pack(push, 4)
    struct Block
    {
        Timestamp firstStart = 0; // start of the block's first event
        Timestamp lastEnd = 0; // effective end of its last event
        Duration busy = 0; // sum of its events' durations
        uint32_t longest = 0; // duration of its longest event
        uint32_t longestIndex = 0; // that event's index in the track
        uint32_t busyBeforeLongest = 0; // sum of the durations of its events before the longest
    };
#pragma pack(pop)
    static constexpr uint32_t kLongDuration = ~0u;

    // All levels in one allocation: level k (blocks of kBlock * kFanOut^k events) is
    // m_blocks[m_levelStart[k], m_levelStart[k + 1]).
    std::vector<Block> m_blocks;
    std::vector<uint32_t> m_levelStart;
};

// Column-wise summary of a whole track: per column the busiest lane's fraction (for nested
// tracks lane 0, the outermost), summed counts and the overall longest event.
void queryTrackLod(
    const Track& track, const std::vector<LaneLod>& lanes, TimeRange window, std::span<LodColumn> out);

} // namespace sightline
