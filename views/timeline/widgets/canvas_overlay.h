// What the canvas draws over the cached frame on every repaint (cheap, so hovering and
// selecting never rebuild the draw list): the dragged time range with its duration, the
// selected event and its correlated events outlined in teal with connector lines between
// them, arrow buttons at the edges for correlated events that are off screen (a click goes
// there), the hovered event's outline and the cursor line.
#pragma once

#include "views/timeline/frame/event_style.h"
#include "views/timeline/interaction/timeline_state.h"

#include <QPainter>
#include <vector>

namespace sightline::views {

struct JumpTarget
{
    QRectF area;
    EventRef event;
};

void paintSelectionRange(
    QPainter& painter, const TimelineState& state, const CanvasColors& colors, QSize viewport);

// Returns the arrow buttons drawn for correlated events off screen.
std::vector<JumpTarget> paintHighlights(
    QPainter& painter, const TimelineState& state, const CanvasColors& colors, QSize viewport);

void paintHover(QPainter& painter, const TimelineState& state, const CanvasColors& colors, EventRef hovered,
    QSize viewport);

void paintCursorLine(QPainter& painter, const CanvasColors& colors, double x, QSize viewport);

} // namespace sightline::views
