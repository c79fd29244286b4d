#include "views/timeline/widgets/row_header_pane.h"

#include "views/timeline/frame/event_style.h"
#include "views/timeline/interaction/navigation.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QPainter>
#include <QToolTip>
#include <algorithm>

namespace sightline::views {
namespace {

constexpr int kIndent = 14;
constexpr int kMargin = 6;
constexpr int kTriangle = 10;

} // namespace

RowHeaderPane::RowHeaderPane(TimelineState& state, QWidget* parent)
    : QWidget(parent)
    , m_state(state)
{
    setObjectName(QStringLiteral("timelineRowHeaders"));
    setMouseTracking(true);
    setMinimumWidth(120);
    setFocusPolicy(Qt::ClickFocus);
    auto repaint = [this] { update(); };
    connect(&m_state, &TimelineState::traceChanged, this, [this] { m_labelWidths.clear(); });
    connect(&m_state, &TimelineState::rowsChanged, this, repaint);
    connect(&m_state, &TimelineState::scrollChanged, this, repaint);
    connect(&m_state, &TimelineState::eventSelectionChanged, this, repaint);
}

QSize RowHeaderPane::sizeHint() const
{
    return {330, 400};
}

QRect RowHeaderPane::rowRect(int node) const
{
    const int row = m_state.layout().rowOfNode(node);
    if (row < 0) return {};
    const VisibleRow& shown = m_state.layout().rows()[size_t(row)];
    return {0, shown.top - m_state.scrollY(), width(), shown.height};
}

QRect RowHeaderPane::disclosureRect(int node) const
{
    const QRect row = rowRect(node);
    if (row.isEmpty() || !m_state.rows().node(node).isGroup()) return {};
    const int lane = m_state.laneHeight();
    const int x = kMargin + m_state.rows().node(node).depth * kIndent;
    return {x, row.top() + (lane - kTriangle) / 2, kTriangle, kTriangle};
}

QRect RowHeaderPane::labelRect(int node) const
{
    const QRect row = rowRect(node);
    if (row.isEmpty()) return {};
    const int x = kMargin + m_state.rows().node(node).depth * kIndent + kTriangle + 4;
    return {x, row.top(), std::max(0, width() - x - kMargin), m_state.laneHeight()};
}

int RowHeaderPane::nodeAt(QPoint pos) const
{
    const int row = m_state.layout().rowAt(pos.y() + m_state.scrollY());
    return row < 0 ? -1 : m_state.layout().rows()[size_t(row)].node;
}

bool RowHeaderPane::holdsHighlight(const RowNode& node) const
{
    if (!m_state.selectedEvent()) return false;
    auto holds = [&](EventRef e) {
        return std::find(node.tracks.begin(), node.tracks.end(), e.track) != node.tracks.end();
    };
    if (holds(*m_state.selectedEvent())) return true;
    return std::any_of(m_state.correlated().begin(), m_state.correlated().end(), holds);
}

void RowHeaderPane::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const CanvasColors colors = canvasColors(palette());
    painter.fillRect(rect(), QColor(colors.background));
    const RowLayout& layout = m_state.layout();
    const auto [first, last] = layout.rowsBetween(m_state.scrollY(), m_state.scrollY() + height());
    const QFont plain = font();
    QFont bold = plain;
    bold.setBold(true);
    const QColor text(colors.text);
    for (size_t r = first; r < last; ++r) {
        const VisibleRow& row = layout.rows()[r];
        const RowNode& node = m_state.rows().node(row.node);
        const QRect band(0, row.top - m_state.scrollY(), width(), row.height);
        if (node.isGroup()) painter.fillRect(band, QColor(colors.groupRow));
        painter.fillRect(QRect(0, band.bottom(), width(), 1), QColor::fromRgba(colors.separator));
        if (holdsHighlight(node))
            painter.fillRect(QRect(0, band.top(), 3, band.height()), QColor(colors.highlight));

        const QRect triangle = disclosureRect(row.node);
        if (!triangle.isEmpty()) {
            painter.setRenderHint(QPainter::Antialiasing, true);
            painter.setPen(Qt::NoPen);
            painter.setBrush(text);
            const QPointF c = QRectF(triangle).center();
            const qreal s = kTriangle / 2.0 - 1;
            if (node.expanded)
                painter.drawPolygon(QPolygonF(
                    {{c.x() - s, c.y() - s / 2}, {c.x() + s, c.y() - s / 2}, {c.x(), c.y() + s * 0.8}}));
            else
                painter.drawPolygon(QPolygonF(
                    {{c.x() - s / 2, c.y() - s}, {c.x() - s / 2, c.y() + s}, {c.x() + s * 0.8, c.y()}}));
            painter.setRenderHint(QPainter::Antialiasing, false);
        }
        const QRect label = labelRect(row.node);
        painter.setFont(node.depth == 0 ? bold : plain);
        painter.setPen(text);
        // Measured once per row; only labels too long for the pane pay for eliding.
        if (m_labelWidths.size() != m_state.rows().size()) m_labelWidths.assign(m_state.rows().size(), -1);
        int& labelWidth = m_labelWidths[size_t(row.node)];
        if (labelWidth < 0) labelWidth = painter.fontMetrics().horizontalAdvance(node.label);
        painter.drawText(label, Qt::AlignVCenter | Qt::AlignLeft,
            labelWidth <= label.width()
                ? node.label
                : painter.fontMetrics().elidedText(node.label, Qt::ElideRight, label.width()));
    }
    // The edge against the canvas.
    painter.fillRect(QRect(width() - 1, 0, 1, height()), palette().color(QPalette::Mid));
}

