// Shared by the Events View tests: picking tracks of a kind, waiting for a view's query, and
// brute-force answers (computed the slow, obvious way) to compare the view's results with.
#pragma once

#include "model/trace/trace.h"
#include "views/events/events_view.h"

#include <string>
#include <vector>

namespace sightline::testing {

std::vector<TrackId> tracksOfKind(const Trace& trace, TrackKind kind);
// Every event of the tracks, in no particular order.
std::vector<EventRef> allEventsOf(const Trace& trace, const std::vector<TrackId>& tracks);
// The name the Events View shows for an event, derived independently of views/events.
std::string nameOf(const Trace& trace, EventRef event);
bool containsCaseless(const std::string& text, const std::string& needle);

// Waits (processing events) until the view has no query running. False after `ms`.
bool waitUntilIdle(const views::EventsView& view, int ms = 60000);

} // namespace sightline::testing
