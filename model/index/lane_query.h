// Window queries over one track: which events overlap a half-open time window. On a lane this
// is two binary searches (starts and ends are both sorted there); over a whole track it is one
// search pair per lane.
#pragma once

#include "model/core/track.h"

#include <optional>
#include <vector>

namespace sightline {

// The events of lane `lane` overlapping `window`, as a contiguous index range.
IndexRange laneWindow(const Track& track, uint32_t lane, TimeRange window);

// The first event of the lane whose effective end is after `t` (the lane's end if none).
uint32_t firstEndingAfter(const Track& track, IndexRange lane, Timestamp t);
// The first event of the lane starting at or after `t` (the lane's end if none).
uint32_t firstStartingAtOrAfter(const Track& track, IndexRange lane, Timestamp t);

// The events of lane `lane` whose START lies in `range` (all of the lane without a range): the
// rule of the stats engine and of everything that must agree with it.
IndexRange laneStartingIn(const Track& track, uint32_t lane, const std::optional<TimeRange>& range);

} // namespace sightline
