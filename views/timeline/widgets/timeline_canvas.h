// The event canvas: shows the cached frame (frame/canvas_frame.h) and paints the overlays
// (selection, highlights, hover, cursor) over it on every repaint. The frame is laid out and
// painted again only when the window, the rows, the scroll position, the size or the palette
// change; when the window only pans, the frame is moved and only the columns it exposes are
// laid out and painted. Input: drag selects a time range, click selects an
// event, double-click zooms to it, Ctrl+wheel zooms around the mouse, Shift+wheel and middle-drag pan, the
// wheel scrolls rows, hovering shows the event's tooltip, right-click opens a menu.
#pragma once

#include "views/timeline/frame/canvas_frame.h"
#include "views/timeline/interaction/timeline_state.h"
#include "views/timeline/widgets/canvas_overlay.h"

#include <QImage>
#include <QWidget>
#include <memory>

namespace sightline::views {

class TimelineCanvas : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineCanvas(TimelineState& state, QWidget* parent = nullptr);
    ~TimelineCanvas() override;

    std::optional<EventRef> eventAt(QPoint pos) const;
    // The tooltip (rich text) shown at `pos`: an event's, a counter's value, a thread state's
    // or a CPU sample's; empty where there is nothing.
    QString toolTipAt(QPoint pos) const;
    // Where `event` is drawn now, one rectangle per row showing it (may lie off screen).
    std::vector<QRectF> rectsOf(EventRef event) const;
    // Draws the ticks of the CPU samples whose stack is in `sortedStacks` (stack node ids,
    // sorted ascending) in a strong colour; null clears the highlight.
    void setHighlightedStacks(std::shared_ptr<const std::vector<uint32_t>> sortedStacks);
    // With `pictureOnly` the events are stand-ins: no event is hit, hovered or described.
    void setPictureOnly(bool pictureOnly);
    bool isPictureOnly() const { return m_pictureOnly; }
    // The arrow buttons leading to off-screen correlated events, as last painted.
    const std::vector<JumpTarget>& jumpTargets() const { return m_jumpTargets; }

    // Layout and painting of the frame, separately (the benchmark times both): the whole
    // frame, or after a pan only what it exposes.
    void layOut();
    void paintFrame();
    // Set to false to lay out and paint every frame whole, pans included (the benchmark
    // compares both).
    void setScrollReuse(bool reuse) { m_frame.setScrollReuse(reuse); }
    // True when the last frame was the one before it, moved (tests check reuse happens).
    bool lastFrameMoved() const { return m_frame.lastFrameMoved(); }
    const DrawList& drawList() const { return m_frame.drawList(); }
    const QImage& frame() const { return m_frame.image(); }
    void setParallelLayout(bool parallel) { m_frame.builder().setParallel(parallel); }
    void setTiledLayout(bool tiled) { m_frame.builder().setTiling(tiled); }

    void copyToolTip(EventRef event) const;

signals:
    void keyboardHelpRequested();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool event(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    enum class Drag : uint8_t { None, Pending, Select, Pan };

    void rebuildStyle();
    void onTraceChanged();
    void invalidate();
    void onVisibleChanged();
    void hideStaleToolTip(); // the view moved: what the tooltip describes is no longer there
    QSize framePixels() const;
    void updateHover(QPoint pos);

    TimelineState& m_state;
    CanvasFrame m_frame;

    Drag m_drag = Drag::None;
    QPointF m_pressPos;
    TimeScale m_pressScale;
    std::optional<EventRef> m_hover;
    std::optional<double> m_cursorX;
    std::vector<JumpTarget> m_jumpTargets;
    bool m_pictureOnly = false;
};

} // namespace sightline::views
