// The main window's status bar figures for the current report: the visible time range and its
// duration, how many events overlap it out of the report's total, and the selected range's
// duration. Invariant: the labels always describe the TimelineView last given to setTimeline
// (none: they are blank); counting is a pair of binary searches per lane, cheap enough to run
// on every range change.
#pragma once

#include "model/core/time.h"

#include <QObject>
#include <QString>
#include <optional>
#include <vector>

class QLabel;
class QStatusBar;

namespace sightline {
struct Trace;
}

namespace sightline::views {
class TimelineView;
}

namespace sightline::ui {

// The timeline's time texts (views/timeline/time_format.h) as QStrings.
QString durationText(Duration duration);
QString timestampText(Timestamp time, Duration resolution);
// The number of events of `trace` overlapping `window`.
size_t countEventsInWindow(const Trace& trace, TimeRange window);

class StatusSummary : public QObject
{
    Q_OBJECT
public:
    explicit StatusSummary(QStatusBar* bar, QObject* parent = nullptr);

    void setTimeline(views::TimelineView* timeline); // nullptr: no report shown

    QString rangeText() const;
    QString eventsText() const;
    QString selectionText() const;

private:
    void showRange(TimeRange range);
    void showSelection(std::optional<TimeRange> selection);
    void clear();

    views::TimelineView* m_timeline = nullptr;
    std::vector<QMetaObject::Connection> m_connections;
    QLabel* m_range;
    QLabel* m_events;
    QLabel* m_selection;
};

} // namespace sightline::ui
