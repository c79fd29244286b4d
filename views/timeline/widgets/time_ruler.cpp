#include "views/timeline/widgets/time_ruler.h"

#include "model/text/time_text.h"
#include "views/timeline/frame/event_style.h"
#include "views/timeline/interaction/navigation.h"
#include "views/timeline/scale/ruler_ticks.h"

#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

namespace sightline::views {
namespace {

QString text(const std::string& s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

} // namespace

TimeRuler::TimeRuler(TimelineState& state, QWidget* parent)
    : QWidget(parent)
    , m_state(state)
{
    setObjectName(QStringLiteral("timelineRuler"));
    setMouseTracking(true);
    setCursor(Qt::OpenHandCursor);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    auto repaint = [this] { update(); };
    connect(&m_state, &TimelineState::visibleChanged, this, repaint);
    connect(&m_state, &TimelineState::selectionChanged, this, repaint);
    connect(&m_state, &TimelineState::eventSelectionChanged, this, repaint);
    connect(&m_state, &TimelineState::cursorTimeChanged, this, repaint);
}

QSize TimeRuler::sizeHint() const
{
    return {200, 2 * fontMetrics().height() + 10};
}

void TimeRuler::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QPalette pal = palette();
    painter.fillRect(rect(), pal.color(QPalette::Window));
    const TimeScale& scale = m_state.scale();
    const int labelWidth = fontMetrics().horizontalAdvance(QStringLiteral("00.000000000 s")) + 16;
    const RulerPlan plan = planRuler(scale, std::max(90, labelWidth));
    const int h = height();
    const QColor ink = pal.color(QPalette::WindowText);
    QColor faint = ink;
    faint.setAlpha(110);

    if (!plan.baseLabel.empty()) {
        painter.setPen(faint);
        painter.drawText(QRect(4, 2, width() - 8, fontMetrics().height()), Qt::AlignLeft | Qt::AlignVCenter,
            tr("offsets from %1").arg(text(plan.baseLabel)));
    }
    const int labelTop = h - 11 - fontMetrics().height();
    for (const RulerTick& tick : plan.ticks) {
        if (tick.x > scale.width()) break;
        const int x = int(std::lround(tick.x));
        painter.setPen(tick.major ? ink : faint);
        painter.drawLine(x, tick.major ? h - 12 : h - 5, x, h - 1);
        if (tick.major)
            painter.drawText(QRect(x + 3, labelTop, labelWidth, fontMetrics().height()),
                Qt::AlignLeft | Qt::AlignVCenter, text(tick.label));
    }
    painter.setPen(pal.color(QPalette::Mid));
    painter.drawLine(0, h - 1, width(), h - 1);
    paintMarks(painter);
    paintCursor(painter);
}

void TimeRuler::paintMarks(QPainter& painter)
{
    const TimeScale& scale = m_state.scale();
    const CanvasColors colors = canvasColors(palette());
    const int h = height();
    if (auto selection = m_state.selection()) {
        const double x0 = scale.timeToX(selection->start), x1 = scale.timeToX(selection->end);
        painter.fillRect(QRectF(x0, h - 8, x1 - x0, 8), QColor::fromRgba(colors.selectionFill));
        painter.fillRect(QRectF(x0, h - 8, 1, 8), QColor(colors.selectionEdge));
        painter.fillRect(QRectF(x1, h - 8, 1, 8), QColor(colors.selectionEdge));
    }
    if (!m_state.selectedEvent()) return;
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor(colors.highlight));
    auto mark = [&](EventRef event) {
        const double x
            = std::clamp(scale.timeToX(eventRange(m_state.trace(), event).start), 3.0, scale.width() - 3);
        painter.drawPolygon(QPolygonF({{x - 4, double(h - 7)}, {x + 4, double(h - 7)}, {x, double(h - 1)}}));
    };
    mark(*m_state.selectedEvent());
    for (EventRef event : m_state.correlated())
        mark(event);
    painter.setRenderHint(QPainter::Antialiasing, false);
}

void TimeRuler::paintCursor(QPainter& painter)
{
    const std::optional<Timestamp> cursor = m_state.cursorTime();
    if (!cursor) return;
    const TimeScale& scale = m_state.scale();
    const double x = scale.timeToX(*cursor);
    if (x < 0 || x > scale.width()) return;
    const Duration resolution = std::max<Duration>(1, Duration(scale.nanosecondsPerPixel()));
    const QString label = text(formatTimestamp(*cursor, resolution));
    const QFontMetrics metrics = fontMetrics();
    const int w = metrics.horizontalAdvance(label) + 10;
    const int boxX = int(std::clamp(x - w / 2.0, 0.0, std::max(0.0, scale.width() - w)));
    const QRect box(boxX, 1, w, metrics.height() + 2);
    const QPalette pal = palette();
    painter.setPen(pal.color(QPalette::ToolTipText));
    painter.fillRect(QRectF(x, 0, 1, height()), pal.color(QPalette::Highlight));
    painter.fillRect(box, pal.color(QPalette::ToolTipBase));
    painter.drawRect(box.adjusted(0, 0, -1, -1));
    painter.drawText(box, Qt::AlignCenter, label);
}

void TimeRuler::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
    m_pressPos = event->position();
    m_pressScale = m_state.scale();
    setCursor(Qt::ClosedHandCursor);
}

void TimeRuler::mouseMoveEvent(QMouseEvent* event)
{
    const double x = event->position().x();
    m_state.setCursorTime(m_state.scale().xToTime(x));
    if (!m_pressPos) return;
    const TimeScale panned = m_pressScale.pannedBy(m_pressPos->x() - x).clampedTo(m_state.bounds());
    m_state.setVisible(panned.visible(), HistoryMode::Gesture);
}

void TimeRuler::mouseReleaseEvent(QMouseEvent*)
{
    m_pressPos.reset();
    setCursor(Qt::OpenHandCursor);
}

void TimeRuler::wheelEvent(QWheelEvent* event)
{
    applyWheel(m_state, *event, event->position().x());
    event->accept();
}

void TimeRuler::leaveEvent(QEvent*)
{
    m_state.setCursorTime(std::nullopt);
}

} // namespace sightline::views
