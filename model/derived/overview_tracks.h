// Stand-ins that draw a lane the way its events look from afar: the overview a report stores
// (model/format/report_overview.h), so that the viewer paints the whole timeline before it
// decodes a single event batch.
//
// A lane's events are walked once, in order. An event at least `width` long stands for itself.
// Shorter ones gather into runs: a run starts at a short event and takes the short events that
// start less than `width` after it. A run becomes one stand-in that starts where the run starts,
// lasts as long as its events together (busy time is kept exactly, and since a lane's events
// never overlap, the stand-in ends before the next one starts) and carries the name, detail and
// value of the run's longest event, so it gets that event's colour and label (no correlation:
// a stand-in links to nothing).
// Every stand-in lies within `width` of the events it stands for: wherever `width` is under a
// pixel, the picture (each pixel column's busy fraction and the colour of its longest event) is
// the lane's own. A lane gets at most 3 * extent / width + 1 stand-ins, whatever its size.
#pragma once

#include "model/core/time.h"
#include "model/core/track.h"
#include "model/trace/trace.h"

#include <vector>

namespace sightline {

// The overview's resolution: runs are at most span / kOverviewColumns wide, under half a pixel
// of a whole-span view on any screen.
constexpr int64_t kOverviewColumns = 4096;
Duration overviewWidth(TimeRange span);

// One track's stand-ins, lane by lane: the same key, nesting and lane count. Their detail
// column refers to the trace's descriptor tables.
Track overviewTrack(const Track& track, Duration width);

// Every stored track's stand-ins (not the derived tracks), at the width of the trace's data
// span, with the descriptors they use. A report's descriptor tables can grow with its events
// (each NVTX payload or synchronized event makes one), so the stand-ins' detail columns refer to
// tables of their own: only the descriptors stand-ins use, numbered in order of first use, so
// that reading an overview never reads the report's tables. Tracks are made on all cores.
struct Overview
{
    std::vector<Track> tracks;
    Trace descriptors; // only its descriptor tables are filled
};
Overview buildOverview(const Trace& trace);

} // namespace sightline
