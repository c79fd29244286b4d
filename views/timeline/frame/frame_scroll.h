// Reusing the last frame while the view pans, as a scroll area blits its viewport and paints
// only what was exposed. When only the window's start moved (same duration, same width), by
// less than half the width, and pixels span at least kMinNanosecondsPerPixel, the image and
// its draw list move by the whole number of pixels nearest to the pan; only the exposed
// columns are laid out and painted, plus, per lane, the boxes whose labels depend on the
// viewport's edges (a label keeps to the visible part of its box, so it moves when an edge
// crosses the box). The image then follows the wanted window to within half a pixel: the
// origin keeps the exact fraction, so the lag never accumulates. Anything else (zoom, rows,
// scroll, size, palette) lays out and paints the whole frame again.
#pragma once

#include "views/timeline/frame/draw_list.h"

#include <QImage>
#include <optional>
#include <vector>

namespace sightline::views {

// One pan of the reused frame.
struct PanStep
{
    int shift = 0; // viewport pixels; > 0: the window moved right, the content moves left
    TimeScale scale; // the window the image shows after the pan (within half a pixel of the wanted one)
    double origin = 0; // its exact start, in fractional ns
};

class FrameScroll
{
public:
    // Below this, whole pixels are not whole nanoseconds apart and the grid cannot be kept.
    static constexpr double kMinNanosecondsPerPixel = 16;

    // The frame was laid out and painted anew for `scale`.
    void reset(const TimeScale& scale);
    // The next frame must be laid out and painted anew.
    void invalidate() { m_valid = false; }
    // How to pan the current image to `wanted` on a device with `devicePixelRatio`, or
    // nothing when the frame must be redone.
    std::optional<PanStep> panTo(const TimeScale& wanted, double devicePixelRatio) const;
    void commit(const PanStep& step);

private:
    bool m_valid = false;
    double m_origin = 0;
    TimeScale m_scale;
};

// A lane's columns [x0, x1) to paint again.
struct LaneColumns
{
    size_t lane = 0;
    int x0 = 0, x1 = 0;
};

// The columns to lay out and paint after a pan of `shift` pixels in a frame `width` pixels
// wide: those it exposes, and column 0, where events that begin left of the window are drawn
// when they are too thin to reach into it otherwise.
std::vector<std::pair<int, int>> exposedColumns(int shift, int width);

// Moves the draw list `shift` pixels left (right when negative) into `scale`'s coordinates,
// dropping what leaves the viewport; boxes cut at an edge get their ends from their events.
void shiftDrawList(DrawList& list, int shift, const TimeScale& scale, const Trace& trace);

// Puts the boxes, bars and bands of freshly laid-out columns [first, last) in place of what
// the list had there: its bars and bands over those columns, its boxes starting in them and
// its boxes of the same events.
void mergeColumns(DrawList& list, const DrawList& columns, int first, int last);

// Per lane, the boxes that cross a viewport edge: taken before a pan.
std::vector<std::vector<EventRef>> edgeBoxes(const DrawList& list);

// What to repaint after a pan so that every label is where a full paint puts it (a label
// keeps to the visible part of its box): the visible part of each box that crosses an edge
// now or did before the pan (`before`), which holds its old label, moved, and its new one.
std::vector<LaneColumns> labelRepairs(const DrawList& list, const std::vector<std::vector<EventRef>>& before);

// Moves every scanline of `image` `shift` device pixels left (right when negative); the
// exposed columns keep stale pixels until painted.
void scrollImage(QImage& image, int shift);

} // namespace sightline::views
