// The state one timeline's widgets share (the ruler, the row headers, the canvas, the find
// bar): the trace, the row tree and its vertical layout, the visible time window and its
// history, the dragged time selection, the selected event with its correlated events, the
// time under the cursor and the vertical scroll position. Widgets change it only through
// these methods and repaint on its signals, so they never disagree.
// Its trace can be replaced by another of the same report (setTrace): the window, its history,
// the selection, the rows opened or closed, the row at the top of the view and the selected
// event stay, matched by what they show (trace_swap.h), not by TrackId.
// Invariants: the visible window is at least TimeScale::kMinimumDuration long; interactive
// zooms and pans stay inside bounds(); scrollY stays within [0, totalHeight - viewport].
#pragma once

#include "views/timeline/rows/row_layout.h"
#include "views/timeline/scale/time_scale.h"
#include "views/timeline/scale/zoom_history.h"

#include <QElapsedTimer>
#include <QObject>
#include <memory>
#include <optional>

namespace sightline::views {

enum class HistoryMode : uint8_t {
    Record, // a deliberate jump: back returns here
    Gesture, // a step of a wheel or drag gesture: recorded once per gesture
    Skip, // not recorded (history navigation itself)
};

class TimelineState : public QObject
{
    Q_OBJECT
public:
    explicit TimelineState(std::shared_ptr<const Trace> trace, QObject* parent = nullptr);

    const Trace& trace() const { return *m_trace; }
    const std::shared_ptr<const Trace>& sharedTrace() const { return m_trace; }
    // Shows `trace` in place of the one shown, keeping what the user chose (above). Emits
    // traceChanged, then rowsChanged and what else changed.
    void setTrace(std::shared_ptr<const Trace> trace);
    const RowTree& rows() const { return m_rows; }
    const RowLayout& layout() const { return m_layout; }

    // Rows.
    void setExpanded(int node, bool expanded);
    void setAllExpanded(bool expanded);
    void reveal(int node);
    int laneHeight() const { return m_laneHeight; }
    void setLaneHeight(int pixels);

    // Time.
    TimeRange bounds() const { return m_bounds; }
    // What "show the whole trace" shows: the bounds, or the events when they start long after
    // session start.
    TimeRange home() const { return m_home; }
    TimeRange visible() const { return m_scale.visible(); }
    const TimeScale& scale() const { return m_scale; }
    void setCanvasWidth(double pixels);
    void setVisible(TimeRange range, HistoryMode mode);
    void zoomAround(double x, double factor, HistoryMode mode);
    void panBy(double pixels, HistoryMode mode);
    void zoomBack();
    void zoomForward();
    void zoomToAll();
    bool canGoBack() const { return m_history.canGoBack(); }
    bool canGoForward() const { return m_history.canGoForward(); }

    // The dragged time selection.
    std::optional<TimeRange> selection() const { return m_selection; }
    void setSelection(std::optional<TimeRange> range);

    // The selected event and the events highlighted with it (sorted).
    std::optional<EventRef> selectedEvent() const { return m_selectedEvent; }
    const std::vector<EventRef>& correlated() const { return m_correlated; }
    void selectEvent(std::optional<EventRef> event);
    bool isHighlighted(EventRef event) const;

    // The time under the mouse, shown by the ruler.
    std::optional<Timestamp> cursorTime() const { return m_cursorTime; }
    void setCursorTime(std::optional<Timestamp> time);

    // Vertical scrolling of the rows.
    int scrollY() const { return m_scrollY; }
    int viewportHeight() const { return m_viewportHeight; }
    int maxScrollY() const;
    void setScrollY(int y);
    void setViewportHeight(int pixels);
    // Scrolls the least needed to show content rows [top, bottom).
    void ensureVisible(int top, int bottom);

signals:
    // The trace was replaced: whatever was made from the old one is made again.
    void traceChanged();
    void visibleChanged(sightline::TimeRange range);
    void rowsChanged();
    void selectionChanged(std::optional<sightline::TimeRange> range);
    void eventSelectionChanged(std::optional<sightline::EventRef> event);
    void cursorTimeChanged();
    void scrollChanged(int y);

private:
    void relayout();
    void apply(TimeScale scale, HistoryMode mode);

    std::shared_ptr<const Trace> m_trace;
    RowTree m_rows;
    RowLayout m_layout;
    int m_laneHeight = 20;
    TimeRange m_bounds;
    TimeRange m_home;
    TimeScale m_scale;
    ZoomHistory m_history;
    QElapsedTimer m_clock;
    std::optional<TimeRange> m_selection;
    std::optional<EventRef> m_selectedEvent;
    std::vector<EventRef> m_correlated;
    std::optional<Timestamp> m_cursorTime;
    int m_scrollY = 0;
    int m_viewportHeight = 400;
};

} // namespace sightline::views
