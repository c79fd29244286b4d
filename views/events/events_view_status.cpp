// EventsView's title, visible columns and status line: what is listed, how many events match,
// how they are sorted, and what is running (events_view.cpp holds the layout and query flow).
#include "model/text/time_text.h"
#include "views/events/event_query_runner.h"
#include "views/events/events_item_delegate.h"
#include "views/events/events_table_model.h"
#include "views/events/events_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableView>
#include <set>
#include <tuple>

namespace sightline::views {
namespace {

QString grouped(size_t n)
{
    return QLocale(QLocale::English, QLocale::UnitedStates).toString(qulonglong(n));
}

// "SMs Active [%] · GPU 0" for a counter series.
QString describeCounter(const Trace& trace, uint32_t series)
{
    if (series >= trace.counterSeries.size()) return {};
    const CounterSeries& s = trace.counterSeries[series];
    QString text = QString::fromStdString(s.name);
    if (!s.unit.empty()) text += QStringLiteral(" [%1]").arg(QString::fromStdString(s.unit));
    if (ownedByProcess(s.source)) return text + QStringLiteral(" \u00b7 process %1").arg(s.pid.value);
    return text + QStringLiteral(" \u00b7 GPU %1").arg(s.device.value);
}

// "Kernels · Stream 7 (GPU 0 / Context 1)" for one row, "Kernels, Memory · 8 streams" for several.
QString describeSource(const EventCells& cells, const EventSource& source)
{
    QString text;
    if (source.tracks.empty() && source.counter) {
        text = describeCounter(cells.trace(), *source.counter);
    } else if (source.tracks.size() == 1) {
        text = toQString(cells.trackTitle(source.tracks.front()));
    } else {
        QStringList kinds;
        for (int k = 0; k < kTrackKindCount; ++k)
            for (TrackId id : source.tracks)
                if (cells.trace().track(id).key.kind == TrackKind(k)) {
                    kinds << QString::fromUtf8(eventKind(TrackKind(k)).label);
                    break;
                }
        // A stream's kernels, copies and synchronisations are three tracks but one stream; a
        // thread's API calls, NVTX domains and OS calls are several tracks but one thread.
        bool allGpu = true, allHost = true;
        std::set<std::tuple<bool, uint32_t, uint32_t, uint32_t, uint32_t>> places;
        for (TrackId id : source.tracks) {
            const TrackKey& key = cells.trace().track(id).key;
            const bool gpu = isGpuKind(key.kind);
            allGpu = allGpu && gpu;
            allHost = allHost && !gpu;
            places.insert(gpu
                    ? std::tuple {true, key.pid.value, key.device.value, key.context.value, key.stream.value}
                    : std::tuple {false, key.pid.value, key.tid.value, 0u, 0u});
        }
        const QString rows = allGpu ? QStringLiteral("streams")
            : allHost               ? QStringLiteral("threads")
                                    : QStringLiteral("streams and threads");
        text
            = kinds.join(QStringLiteral(", ")) + QStringLiteral(" \u00b7 %1 %2").arg(places.size()).arg(rows);
    }
    if (source.range)
        text += QStringLiteral(" \u00b7 %1 \u2013 %2")
                    .arg(QString::fromStdString(formatTimestamp(source.range->start, 1000)),
                        QString::fromStdString(formatTimestamp(source.range->end, 1000)));
    return text;
}

} // namespace

void EventsView::updateColumnsForSource()
{
    bool present[kTrackKindCount] = {};
    for (TrackId id : source().tracks)
        if (id.value < m_trace->tracks.size()) present[int(m_trace->track(id).key.kind)] = true;
    bool anyNvtx = present[int(TrackKind::Nvtx)];
    const bool samples = source().counter.has_value();
    for (int c = 0; c < kEventColumnCount; ++c) {
        bool applies = (samples && columnAppliesToSamples(EventColumn(c)))
            || (!hasSource() && c <= int(EventColumn::End));
        for (int k = 0; k < kTrackKindCount; ++k)
            applies = applies || (present[k] && columnApplies(EventColumn(c), TrackKind(k)));
        m_table->horizontalHeader()->setSectionHidden(c, !applies);
    }
    m_delegate->setBranchSpace(anyNvtx);
    m_title->setText(m_requestTitle.isEmpty() && hasSource() ? describeSource(*m_cells, source())
            : m_requestTitle.isEmpty()                       ? tr("Events View")
                                                             : m_requestTitle);
}

QString EventsView::statusText() const
{
    return m_status->text();
}

bool EventsView::hasSource() const
{
    return !source().tracks.empty() || source().counter;
}

void EventsView::updateStatus()
{
    const size_t listed = m_model->listedCount();
    // What the rows are: a counter row's samples, or events.
    const QString rows = source().tracks.empty() && source().counter ? tr("samples") : tr("events");
    QString text;
    if (!hasSource()) {
        text = tr("Right-click a timeline row and choose Show in Events View to list its events.");
    } else if (!m_error.isEmpty()) {
        text = m_error;
    } else if (isBusy() && listed < m_sourceCount && m_query.filter.isEmpty()) {
        text = tr("%1 %2").arg(grouped(m_sourceCount), rows);
    } else if (!m_query.filter.isEmpty()) {
        text = tr("%1 of %2 %3 match \u201c%4\u201d")
                   .arg(grouped(listed), grouped(m_sourceCount), rows, m_query.filter.pattern);
    } else {
        text = tr("%1 %2").arg(grouped(listed), rows);
    }
    if (hasSource() && m_error.isEmpty()) {
        const bool largestFirst = firstClickOrder(m_query.sortColumn) == Qt::DescendingOrder;
        const bool descending = m_query.order == Qt::DescendingOrder;
        const QString direction = largestFirst ? (descending ? tr("largest first") : tr("smallest first"))
                                               : (descending ? tr("descending") : tr("ascending"));
        text += tr(" \u00b7 sorted by %1, %2").arg(columnTitle(m_query.sortColumn).toLower(), direction);
    }
    m_status->setText(text);
    const bool listing = m_runner->sourceCount() == 0 && m_sourceCount > 0;
    m_busyLabel->setText(listing        ? tr("Listing\u2026")
            : !m_query.filter.isEmpty() ? tr("Filtering\u2026")
                                        : tr("Sorting\u2026"));
}

} // namespace sightline::views
