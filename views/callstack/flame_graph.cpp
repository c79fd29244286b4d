#include "views/callstack/flame_graph.h"

#include "views/callstack/call_tree_model.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace sightline::views {
namespace {

constexpr double kMinBoxWidth = 0.5; // pixels
constexpr int kTextPadding = 3;

// A light colour per module, so that black text reads on it: modules in the order their
// functions first appear in the flat table (the hottest first) take hues a golden angle
// apart, so the modules that matter most differ most.
std::vector<QColor> moduleColors(const CallTrees& trees)
{
    std::vector<QColor> colors;
    std::unordered_map<uint32_t, QColor> ofModule;
    for (const CallFunction& function : trees.functions) {
        if (function.unstacked) {
            colors.emplace_back(200, 200, 200);
            continue;
        }
        auto [it, added] = ofModule.try_emplace(function.module.value);
        if (added)
            it->second
                = QColor::fromHsv(int(std::fmod(double(ofModule.size() - 1) * 137.508, 360.0)), 100, 242);
        colors.push_back(it->second);
    }
    return colors;
}

} // namespace

FlameGraph::FlameGraph(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::ClickFocus);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
}

void FlameGraph::setTrees(std::shared_ptr<const Trace> trace, std::shared_ptr<const CallTrees> trees,
    std::shared_ptr<const CallTree> topDown)
{
    m_trace = std::move(trace);
    m_trees = m_trace && topDown ? std::move(trees) : nullptr;
    m_topDown = m_trees ? std::move(topDown) : nullptr;
    m_colors = m_trees ? moduleColors(*m_trees) : std::vector<QColor> {};
    m_zoom = kNoCallNode;
    m_hovered.reset();
    m_highlighted.reset();
    m_boxesWidth = -1;
    updateHeight();
    update();
}

void FlameGraph::setHighlightedFunction(std::optional<uint32_t> function)
{
    m_highlighted = function;
    update();
}

void FlameGraph::zoomTo(uint32_t node)
{
    if (!m_trees || (node != kNoCallNode && node >= m_topDown->nodes.size())) return;
    m_zoom = node;
    m_boxesWidth = -1;
    update();
}

void FlameGraph::zoomOut()
{
    zoomTo(kNoCallNode);
}

int FlameGraph::rowHeight() const
{
    return fontMetrics().height() + 6;
}

void FlameGraph::updateHeight()
{
    // Rows: the top bar, then one per depth of the deepest frame.
    int rows = 1;
    if (m_trees) {
        const std::vector<CallNode>& nodes = m_topDown->nodes;
        std::vector<int> depth(nodes.size(), 1);
        for (size_t n = 0; n < nodes.size(); ++n) {
            if (nodes[n].parent != kNoCallNode) depth[n] = depth[nodes[n].parent] + 1;
            rows = std::max(rows, depth[n] + 1);
        }
    }
    setMinimumHeight(rows * rowHeight() + 2);
    updateGeometry();
}

QSize FlameGraph::sizeHint() const
{
    return {800, std::max(minimumHeight(), 300)};
}

const std::vector<FlameGraph::Box>& FlameGraph::boxes() const
{
    if (m_boxesWidth == width()) return m_boxes;
    m_boxesWidth = width();
    m_boxes.clear();
    const double w = width(), h = rowHeight();
    m_boxes.push_back({QRectF(0, 0, w, h), kNoCallNode, false});
    if (!m_trees || m_trees->samples == 0) return m_boxes;
    const CallTree& tree = *m_topDown;

    // The zoomed-in node's callers, outermost first, as full-width bars.
    std::vector<uint32_t> callers;
    for (uint32_t n = m_zoom == kNoCallNode ? kNoCallNode : tree.nodes[m_zoom].parent; n != kNoCallNode;
         n = tree.nodes[n].parent)
        callers.push_back(n);
    std::reverse(callers.begin(), callers.end());
    for (size_t i = 0; i < callers.size(); ++i)
        m_boxes.push_back({QRectF(0, double(i + 1) * h, w, h), callers[i], true});

    // Then the zoomed-in node (or the roots) and their callees, as wide as their samples.
    struct Place
    {
        uint32_t node;
        double x;
        int row;
    };
    std::vector<Place> pending;
    const int firstRow = int(callers.size()) + 1;
    double scale = 0;
    if (m_zoom != kNoCallNode) {
        scale = w / double(std::max<int64_t>(tree.nodes[m_zoom].total, 1));
        pending.push_back({m_zoom, 0, firstRow});
    } else {
        scale = w / double(m_trees->samples);
        double x = 0;
        for (uint32_t r = 0; r < tree.rootCount; ++r) {
            pending.push_back({r, x, firstRow});
            x += double(tree.nodes[r].total) * scale;
        }
    }
    while (!pending.empty()) {
        const Place place = pending.back();
        pending.pop_back();
        const CallNode& node = tree.nodes[place.node];
        const double boxWidth = double(node.total) * scale;
        if (boxWidth < kMinBoxWidth) continue;
        m_boxes.push_back({QRectF(place.x, double(place.row) * h, boxWidth, h), place.node, false});
        double x = place.x;
        for (uint32_t c = 0; c < node.childCount; ++c) {
            pending.push_back({node.firstChild + c, x, place.row + 1});
            x += double(tree.nodes[node.firstChild + c].total) * scale;
        }
    }
    return m_boxes;
}

