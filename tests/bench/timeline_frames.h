// The timeline's frame loop shared by the benchmarks that time it (bench_timeline,
// bench_first_paint): a view panned a few pixels per frame at one zoom level, each frame laid
// out and painted as the canvas does, with the layout, paint and frame percentiles.
#pragma once

#include "bench_support.h"
#include "model/trace/trace.h"
#include "views/timeline/widgets/timeline_view.h"

#include <cstddef>

namespace sightline::bench {

constexpr int kFrames = 300;

struct ZoomLevel
{
    const char* name;
    double fraction; // of the span shown
};
constexpr ZoomLevel kZoomLevels[] = {{"whole span", 1.0}, {"1/1000 span", 1e-3}, {"1/10^6 span", 1e-6}};

struct FrameTimes
{
    Percentiles layout, paint, frame;
    size_t lanes = 0, rows = 0, boxes = 0, bars = 0;
    double firstFrameNs = 0; // the first frame at this zoom: its tiles computed, not reused
};

// Draws kFrames frames at one zoom level, panning 3 pixels per frame (never the same window).
FrameTimes measureFrames(views::TimelineView& view, const Trace& trace, double fraction);

} // namespace sightline::bench
