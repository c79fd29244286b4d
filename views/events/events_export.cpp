#include "views/events/events_export.h"

#include "model/text/csv_writer.h"

#include <QFile>
#include <QSaveFile>

namespace sightline::views {
namespace {

// A cell for a TSV line: tabs and line breaks would break the row apart.
QString tsvField(QString text)
{
    for (QChar& c : text)
        if (c == QLatin1Char('\t') || c == QLatin1Char('\n') || c == QLatin1Char('\r')) c = QLatin1Char(' ');
    return text;
}

} // namespace

QString eventsAsTsv(
    const EventCells& cells, std::span<const EventRef> rows, const std::vector<EventColumn>& columns)
{
    QStringList lines;
    QStringList fields;
    for (EventColumn column : columns)
        fields << columnTitle(column);
    lines << fields.join(QLatin1Char('\t'));
    for (const EventRef& row : rows) {
        fields.clear();
        for (EventColumn column : columns)
            fields << tsvField(cells.display(row, column));
        lines << fields.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QString writeEventsCsv(const EventCells& cells, std::span<const EventRef> rows,
    const std::vector<EventColumn>& columns, const QString& path, const std::atomic<bool>* cancel)
{
    QSaveFile file(path);
    auto failure = [&] {
        return QStringLiteral("Could not write %1 (%2); choose another folder or free some disk space.")
            .arg(path, file.errorString());
    };
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) return failure();

    std::string line;
    auto appendRecord = [&](auto&& fieldText) {
        line.clear();
        CsvRow record(line);
        for (EventColumn column : columns)
            record.text(fieldText(column).toStdString());
        record.end();
    };
    appendRecord([](EventColumn column) { return csvColumnTitle(column); });
    QByteArray chunk = QByteArray::fromStdString(line);
    constexpr qsizetype kChunkBytes = 1 << 20;
    for (size_t r = 0; r < rows.size(); ++r) {
        appendRecord([&](EventColumn column) { return cells.raw(rows[r], column); });
        chunk.append(line.data(), qsizetype(line.size()));
        if (chunk.size() >= kChunkBytes) {
            if (file.write(chunk) != chunk.size()) return failure();
            chunk.clear();
            if (cancel && cancel->load()) {
                file.cancelWriting();
                return QStringLiteral("The export to %1 was cancelled; nothing was written.").arg(path);
            }
        }
    }
    if (file.write(chunk) != chunk.size() || !file.commit()) return failure();
    return {};
}

} // namespace sightline::views
