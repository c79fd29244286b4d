#include "views/timeline/widgets/timeline_canvas.h"

#include "views/timeline/interaction/event_geometry.h"
#include "views/timeline/interaction/navigation.h"
#include "views/timeline/tooltips/counter_tooltip.h"
#include "views/timeline/tooltips/event_tooltip.h"
#include "views/timeline/tooltips/thread_cpu_tooltip.h"

#include <QClipboard>
#include <QContextMenuEvent>
#include <QGuiApplication>
#include <QHelpEvent>
#include <QMenu>
#include <QPainter>
#include <QToolTip>
#include <cmath>

namespace sightline::views {

TimelineCanvas::TimelineCanvas(TimelineState& state, QWidget* parent)
    : QWidget(parent)
    , m_state(state)
    , m_frame(state.trace())
{
    setObjectName(QStringLiteral("timelineCanvas"));
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    rebuildStyle();
    connect(&m_state, &TimelineState::traceChanged, this, &TimelineCanvas::onTraceChanged);
    connect(&m_state, &TimelineState::visibleChanged, this, &TimelineCanvas::onVisibleChanged);
    connect(&m_state, &TimelineState::rowsChanged, this, &TimelineCanvas::invalidate);
    connect(&m_state, &TimelineState::scrollChanged, this, &TimelineCanvas::invalidate);
    connect(&m_state, &TimelineState::scrollChanged, this, &TimelineCanvas::hideStaleToolTip);
    auto repaint = [this] { update(); };
    connect(&m_state, &TimelineState::selectionChanged, this, repaint);
    connect(&m_state, &TimelineState::eventSelectionChanged, this, repaint);
}

TimelineCanvas::~TimelineCanvas() = default;

void TimelineCanvas::rebuildStyle()
{
    QFont labelFont = font();
    labelFont.setPointSizeF(labelFont.pointSizeF() * 0.92);
    m_frame.setStyle(palette(), labelFont);
    update();
}

void TimelineCanvas::onTraceChanged()
{
    // The style, the builder and its tiles are the old trace's; so is what the mouse was over,
    // and the highlighted samples (stack ids of the old trace's CPU profile).
    m_hover.reset();
    m_jumpTargets.clear();
    m_frame.setTrace(m_state.trace());
    m_frame.setSampleMarks(nullptr);
    rebuildStyle();
}

void TimelineCanvas::invalidate()
{
    m_frame.invalidate();
    update();
}

void TimelineCanvas::onVisibleChanged()
{
    m_frame.markStale();
    hideStaleToolTip();
    update();
}

void TimelineCanvas::hideStaleToolTip()
{
    // A tooltip describes what was under the cursor; once the view moves (by keys, the wheel or
    // history) that is something else, so it goes until the mouse asks again.
    if (QToolTip::isVisible()) QToolTip::hideText();
}

QSize TimelineCanvas::framePixels() const
{
    const qreal dpr = devicePixelRatioF();
    return {std::max(1, int(std::lround(width() * dpr))), std::max(1, int(std::lround(height() * dpr)))};
}

void TimelineCanvas::layOut()
{
    m_frame.layOut(m_state.rows(), m_state.layout(), m_state.scale(), m_state.scrollY(), height(),
        framePixels(), devicePixelRatioF());
}

void TimelineCanvas::paintFrame()
{
    m_frame.paint(framePixels(), devicePixelRatioF());
}

void TimelineCanvas::paintEvent(QPaintEvent*)
{
    if (m_frame.stale()) {
        layOut();
        paintFrame();
    }
    QPainter painter(this);
    painter.drawImage(QPoint(0, 0), m_frame.image());
    paintSelectionRange(painter, m_state, m_frame.colors(), size());
    if (m_hover && !m_state.isHighlighted(*m_hover))
        paintHover(painter, m_state, m_frame.colors(), *m_hover, size());
    m_jumpTargets = paintHighlights(painter, m_state, m_frame.colors(), size());
    if (m_cursorX) paintCursorLine(painter, m_frame.colors(), *m_cursorX, size());
}

void TimelineCanvas::resizeEvent(QResizeEvent*)
{
    m_state.setCanvasWidth(width());
    m_state.setViewportHeight(height());
    invalidate();
}

void TimelineCanvas::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) rebuildStyle();
    QWidget::changeEvent(event);
}

void TimelineCanvas::setPictureOnly(bool pictureOnly)
{
    m_pictureOnly = pictureOnly;
    m_hover.reset();
    update();
}

std::optional<EventRef> TimelineCanvas::eventAt(QPoint pos) const
{
    if (m_pictureOnly) return std::nullopt;
    return views::eventAt(m_state, QPointF(pos) + QPointF(0.5, 0.5));
}

QString TimelineCanvas::toolTipAt(QPoint pos) const
{
    if (m_pictureOnly) return {};
    if (const std::optional<EventRef> event = eventAt(pos))
        return describeEvent(m_state.trace(), *event).html();
    // A counter row: the value under the cursor.
    const RowLayout& layout = m_state.layout();
    const int row = layout.rowAt(pos.y() + m_state.scrollY());
    if (row < 0) return {};
    const RowNode& node = m_state.rows().node(layout.rows()[size_t(row)].node);
    if (node.content() == RowContent::ThreadCpu) {
        // A thread's CPU row: the sample tick or the thread state under the cursor.
        const std::optional<ThreadCpuHit> hit = threadCpuHitAt(m_state, QPointF(pos) + QPointF(0.5, 0.5));
        return hit ? describeThreadCpu(m_state.trace(), *hit).html() : QString();
    }
    if (node.content() != RowContent::Counter) return {};
    const TimeRange pixel {m_state.scale().xToTime(pos.x()), m_state.scale().xToTime(pos.x() + 1)};
    const EventTooltip tip = describeCounter(m_state.trace(), node.counter, pixel, m_state.selection());
    return tip.title.isEmpty() ? QString() : tip.html();
}

