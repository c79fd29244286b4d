// Where events are on the canvas, both ways: the event under a point (hit testing for hover,
// click and tooltips) and every place an event is drawn (its own lane, and summary rows such
// as [All Streams] or a collapsed stream that show it too), for highlighting and connectors.
// Both use DrawListBuilder::sourcesOf, so they agree with what is painted. Coordinates are
// canvas pixels with the vertical scroll applied; places may lie off screen.
#pragma once

#include "views/timeline/interaction/timeline_state.h"

#include <QPointF>
#include <QRectF>
#include <optional>
#include <vector>

namespace sightline::views {

struct EventPlacement
{
    int row = -1; // index into the layout's rows
    QRectF rect; // at least kMinimumWidth wide
    bool ownLane = false; // the row that draws the event's track lane by lane
};

constexpr double kMinimumPlacementWidth = 3.0;
constexpr double kHitSlopPixels = 3.0;

std::vector<EventPlacement> placementsOf(const TimelineState& state, EventRef event);
// The placement to connect and to jump to: the event's own lane if shown, else the first.
std::optional<EventPlacement> primaryPlacement(const TimelineState& state, EventRef event);

// The event drawn at `pos`: one containing the time under the point, else the nearest within
// kHitSlopPixels; among several, the longest.
std::optional<EventRef> eventAt(const TimelineState& state, QPointF pos);

} // namespace sightline::views
