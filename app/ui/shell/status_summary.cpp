#include "app/ui/shell/status_summary.h"

#include "model/text/time_text.h"
#include "model/trace/trace.h"
#include "views/timeline/widgets/timeline_view.h"

#include <QLabel>
#include <QLocale>
#include <QStatusBar>

namespace sightline::ui {

QString durationText(Duration duration)
{
    return QString::fromStdString(formatDuration(duration));
}

QString timestampText(Timestamp time, Duration resolution)
{
    return QString::fromStdString(formatTimestamp(time, resolution));
}

size_t countEventsInWindow(const Trace& trace, TimeRange window)
{
    size_t count = 0;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
        for (uint32_t lane = 0; lane < trace.tracks[t].laneCount(); ++lane)
            count += trace.windowEvents(TrackId(t), lane, window).size();
    }
    return count;
}

StatusSummary::StatusSummary(QStatusBar* bar, QObject* parent)
    : QObject(parent)
    , m_range(new QLabel(bar))
    , m_events(new QLabel(bar))
    , m_selection(new QLabel(bar))
{
    m_range->setObjectName(QStringLiteral("statusRange"));
    m_events->setObjectName(QStringLiteral("statusEvents"));
    m_selection->setObjectName(QStringLiteral("statusSelection"));
    for (QLabel* label : {m_selection, m_range, m_events}) {
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        bar->addPermanentWidget(label);
    }
    clear();
}

QString StatusSummary::rangeText() const
{
    return m_range->text();
}

QString StatusSummary::eventsText() const
{
    return m_events->text();
}

QString StatusSummary::selectionText() const
{
    return m_selection->text();
}

void StatusSummary::setTimeline(views::TimelineView* timeline)
{
    for (const auto& connection : m_connections)
        disconnect(connection);
    m_connections.clear();
    m_timeline = timeline;
    if (!timeline) {
        clear();
        return;
    }
    m_connections.push_back(
        connect(timeline, &views::TimelineView::visibleRangeChanged, this, &StatusSummary::showRange));
    m_connections.push_back(
        connect(timeline, &views::TimelineView::selectionChanged, this, &StatusSummary::showSelection));
    m_connections.push_back(connect(timeline, &QObject::destroyed, this, [this] {
        m_timeline = nullptr;
        m_connections.clear();
        clear();
    }));
    showRange(timeline->visibleRange());
    showSelection(timeline->selection());
}

void StatusSummary::showRange(TimeRange range)
{
    if (!m_timeline) return;
    const Duration resolution = std::max<Duration>(range.duration() / 1000, 1);
    m_range->setText(tr("Visible %1 – %2 (%3)")
                         .arg(timestampText(range.start, resolution), timestampText(range.end, resolution),
                             durationText(range.duration())));
    // A picture-only timeline (a report's overview) holds stand-ins, not the report's events.
    if (m_timeline->isPictureOnly()) {
        m_events->clear();
        return;
    }
    const Trace& trace = m_timeline->trace();
    const QLocale locale;
    m_events->setText(tr("%1 of %2 events in view")
                          .arg(locale.toString(qulonglong(countEventsInWindow(trace, range))),
                              locale.toString(qulonglong(trace.eventCount()))));
}

void StatusSummary::showSelection(std::optional<TimeRange> selection)
{
    m_selection->setText(selection
            ? tr("Selection %1 (Shift+Z to zoom)").arg(durationText(selection->duration()))
            : QString());
    m_selection->setVisible(selection.has_value());
}

void StatusSummary::clear()
{
    m_range->clear();
    m_events->clear();
    m_selection->clear();
    m_selection->setVisible(false);
}

} // namespace sightline::ui