void RowHeaderPane::mousePressEvent(QMouseEvent* event)
{
    const int node = nodeAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && node >= 0
        && disclosureRect(node).adjusted(-3, -3, 3, 3).contains(event->position().toPoint())) {
        m_state.setExpanded(node, !m_state.rows().node(node).expanded);
        return;
    }
    QWidget::mousePressEvent(event);
}

void RowHeaderPane::mouseDoubleClickEvent(QMouseEvent* event)
{
    const int node = nodeAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && node >= 0 && m_state.rows().node(node).isGroup())
        m_state.setExpanded(node, !m_state.rows().node(node).expanded);
}

void RowHeaderPane::wheelEvent(QWheelEvent* event)
{
    applyWheel(m_state, *event, m_state.scale().width() / 2);
    event->accept();
}

void RowHeaderPane::expandSubtree(int node, bool expanded)
{
    std::vector<int> pending {node};
    while (!pending.empty()) {
        const int n = pending.back();
        pending.pop_back();
        m_state.setExpanded(n, expanded);
        for (int child : m_state.rows().node(n).children)
            pending.push_back(child);
    }
}

void RowHeaderPane::contextMenuEvent(QContextMenuEvent* event)
{
    const int node = nodeAt(event->pos());
    QMenu menu(this);
    if (node >= 0 && !m_state.rows().tracksBelow(node).empty()) {
        menu.addAction(tr("Show in Events View"), this,
            [this, node] { emit showInEventsViewRequested(m_state.rows().tracksBelow(node)); });
        menu.addSeparator();
    } else if (node >= 0 && m_state.rows().node(node).kind == RowKind::Counter) {
        menu.addAction(tr("Show in Events View"), this, [this, series = m_state.rows().node(node).counter] {
            emit showCounterInEventsViewRequested(series);
        });
        menu.addSeparator();
    }
    if (node >= 0 && m_state.rows().node(node).isGroup()) {
        menu.addAction(tr("Expand all below"), this, [this, node] { expandSubtree(node, true); });
        menu.addAction(tr("Collapse all below"), this, [this, node] { expandSubtree(node, false); });
        menu.addSeparator();
    }
    menu.addAction(tr("Expand all rows"), this, [this] { m_state.setAllExpanded(true); });
    menu.addAction(tr("Collapse all rows"), this, [this] { m_state.setAllExpanded(false); });
    menu.addSeparator();
    menu.addAction(tr("Keyboard shortcuts\u2026"), this, &RowHeaderPane::keyboardHelpRequested);
    menu.exec(event->globalPos());
}

bool RowHeaderPane::event(QEvent* event)
{
    if (event->type() == QEvent::FontChange) m_labelWidths.clear();
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int node = nodeAt(help->pos());
        if (node >= 0)
            QToolTip::showText(help->globalPos(), m_state.rows().node(node).label, this, labelRect(node));
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace sightline::views
