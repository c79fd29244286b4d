// Navigation shared by the timeline's widgets: what a wheel turn does (Ctrl: zoom around the
// mouse, Shift or a sideways wheel: pan, otherwise scroll rows), zoom steps for keys, and
// bringing an event into view (expanding its row, scrolling to it, panning or zooming so it
// is on screen).
#pragma once

#include "views/timeline/interaction/timeline_state.h"

class QWheelEvent;

namespace sightline::views {

constexpr double kWheelZoomPerNotch = 1.25;
constexpr double kKeyZoomStep = 1.5;
constexpr double kKeyPanFraction = 0.15;

// `anchorX` is the mouse position in canvas pixels (Ctrl+wheel keeps the time there fixed).
void applyWheel(TimelineState& state, const QWheelEvent& event, double anchorX);

// The shown row and lane that draw `event` lane by lane: expands its ancestors when needed.
// Returns the content y range [top, bottom) of the lane, or an empty pair when no row shows it.
std::pair<int, int> revealRowOf(TimelineState& state, EventRef event);

// Makes `event` visible: its row shown and scrolled to, and the window panned to it (zoom
// kept) or, when it is wider than the window, zoomed to frame it. `zoomToFit` frames it always.
void bringIntoView(TimelineState& state, EventRef event, bool zoomToFit);

// The event's time range (instants count as one nanosecond).
TimeRange eventRange(const Trace& trace, EventRef event);

} // namespace sightline::views
