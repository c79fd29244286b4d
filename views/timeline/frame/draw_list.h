// The draw list: what one frame of the canvas shows, computed from the model's window and
// level-of-detail queries before anything is painted (as Tracy's timeline preprocesses zones
// into a compact list that its draw pass only reads). Every lane on screen has a list of
// boxes (events at least a pixel or two wide, drawn as themselves, with a label when there
// is room) and a list of bars (pixel columns of dense data: the height is the busy fraction,
// at least one pixel when non-zero; equal neighbours merged). A counter row's lane holds an area
// graph instead: per pixel column a bar up to the mean and a band from minimum to maximum. A
// thread's CPU lane holds bands only: its state strip and, above it, its sample ticks.
// Coordinates are viewport pixels. The list's
// vectors keep their capacity from frame to frame, so steady redraws allocate nothing.
#pragma once

#include "views/timeline/rows/row_tree.h"
#include "views/timeline/scale/time_scale.h"

#include <QRgb>
#include <algorithm>
#include <vector>

namespace sightline::views {

// Box ends are clipped to this many pixels outside the viewport: a box cut by an edge shows
// no edge of its own there, and its coordinates stay small.
constexpr double kBoxOverhang = 4;

inline float clipBoxX(double x, double width)
{
    return float(std::clamp(x, -kBoxOverhang, width + kBoxOverhang));
}

// True when the box runs on past an edge of a viewport `width` pixels wide: its clipped
// end there is not its real one.
inline bool cutByEdge(float x0, float x1, double width)
{
    return x0 <= -kBoxOverhang || x1 >= width + kBoxOverhang;
}

// The pixels a lane's drawing may use: a one pixel gap above and below when there is room.
inline int laneInnerHeight(int laneHeight)
{
    return laneHeight >= 8 ? laneHeight - 2 : std::max(1, laneHeight - 1);
}

struct DrawBox
{
    float x0 = 0, x1 = 0; // clipped to just outside the viewport
    QRgb fill = 0;
    EventRef event;
};

// The order boxes are kept and painted in within a lane: by event.
inline bool drawnBefore(const DrawBox& a, const DrawBox& b)
{
    return a.event < b.event;
}

struct DrawBar
{
    uint16_t x = 0; // first pixel column
    uint16_t width = 1; // neighbouring columns of equal height and colour share one bar
    uint16_t height = 0; // pixels, from the lane's bottom edge up
    QRgb fill = 0;
};

// Pixels from `low` to `high` above the lane's bottom edge over some columns: a counter
// graph's spread (several samples share a column), drawn lighter behind the mean's bar; a
// stretch of a thread's state strip; a column of its sample ticks. Painted in list order,
// before bars and boxes.
struct DrawBand
{
    uint16_t x = 0;
    uint16_t width = 1;
    uint16_t low = 0, high = 0;
    QRgb fill = 0;
};

struct LaneDraw
{
    int top = 0; // viewport y of the lane
    int height = 0;
    bool utilization = false;
    uint32_t counter = kNoCounter; // a counter row's series: bars are its mean, bands its spread
    bool threadCpu = false; // a thread's CPU lane: bands only (thread_cpu_columns.h)
    Tid thread; // the thread of a CPU lane
    std::vector<DrawBox> boxes; // ordered by drawnBefore
    std::vector<DrawBar> bars;
    std::vector<DrawBand> bands;
};

struct DrawRow
{
    int node = -1;
    int top = 0; // viewport y
    int height = 0;
    RowContent content = RowContent::Nothing;
    bool group = false; // a header row of the tree (drawn on a tinted band)
};

struct DrawList
{
    TimeScale scale;
    int scrollY = 0;
    int width = 0;
    int height = 0;
    std::vector<DrawRow> rows;
    std::vector<LaneDraw> lanes; // only the first laneCount are in use
    size_t laneCount = 0;

    void reset()
    {
        rows.clear();
        laneCount = 0;
    }
    LaneDraw& addLane(int top, int laneHeight, bool utilization)
    {
        if (laneCount == lanes.size()) lanes.emplace_back();
        LaneDraw& lane = lanes[laneCount++];
        lane.top = top;
        lane.height = laneHeight;
        lane.utilization = utilization;
        lane.counter = kNoCounter;
        lane.threadCpu = false;
        lane.boxes.clear();
        lane.bars.clear();
        lane.bands.clear();
        return lane;
    }
    size_t boxCount() const;
    size_t barCount() const;
};

inline size_t DrawList::boxCount() const
{
    size_t n = 0;
    for (size_t i = 0; i < laneCount; ++i)
        n += lanes[i].boxes.size();
    return n;
}

inline size_t DrawList::barCount() const
{
    size_t n = 0;
    for (size_t i = 0; i < laneCount; ++i)
        n += lanes[i].bars.size();
    return n;
}

} // namespace sightline::views
