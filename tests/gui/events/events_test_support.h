// Shared by the Events View tests (and the shell's): picking tracks of a kind, waiting for a view's query,
// and brute-force answers (computed the slow, obvious way) to compare the view's results with.
#pragma once

#include "model/trace/trace.h"
#include "views/events/events_view.h"
#include "views/timeline/widgets/row_header_pane.h"

#include <QString>
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

// Right-clicks the row's label in the row tree and picks `actionText` from its context menu, as
// a user would (the menu runs its own event loop; the pick happens from inside it). Returns
// whether the menu offered the action.
bool chooseFromRowMenu(views::RowHeaderPane& pane, int node, const QString& actionText);

} // namespace sightline::testing
