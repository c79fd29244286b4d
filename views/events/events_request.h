// What the Events View is asked to list, by the timeline, the Analysis Summary, the Expert view
// and the shell: a source of events (model/events/event_rows.h), a name filter and a title. A
// plain value, so that views asking for events need not include the widget.
#pragma once

#include "model/events/event_rows.h"
#include "views/events/event_query.h"

#include <QString>

namespace sightline::views {

// What to list: the events of some tracks (and time range), optionally filtered by name.
struct EventsRequest
{
    EventSource source;
    NameFilter filter;
    QString title; // shown above the table, e.g. "CUDA HW > Stream 7"; empty: described from the source
};

} // namespace sightline::views
