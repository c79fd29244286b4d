#include "model/index/lane_query.h"

#include <algorithm>
#include <cstddef>

namespace sightline {

uint32_t firstEndingAfter(const Track& track, IndexRange lane, Timestamp t)
{
    const auto& start = track.events.start;
    const auto& end = track.events.end;
    uint32_t lo = lane.begin, hi = lane.end;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (effectiveEnd(start[mid], end[mid]) <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

uint32_t firstStartingAtOrAfter(const Track& track, IndexRange lane, Timestamp t)
{
    const auto& start = track.events.start;
    auto it = std::lower_bound(start.begin() + lane.begin, start.begin() + lane.end, t);
    return uint32_t(it - start.begin());
}

IndexRange laneWindow(const Track& track, uint32_t lane, TimeRange window)
{
    const IndexRange range = track.lane(lane);
    if (window.empty()) return {range.begin, range.begin};
    const uint32_t first = firstEndingAfter(track, range, window.start);
    const uint32_t last = firstStartingAtOrAfter(track, range, window.end);
    return first < last ? IndexRange {first, last} : IndexRange {first, first};
}

IndexRange laneStartingIn(const Track& track, uint32_t lane, const std::optional<TimeRange>& range)
{
    const IndexRange events = track.lane(lane);
    if (!range) return events;
    const uint32_t first = firstStartingAtOrAfter(track, events, range->start);
    return {first, std::max(first, firstStartingAtOrAfter(track, events, range->end))};
}

} // namespace sightline
