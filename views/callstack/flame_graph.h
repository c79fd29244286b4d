// The top-down call tree as a flame graph, drawn top down (an icicle): a bar for all samples on
// top, the outermost frames under it, each frame a box as wide as its total samples with its
// callees below it, coloured by module. Hovering a box tells its function, module and samples;
// clicking one zooms into it (it fills the width, its callers stay above it as full-width
// bars) and reports its function; clicking the top bar or a caller bar, or Escape, zooms out.
// Boxes narrower than half a pixel are left out, with their callees, so a frame costs at most
// one box per pixel column and row.
#pragma once

#include "model/stats/call_tree.h"

#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

namespace sightline::views {

class FlameGraph : public QWidget
{
    Q_OBJECT
public:
    explicit FlameGraph(QWidget* parent = nullptr);

    // Draws `topDown`, the top-down tree of `trees` (model/stats/call_tree.h); without it, or
    // without a trace, the graph is empty.
    void setTrees(std::shared_ptr<const Trace> trace, std::shared_ptr<const CallTrees> trees,
        std::shared_ptr<const CallTree> topDown);
    // Frames of this function (an index into CallTrees::functions) are outlined, others fade.
    void setHighlightedFunction(std::optional<uint32_t> function);

    // The zoomed-in top-down node; kNoCallNode when the whole tree is shown.
    uint32_t zoomNode() const { return m_zoom; }
    void zoomTo(uint32_t node);
    void zoomOut();

    // The top-down node of the box at `point`: kNoCallNode for the top bar, nothing off the boxes.
    std::optional<uint32_t> nodeAt(QPoint point) const;
    // What hovering `point` shows: the function, module and samples of its box; empty off the boxes.
    QString toolTipAt(QPoint point) const;

    QSize sizeHint() const override;

signals:
    // A frame was clicked: its function, an index into CallTrees::functions.
    void frameClicked(uint32_t function);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    struct Box
    {
        QRectF rect;
        uint32_t node; // kNoCallNode: the top bar
        bool caller; // a caller of the zoomed-in node, drawn full width
    };
    int rowHeight() const;
    void updateHeight();
    const std::vector<Box>& boxes() const; // laid out for the current width
    const Box* boxAt(QPoint point) const;

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const CallTrees> m_trees; // set only together with m_topDown
    std::shared_ptr<const CallTree> m_topDown;
    std::vector<QColor> m_colors; // per function: its module's colour
    std::optional<uint32_t> m_highlighted;
    uint32_t m_zoom = kNoCallNode;
    std::optional<uint32_t> m_hovered; // the hovered box's node
    mutable std::vector<Box> m_boxes;
    mutable int m_boxesWidth = -1; // the width m_boxes were laid out for; -1: stale
};

} // namespace sightline::views