const FlameGraph::Box* FlameGraph::boxAt(QPoint point) const
{
    for (const Box& box : boxes())
        if (box.rect.contains(QPointF(point))) return &box;
    return nullptr;
}

std::optional<uint32_t> FlameGraph::nodeAt(QPoint point) const
{
    const Box* box = boxAt(point);
    return box ? std::optional<uint32_t>(box->node) : std::nullopt;
}

QString FlameGraph::toolTipAt(QPoint point) const
{
    const Box* box = boxAt(point);
    if (!box || !m_trees) return {};
    if (box->node == kNoCallNode)
        return tr("<b>All samples</b><br>%1 samples").arg(sampleCountText(m_trees->samples));
    const CallNode& node = m_topDown->nodes[box->node];
    const CallFunction& function = m_trees->functions[node.function];
    const QString module = moduleText(*m_trace, function);
    return tr("<b>%1</b><br>%2<br>Total: %3 samples (%4)<br>Self: %5 samples (%6)")
        .arg(functionText(*m_trace, function).toHtmlEscaped(),
            module.isEmpty() ? tr("unknown module") : module.toHtmlEscaped(), sampleCountText(node.total),
            percentText(m_trees->percent(node.total)), sampleCountText(node.self),
            percentText(m_trees->percent(node.self)));
}

bool FlameGraph::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString tip = toolTipAt(help->pos());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, this);
        return true;
    }
    return QWidget::event(event);
}

void FlameGraph::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QColor textColor(20, 20, 20);
    const QFontMetrics metrics = fontMetrics();
    for (const Box& box : boxes()) {
        const QRectF rect = box.rect.adjusted(0, 0, box.rect.width() >= 2 ? -1 : 0, -1);
        QString label;
        QColor fill;
        bool outlined = false;
        if (box.node == kNoCallNode) {
            fill = QColor(175, 185, 200);
            label = m_trees ? tr("All samples: %1").arg(sampleCountText(m_trees->samples)) : tr("No samples");
        } else {
            const CallNode& node = m_topDown->nodes[box.node];
            const CallFunction& function = m_trees->functions[node.function];
            fill = m_colors[node.function];
            label = functionText(*m_trace, function);
            outlined = m_highlighted == node.function;
            // Other functions' frames fade while one is highlighted; callers of a zoom, a little.
            if (m_highlighted && !outlined)
                fill = QColor::fromHsv(fill.hue(), fill.saturation() / 3, fill.value());
            else if (box.caller)
                fill = fill.lighter(108);
        }
        painter.fillRect(rect, fill);
        if (outlined || (m_hovered && *m_hovered == box.node)) {
            painter.setPen(QPen(outlined ? QColor(200, 30, 30) : QColor(40, 40, 40), 1));
            painter.drawRect(rect.adjusted(0.5, 0.5, -0.5, -0.5));
        }
        const double room = rect.width() - 2 * kTextPadding;
        if (room < metrics.horizontalAdvance(QStringLiteral("W..."))) continue;
        painter.setPen(box.caller ? QColor(90, 90, 90) : textColor);
        painter.drawText(rect.adjusted(kTextPadding, 0, -kTextPadding, 0), Qt::AlignVCenter | Qt::AlignLeft,
            metrics.elidedText(label, Qt::ElideRight, int(room)));
    }
}

void FlameGraph::mouseMoveEvent(QMouseEvent* event)
{
    const std::optional<uint32_t> hovered = nodeAt(event->position().toPoint());
    if (hovered != m_hovered) {
        m_hovered = hovered;
        update();
    }
    QWidget::mouseMoveEvent(event);
}

void FlameGraph::leaveEvent(QEvent* event)
{
    m_hovered.reset();
    update();
    QWidget::leaveEvent(event);
}

void FlameGraph::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
    const Box* box = boxAt(event->position().toPoint());
    if (!box) return;
    if (box->node == kNoCallNode) {
        zoomOut();
        return;
    }
    const uint32_t node = box->node;
    // A caller bar zooms out to that caller; a box zooms into itself.
    zoomTo(node);
    emit frameClicked(m_topDown->nodes[node].function);
}

void FlameGraph::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape && m_zoom != kNoCallNode) {
        zoomOut();
        return;
    }
    QWidget::keyPressEvent(event);
}

} // namespace sightline::views
