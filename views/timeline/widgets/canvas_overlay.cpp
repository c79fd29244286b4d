#include "views/timeline/widgets/canvas_overlay.h"

#include "model/text/time_text.h"
#include "views/timeline/interaction/correlated_events.h"
#include "views/timeline/interaction/event_geometry.h"

#include <algorithm>
#include <cmath>

namespace sightline::views {
namespace {

constexpr double kButton = 18;

enum class Edge { Left, Right, Top, Bottom };

QPointF anchor(const QRectF& rect, bool bottom, double width)
{
    const double x = std::clamp(rect.left() + std::min(rect.width() / 2, 6.0), -50.0, width + 50);
    return {x, bottom ? rect.bottom() - 2 : rect.top() + 2};
}

void drawArrowButton(QPainter& painter, const QRectF& area, Edge edge, QRgb color)
{
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor(color));
    painter.drawRoundedRect(area, 4, 4);
    const QPointF c = area.center();
    const double s = 4.5;
    QPolygonF arrow;
    switch (edge) {
    case Edge::Left:
        arrow = {{c.x() + s / 2, c.y() - s}, {c.x() + s / 2, c.y() + s}, {c.x() - s, c.y()}};
        break;
    case Edge::Right:
        arrow = {{c.x() - s / 2, c.y() - s}, {c.x() - s / 2, c.y() + s}, {c.x() + s, c.y()}};
        break;
    case Edge::Top:
        arrow = {{c.x() - s, c.y() + s / 2}, {c.x() + s, c.y() + s / 2}, {c.x(), c.y() - s}};
        break;
    case Edge::Bottom:
        arrow = {{c.x() - s, c.y() - s / 2}, {c.x() + s, c.y() - s / 2}, {c.x(), c.y() + s}};
        break;
    }
    painter.setBrush(Qt::white);
    painter.drawPolygon(arrow);
}

// A filled arrowhead at `tip`, pointing along the line from `tail`: a flow's direction.
void drawArrowHead(QPainter& painter, QPointF tail, QPointF tip)
{
    const QPointF along = tip - tail;
    const double length = std::hypot(along.x(), along.y());
    if (length < 1) return;
    const QPointF unit = along / length, normal(-unit.y(), unit.x());
    const double size = 7;
    const QPointF base = tip - unit * size;
    painter.drawPolygon(QPolygonF {tip, base + normal * (size / 2), base - normal * (size / 2)});
}

// Places an arrow button for an off-screen rectangle on the nearest edge, clear of `taken`.
QRectF buttonFor(const QRectF& rect, QSize viewport, const std::vector<JumpTarget>& taken, Edge& edge)
{
    const double w = viewport.width(), h = viewport.height();
    QRectF area;
    if (rect.right() < 0 || rect.left() > w) {
        edge = rect.right() < 0 ? Edge::Left : Edge::Right;
        const double y = std::clamp(rect.center().y() - kButton / 2, 2.0, h - kButton - 2);
        area = QRectF(edge == Edge::Left ? 2 : w - kButton - 2, y, kButton, kButton);
    } else {
        edge = rect.bottom() < 0 ? Edge::Top : Edge::Bottom;
        const double x = std::clamp(rect.left(), 2.0, w - kButton - 2);
        area = QRectF(x, edge == Edge::Top ? 2 : h - kButton - 2, kButton, kButton);
    }
    const QPointF step
        = edge == Edge::Left || edge == Edge::Right ? QPointF(0, kButton + 2) : QPointF(kButton + 2, 0);
    for (int guard = 0; guard < 64
         && std::any_of(
             taken.begin(), taken.end(), [&](const JumpTarget& t) { return t.area.intersects(area); });
         ++guard)
        area.translate(step);
    return area;
}

} // namespace

