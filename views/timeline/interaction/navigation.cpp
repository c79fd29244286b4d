#include "views/timeline/interaction/navigation.h"

#include <QWheelEvent>
#include <cmath>

namespace sightline::views {

void applyWheel(TimelineState& state, const QWheelEvent& event, double anchorX)
{
    const QPoint angle = event.angleDelta();
    const Qt::KeyboardModifiers modifiers = event.modifiers();
    if (modifiers & Qt::ControlModifier) {
        const int notches = angle.y() != 0 ? angle.y() : angle.x();
        if (notches != 0)
            state.zoomAround(anchorX, std::pow(kWheelZoomPerNotch, notches / 120.0), HistoryMode::Gesture);
        return;
    }
    // Shift+wheel pans; some platforms already turn it into a sideways wheel.
    const bool sideways = (modifiers & Qt::ShiftModifier) || (angle.x() != 0 && angle.y() == 0);
    if (sideways) {
        const int notches = angle.x() != 0 ? angle.x() : angle.y();
        state.panBy(-notches / 120.0 * state.scale().width() * 0.1, HistoryMode::Gesture);
        return;
    }
    const QPoint pixels = event.pixelDelta();
    const int dy = !pixels.isNull() ? pixels.y() : angle.y() * 3 * state.laneHeight() / 120;
    state.setScrollY(state.scrollY() - dy);
}

TimeRange eventRange(const Trace& trace, EventRef event)
{
    const Track& track = trace.track(event.track);
    const Timestamp start = track.events.start[event.index];
    return {start, effectiveEnd(start, track.events.end[event.index])};
}

std::pair<int, int> revealRowOf(TimelineState& state, EventRef event)
{
    const int node = state.rows().leafOf(event.track);
    if (node < 0) return {0, 0};
    state.reveal(node);
    const int row = state.layout().rowOfNode(node);
    if (row < 0) return {0, 0};
    const VisibleRow& shown = state.layout().rows()[size_t(row)];
    const uint32_t lane = state.trace().track(event.track).laneOf(event.index);
    const int top = shown.top + int(std::min(lane, shown.lanes - 1)) * state.laneHeight();
    return {top, top + state.laneHeight()};
}

void bringIntoView(TimelineState& state, EventRef event, bool zoomToFit)
{
    const auto [top, bottom] = revealRowOf(state, event);
    if (bottom > top) state.ensureVisible(top, bottom);

    const TimeRange range = eventRange(state.trace(), event);
    const TimeRange visible = state.visible();
    if (zoomToFit || range.duration() > visible.duration()) {
        state.setVisible(framing(range, zoomToFit ? 0.05 : 0.1), HistoryMode::Record);
        return;
    }
    if (range.start >= visible.start && range.end <= visible.end) return;
    const Timestamp centre = range.start + range.duration() / 2;
    const Timestamp start = centre - visible.duration() / 2;
    state.setVisible({start, start + visible.duration()}, HistoryMode::Record);
}

} // namespace sightline::views
