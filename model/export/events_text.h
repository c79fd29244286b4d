// A listing of events as text. CSV, the one dialect every CSV of events uses (the Events View's
// Export CSV and `sightline export --type csv`): a header row of the columns' CSV headers
// (model/events/event_columns.h: "Start (ns)"), then one record per event of each column's CSV
// text (model/events/event_cells.h: plain numbers in the header's unit), quoted as
// model/text/csv_writer.h quotes. TSV, what the Events View copies to the clipboard: the text the
// table shows, the columns' names as the header line, tabs and line breaks in a cell made spaces.
#pragma once

#include "model/common/result.h"
#include "model/events/event_cells.h"
#include "model/export/exporters.h"
#include "model/export/output_file.h"

#include <atomic>
#include <span>
#include <string>

namespace sightline {

// Appends the header and a record per row to `out`. Returns false, having stopped, when
// `cancel` was set.
bool writeEventRecords(TextOutput& out, const EventCells& cells, std::span<const EventRef> rows,
    std::span<const EventColumn> columns, const std::atomic<bool>* cancel = nullptr);

// Writes the rows to the file `path` (through a temporary, renamed into place at the end).
// Cancelled, it writes nothing and says so in its sentence.
Status exportEventsCsv(const EventCells& cells, std::span<const EventRef> rows,
    std::span<const EventColumn> columns, const std::string& path, const ExportOptions& options,
    const std::atomic<bool>* cancel = nullptr);

// The header line and a line per row, each ending with a line break.
std::string eventsAsTsv(
    const EventCells& cells, std::span<const EventRef> rows, std::span<const EventColumn> columns);

} // namespace sightline
