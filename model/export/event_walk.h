// Visiting every event of one kind across a Trace, in a fixed order: tracks in trace order,
// each track lane by lane (for nested tracks the lane is the nesting depth), each lane by start.
// The exporters use it so that they all see the same events in the same order.
#pragma once

#include "model/trace/trace.h"

namespace sightline {

// Calls visit(const Track&, EventRef, uint32_t lane) for each event of every track of `kind`.
template <class Visit> void forEachEvent(const Trace& trace, TrackKind kind, Visit&& visit)
{
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
        const Track& track = trace.tracks[t];
        if (track.key.kind != kind) continue;
        for (uint32_t lane = 0; lane < track.laneCount(); ++lane) {
            const IndexRange range = track.lane(lane);
            for (uint32_t i = range.begin; i < range.end; ++i)
                visit(track, EventRef {TrackId(t), i}, lane);
        }
    }
}

} // namespace sightline
