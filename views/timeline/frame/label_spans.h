// Where a lane's box labels may go. Boxes are painted in list order, each over those before
// it, so in a lane that combines tracks ([All Streams], where kernels of different streams
// run at once) a box can be partly or wholly hidden by later ones. A box's label belongs in
// the widest stretch of it that stays visible inside the viewport: those stretches never
// overlap, so neither do the labels, and no label is written over another box.
// Cost: O(n) for a lane whose boxes do not overlap (most lanes), else O(n log n).
#pragma once

#include "views/timeline/frame/draw_list.h"

#include <span>
#include <vector>

namespace sightline::views {

// The widest visible stretch [x0, x1) of the box at index `box` of its lane, viewport pixels.
struct LabelSpan
{
    size_t box = 0;
    float x0 = 0, x1 = 0;
};

// Fills `out`, in box order, with the widest visible stretch of each of `boxes` (painted in
// that order) within a viewport `width` pixels wide, when it is at least `minWidth` wide.
void visibleLabelSpans(
    std::span<const DrawBox> boxes, float width, float minWidth, std::vector<LabelSpan>& out);

} // namespace sightline::views
