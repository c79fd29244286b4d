// Getting events out of the Events View: the selected rows as tab-separated text for the
// clipboard (the text the table shows, a header line first), and the whole current table as
// CSV (plain numbers in the units the CSV headers name, so that a spreadsheet or a script can
// compute with them). Only the visible columns are written, in their on-screen order.
#pragma once

#include "views/events/event_columns.h"

#include <QString>
#include <atomic>
#include <span>
#include <vector>

namespace sightline::views {

QString eventsAsTsv(
    const EventCells& cells, std::span<const EventRef> rows, const std::vector<EventColumn>& columns);

// Writes the header and one line per row to `path`. Returns an empty string on success, else
// one sentence naming the file and what to do. Stops (and removes the file) when `cancel` is set.
QString writeEventsCsv(const EventCells& cells, std::span<const EventRef> rows,
    const std::vector<EventColumn>& columns, const QString& path, const std::atomic<bool>* cancel = nullptr);

} // namespace sightline::views