void TimelineCanvas::setHighlightedStacks(std::shared_ptr<const std::vector<uint32_t>> sortedStacks)
{
    m_frame.setSampleMarks(
        sortedStacks ? std::make_shared<const SampleMarks>(m_state.trace().cpu, *sortedStacks) : nullptr);
    update();
}

std::vector<QRectF> TimelineCanvas::rectsOf(EventRef event) const
{
    std::vector<QRectF> rects;
    for (const EventPlacement& place : placementsOf(m_state, event))
        rects.push_back(place.rect);
    return rects;
}

void TimelineCanvas::copyToolTip(EventRef event) const
{
    QGuiApplication::clipboard()->setText(describeEvent(m_state.trace(), event).plainText());
}

bool TimelineCanvas::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this, QRect(help->pos() - QPoint(2, 2), QSize(5, 5)));
        return true;
    }
    return QWidget::event(event);
}

void TimelineCanvas::updateHover(QPoint pos)
{
    const std::optional<EventRef> hover = eventAt(pos);
    m_cursorX = pos.x() + 0.5;
    m_state.setCursorTime(m_state.scale().xToTime(pos.x() + 0.5));
    m_hover = hover;
    update();
}

void TimelineCanvas::mousePressEvent(QMouseEvent* event)
{
    m_pressPos = event->position();
    m_pressScale = m_state.scale();
    if (event->button() == Qt::LeftButton) {
        for (const JumpTarget& target : m_jumpTargets) {
            if (target.area.contains(m_pressPos)) {
                bringIntoView(m_state, target.event, false);
                m_drag = Drag::None;
                return;
            }
        }
        m_drag = Drag::Pending;
    } else if (event->button() == Qt::MiddleButton) {
        m_drag = Drag::Pan;
        setCursor(Qt::ClosedHandCursor);
    }
}

void TimelineCanvas::mouseMoveEvent(QMouseEvent* event)
{
    const QPointF pos = event->position();
    if (m_drag == Drag::Pending && (pos - m_pressPos).manhattanLength() > 4) m_drag = Drag::Select;
    if (m_drag == Drag::Select) {
        const Timestamp a = m_pressScale.xToTime(m_pressPos.x()), b = m_state.scale().xToTime(pos.x());
        m_state.setSelection(TimeRange {std::min(a, b), std::max(a, b)});
    } else if (m_drag == Drag::Pan) {
        const TimeScale panned = m_pressScale.pannedBy(m_pressPos.x() - pos.x()).clampedTo(m_state.bounds());
        m_state.setVisible(panned.visible(), HistoryMode::Gesture);
    }
    updateHover(pos.toPoint());
}

void TimelineCanvas::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_drag == Drag::Pending && event->button() == Qt::LeftButton)
        m_state.selectEvent(eventAt(event->position().toPoint()));
    if (m_drag == Drag::Pan) unsetCursor();
    m_drag = Drag::None;
}

void TimelineCanvas::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton) return;
    if (const std::optional<EventRef> hit = eventAt(event->position().toPoint())) {
        m_state.selectEvent(hit);
        m_state.setVisible(framing(eventRange(m_state.trace(), *hit), 0.05), HistoryMode::Record);
    }
    m_drag = Drag::None;
}

void TimelineCanvas::wheelEvent(QWheelEvent* event)
{
    applyWheel(m_state, *event, event->position().x());
    event->accept();
}

void TimelineCanvas::leaveEvent(QEvent*)
{
    m_cursorX.reset();
    m_hover.reset();
    m_state.setCursorTime(std::nullopt);
    update();
}

void TimelineCanvas::contextMenuEvent(QContextMenuEvent* event)
{
    const std::optional<EventRef> hit = eventAt(event->pos());
    QMenu menu(this);
    if (hit) {
        menu.addAction(tr("Copy tooltip"), this, [this, hit] { copyToolTip(*hit); });
        menu.addAction(tr("Select event"), this, [this, hit] { m_state.selectEvent(hit); });
        menu.addAction(tr("Zoom to event"), this, [this, hit] {
            m_state.setVisible(framing(eventRange(m_state.trace(), *hit), 0.05), HistoryMode::Record);
        });
        menu.addSeparator();
    }
    QAction* zoomSelection = menu.addAction(tr("Zoom to selection\tShift+Z"), this, [this] {
        if (auto range = m_state.selection()) m_state.setVisible(*range, HistoryMode::Record);
    });
    zoomSelection->setEnabled(m_state.selection().has_value());
    QAction* clear = menu.addAction(tr("Clear selection\tEsc"), this, [this] {
        m_state.setSelection(std::nullopt);
        m_state.selectEvent(std::nullopt);
    });
    clear->setEnabled(m_state.selection() || m_state.selectedEvent());
    menu.addAction(tr("Show the whole trace\tHome"), this, [this] { m_state.zoomToAll(); });
    menu.addSeparator();
    menu.addAction(tr("Expand all rows"), this, [this] { m_state.setAllExpanded(true); });
    menu.addAction(tr("Collapse all rows"), this, [this] { m_state.setAllExpanded(false); });
    menu.addSeparator();
    menu.addAction(tr("Keyboard shortcuts\u2026\tF1"), this, &TimelineCanvas::keyboardHelpRequested);
    menu.exec(event->globalPos());
}

} // namespace sightline::views
