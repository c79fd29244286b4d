#include "views/timeline/interaction/timeline_state.h"

#include "views/timeline/interaction/correlated_events.h"
#include "views/timeline/interaction/trace_swap.h"

#include <algorithm>

namespace sightline::views {
namespace {

// Session start to a little past the last event: how far the view may zoom out or pan.
TimeRange boundsOf(const Trace& trace)
{
    if (trace.span.empty()) return {0, 1000000000};
    const Timestamp start = std::min<Timestamp>(0, trace.span.start);
    const Timestamp end = trace.span.end + std::max<Duration>(1, (trace.span.end - start) / 100);
    return atLeastMinimumDuration({start, end});
}

// The whole trace as "show all" frames it: from session start, unless the events begin long
// after it (a program that ran a while before using the GPU), then from just before them. The
// margins are a share of what is framed: events at 155-156 s get 10 ms after them, not the
// 1.5 s that a share of the time since session start would give.
TimeRange homeOf(const Trace& trace, TimeRange bounds)
{
    if (trace.span.empty() || trace.span.start - bounds.start <= trace.span.duration() / 10) return bounds;
    const Duration margin = std::max<Duration>(1, trace.span.duration() / 100);
    return atLeastMinimumDuration({trace.span.start - margin, std::min(bounds.end, trace.span.end + margin)});
}

} // namespace

TimelineState::TimelineState(std::shared_ptr<const Trace> trace, QObject* parent)
    : QObject(parent)
    , m_trace(std::move(trace))
    , m_rows(RowTree::build(*m_trace))
    , m_bounds(boundsOf(*m_trace))
    , m_home(homeOf(*m_trace, m_bounds))
    , m_scale(m_home, 1000)
{
    m_clock.start();
    relayout();
}

void TimelineState::setTrace(std::shared_ptr<const Trace> trace)
{
    const ChosenRows chosen
        = chosenRows(rowKeys(*m_trace, m_rows), m_rows, m_layout, m_scrollY, m_viewportHeight);
    const std::optional<EventRef> selected
        = m_selectedEvent ? sameEvent(*m_trace, *m_selectedEvent, *trace) : std::nullopt;
    m_trace = std::move(trace);
    m_rows = RowTree::build(*m_trace);
    const std::vector<RowKey> keys = rowKeys(*m_trace, m_rows);
    applyExpansion(m_rows, keys, chosen);
    m_bounds = boundsOf(*m_trace);
    m_home = homeOf(*m_trace, m_bounds);
    // The event ids of the old trace mean nothing in the new one: cleared before anyone looks.
    m_selectedEvent.reset();
    m_correlated.clear();
    emit traceChanged();
    m_layout.rebuild(m_rows, *m_trace, m_laneHeight);
    m_scrollY = std::clamp(scrollOfTopRow(keys, m_layout, chosen).value_or(0), 0, maxScrollY());
    emit rowsChanged();
    emit scrollChanged(m_scrollY);
    if (selected)
        selectEvent(selected);
    else
        emit eventSelectionChanged(std::nullopt);
}

void TimelineState::relayout()
{
    m_layout.rebuild(m_rows, *m_trace, m_laneHeight);
    m_scrollY = std::clamp(m_scrollY, 0, maxScrollY());
    emit rowsChanged();
}

void TimelineState::setExpanded(int node, bool expanded)
{
    if (node < 0 || size_t(node) >= m_rows.size() || m_rows.node(node).expanded == expanded) return;
    m_rows.setExpanded(node, expanded);
    relayout();
}

void TimelineState::setAllExpanded(bool expanded)
{
    m_rows.setAllExpanded(expanded);
    relayout();
}

void TimelineState::reveal(int node)
{
    if (node < 0 || m_rows.isShown(node)) return;
    m_rows.reveal(node);
    relayout();
}

void TimelineState::setLaneHeight(int pixels)
{
    pixels = std::clamp(pixels, 6, 64);
    if (pixels == m_laneHeight) return;
    m_laneHeight = pixels;
    relayout();
}

void TimelineState::setCanvasWidth(double pixels)
{
    if (pixels == m_scale.width()) return;
    m_scale = m_scale.withWidth(pixels);
    emit visibleChanged(m_scale.visible());
}

void TimelineState::apply(TimeScale scale, HistoryMode mode)
{
    if (scale.visible() == m_scale.visible()) return;
    if (mode == HistoryMode::Record)
        m_history.record(m_scale.visible());
    else if (mode == HistoryMode::Gesture)
        m_history.recordGestureStep(m_scale.visible(), m_clock.elapsed());
    m_scale = scale;
    emit visibleChanged(m_scale.visible());
}

void TimelineState::setVisible(TimeRange range, HistoryMode mode)
{
    apply(TimeScale(range, m_scale.width()), mode);
}

void TimelineState::zoomAround(double x, double factor, HistoryMode mode)
{
    TimeScale zoomed = m_scale.zoomedAround(x, factor);
    // Zooming in keeps the anchor exact even near the edges; zooming out stays in bounds.
    if (factor < 1) zoomed = zoomed.clampedTo(m_bounds);
    apply(zoomed, mode);
}

void TimelineState::panBy(double pixels, HistoryMode mode)
{
    apply(m_scale.pannedBy(pixels).clampedTo(m_bounds), mode);
}

void TimelineState::zoomBack()
{
    if (auto range = m_history.back(m_scale.visible()))
        apply(TimeScale(*range, m_scale.width()), HistoryMode::Skip);
}

void TimelineState::zoomForward()
{
    if (auto range = m_history.forward(m_scale.visible()))
        apply(TimeScale(*range, m_scale.width()), HistoryMode::Skip);
}

void TimelineState::zoomToAll()
{
    setVisible(m_home, HistoryMode::Record);
}

void TimelineState::setSelection(std::optional<TimeRange> range)
{
    if (range && range->end < range->start) std::swap(range->start, range->end);
    if (range == m_selection) return;
    m_selection = range;
    emit selectionChanged(m_selection);
}

void TimelineState::selectEvent(std::optional<EventRef> event)
{
    if (event && event->track.value >= m_trace->trackCount()) event.reset();
    if (event == m_selectedEvent) return;
    m_selectedEvent = event;
    m_correlated = event ? correlatedEvents(*m_trace, *event) : std::vector<EventRef> {};
    emit eventSelectionChanged(m_selectedEvent);
}

bool TimelineState::isHighlighted(EventRef event) const
{
    return event == m_selectedEvent || std::binary_search(m_correlated.begin(), m_correlated.end(), event);
}

void TimelineState::setCursorTime(std::optional<Timestamp> time)
{
    if (time == m_cursorTime) return;
    m_cursorTime = time;
    emit cursorTimeChanged();
}

int TimelineState::maxScrollY() const
{
    return std::max(0, m_layout.totalHeight() - m_viewportHeight);
}

void TimelineState::setScrollY(int y)
{
    y = std::clamp(y, 0, maxScrollY());
    if (y == m_scrollY) return;
    m_scrollY = y;
    emit scrollChanged(y);
}

void TimelineState::setViewportHeight(int pixels)
{
    m_viewportHeight = std::max(1, pixels);
    setScrollY(m_scrollY);
    emit rowsChanged();
}

void TimelineState::ensureVisible(int top, int bottom)
{
    if (top < m_scrollY)
        setScrollY(top);
    else if (bottom > m_scrollY + m_viewportHeight)
        setScrollY(std::min(top, bottom - m_viewportHeight));
}

} // namespace sightline::views
