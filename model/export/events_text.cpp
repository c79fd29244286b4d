#include "model/export/events_text.h"

#include "model/text/csv_writer.h"

namespace sightline {
namespace {

constexpr size_t kCancelCheckEvery = 1u << 16;

bool cancelled(const std::atomic<bool>* cancel)
{
    return cancel && cancel->load(std::memory_order_relaxed);
}

// Appends a TSV cell: tabs and line breaks would break the row apart.
void appendTsvField(std::string& out, std::string_view text)
{
    for (char c : text)
        out += c == '\t' || c == '\n' || c == '\r' ? ' ' : c;
}

} // namespace

bool writeEventRecords(TextOutput& out, const EventCells& cells, std::span<const EventRef> rows,
    std::span<const EventColumn> columns, const std::atomic<bool>* cancel)
{
    CsvRow header(out.buffer());
    for (EventColumn column : columns)
        header.text(csvHeader(column));
    header.end();
    std::string scratch;
    for (size_t r = 0; r < rows.size(); ++r) {
        if (r % kCancelCheckEvery == 0 && cancelled(cancel)) return false;
        out.flushIfFull();
        CsvRow record(out.buffer());
        for (EventColumn column : columns)
            record.text(cells.csv(rows[r], column, scratch));
        record.end();
    }
    return !cancelled(cancel);
}

Status exportEventsCsv(const EventCells& cells, std::span<const EventRef> rows,
    std::span<const EventColumn> columns, const std::string& path, const ExportOptions& options,
    const std::atomic<bool>* cancel)
{
    TextOutput out;
    if (Status opened = out.open(path, options.overwrite); !opened) return opened;
    try {
        if (!writeEventRecords(out, cells, rows, columns, cancel))
            return Status::failure("The export to '" + path + "' was cancelled; nothing was written.");
    } catch (const std::bad_alloc&) {
        return Status::failure("Cannot write '" + path
            + "': out of memory while exporting; close other programs and try again.");
    }
    return out.finish();
}

std::string eventsAsTsv(
    const EventCells& cells, std::span<const EventRef> rows, std::span<const EventColumn> columns)
{
    std::string text;
    auto appendLine = [&](auto&& cellText) {
        for (size_t c = 0; c < columns.size(); ++c) {
            if (c > 0) text += '\t';
            appendTsvField(text, cellText(columns[c]));
        }
        text += '\n';
    };
    appendLine([](EventColumn column) { return columnSpec(column).name; });
    for (const EventRef& row : rows)
        appendLine([&](EventColumn column) { return cells.display(row, column); });
    return text;
}

} // namespace sightline