void paintSelectionRange(
    QPainter& painter, const TimelineState& state, const CanvasColors& colors, QSize viewport)
{
    const std::optional<TimeRange> selection = state.selection();
    if (!selection) return;
    const TimeScale& scale = state.scale();
    const double left = scale.timeToX(selection->start), right = scale.timeToX(selection->end);
    if (right < 0 || left > viewport.width()) return;
    const double x0 = std::clamp(left, -2.0, viewport.width() + 2.0);
    const double x1 = std::clamp(right, -2.0, viewport.width() + 2.0);
    painter.fillRect(QRectF(x0, 0, x1 - x0, viewport.height()), QColor::fromRgba(colors.selectionFill));
    painter.fillRect(QRectF(x0, 0, 1, viewport.height()), QColor(colors.selectionEdge));
    painter.fillRect(QRectF(x1, 0, 1, viewport.height()), QColor(colors.selectionEdge));

    const std::string text = formatDuration(selection->duration());
    const QString label = QString::fromUtf8(text.data(), qsizetype(text.size()));
    const QFontMetrics metrics = painter.fontMetrics();
    const double w = metrics.horizontalAdvance(label) + 12, h = metrics.height() + 4;
    const double centre = std::clamp((x0 + x1) / 2, w / 2 + 2, viewport.width() - w / 2 - 2);
    const QRectF box(centre - w / 2, 4, w, h);
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor(colors.selectionEdge));
    painter.drawRoundedRect(box, 3, 3);
    painter.setPen(QColor(EventStyle::textColorOn(colors.selectionEdge)));
    painter.drawText(box, Qt::AlignCenter, label);
}

std::vector<JumpTarget> paintHighlights(
    QPainter& painter, const TimelineState& state, const CanvasColors& colors, QSize viewport)
{
    std::vector<JumpTarget> targets;
    const std::optional<EventRef> selected = state.selectedEvent();
    if (!selected) return targets;
    const QRectF screen(0, 0, viewport.width(), viewport.height());
    const QColor teal(colors.highlight);
    QColor tealFill = teal;
    tealFill.setAlpha(36);
    painter.setRenderHint(QPainter::Antialiasing, true);

    std::vector<EventRef> events {*selected};
    events.insert(events.end(), state.correlated().begin(), state.correlated().end());
    for (EventRef event : events) {
        for (const EventPlacement& place : placementsOf(state, event)) {
            if (!place.rect.intersects(screen)) continue;
            const QRectF r = place.rect.intersected(screen.adjusted(-3, 0, 3, 0)).adjusted(-1, 0.5, 1, -0.5);
            if (event == *selected) painter.fillRect(r, tealFill);
            painter.setPen(QPen(teal, event == *selected ? 3 : 2));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(r);
        }
    }

    const std::optional<EventPlacement> from = primaryPlacement(state, *selected);
    for (EventRef event : events) {
        const std::optional<EventPlacement> to = primaryPlacement(state, event);
        if (!to) continue;
        if (from && event != *selected) {
            const bool downward = from->rect.center().y() < to->rect.center().y();
            const QPointF a = anchor(from->rect, downward, viewport.width());
            const QPointF b = anchor(to->rect, !downward, viewport.width());
            painter.setPen(QPen(teal, 1.6));
            painter.drawLine(a, b);
            painter.setBrush(teal);
            const Trace& trace = state.trace();
            const bool flowsOut = flowRuns(trace, *selected, event),
                       flowsIn = flowRuns(trace, event, *selected);
            if (flowsOut)
                drawArrowHead(painter, a, b);
            else
                painter.drawEllipse(b, 2.5, 2.5);
            if (flowsIn)
                drawArrowHead(painter, b, a);
            else
                painter.drawEllipse(a, 2.5, 2.5);
        }
        if (!to->rect.intersects(screen)) {
            Edge edge = Edge::Left;
            const QRectF area = buttonFor(to->rect, viewport, targets, edge);
            drawArrowButton(painter, area, edge, colors.highlight);
            targets.push_back({area, event});
        }
    }
    painter.setRenderHint(QPainter::Antialiasing, false);
    return targets;
}

void paintHover(QPainter& painter, const TimelineState& state, const CanvasColors& colors, EventRef hovered,
    QSize viewport)
{
    const QRectF screen(0, 0, viewport.width(), viewport.height());
    painter.setPen(QPen(QColor(colors.text), 1));
    painter.setBrush(Qt::NoBrush);
    for (const EventPlacement& place : placementsOf(state, hovered))
        if (place.rect.intersects(screen))
            painter.drawRect(place.rect.intersected(screen.adjusted(-2, 0, 2, 0)).adjusted(0, 0.5, -1, -1.5));
}

void paintCursorLine(QPainter& painter, const CanvasColors& colors, double x, QSize viewport)
{
    QColor line(colors.text);
    line.setAlpha(90);
    painter.fillRect(QRectF(x, 0, 1, viewport.height()), line);
}

} // namespace sightline::views
