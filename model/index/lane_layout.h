// How a track's events are placed in lanes, the layout every lane query (lane_query.h) and level
// of detail (lod.h) relies on: each lane sorted by start and free of overlap, lanes stored one
// after another (model/core/track.h). Nested events take their nesting depth as their lane; events
// that overlap without nesting (NVTX start/end ranges) take the first lane free at their start.
// The sets the assignment keeps while it walks the events are in lane_sets.h.
#pragma once

#include "model/core/track.h"

namespace sightline {

// Lays out one track's unsorted columns lane by lane (stable for equal keys): sorts by start
// (longer first on ties), assigns each event the nesting depth or the first free lane, and
// sets laneBegin and nested. Used by TraceBuilder::build for every track and for the tracks the
// model derives (model/derived).
void layOutTrack(Track& track);

} // namespace sightline
