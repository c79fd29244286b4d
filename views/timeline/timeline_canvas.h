// The event canvas: paints the rows' events from a draw list into a cached frame, and the
// overlays (selection, highlights, hover, cursor) over it on every repaint. The frame is laid
// out and painted again only when the window, the rows, the scroll position, the size or the
// palette change; when the window only pans, the frame is moved and only the columns it
// exposes are laid out and painted (frame_scroll.h). Input: drag selects a time range, click selects an event, double-click
// zooms to it, Ctrl+wheel zooms around the mouse, Shift+wheel and middle-drag pan, the wheel
// scrolls rows, hovering shows the event's tooltip, right-click opens a menu.
#pragma once

#include "canvas_overlay.h"
#include "canvas_painter.h"
#include "draw_list_builder.h"
#include "frame_scroll.h"
#include "timeline_state.h"

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
    // The tooltip (rich text) shown at `pos`; empty where there is no event.
    QString toolTipAt(QPoint pos) const;
    // Where `event` is drawn now, one rectangle per row showing it (may lie off screen).
    std::vector<QRectF> rectsOf(EventRef event) const;
    // The arrow buttons leading to off-screen correlated events, as last painted.
    const std::vector<JumpTarget>& jumpTargets() const { return m_jumpTargets; }

    // Layout and painting of the frame, separately (the benchmark times both): the whole
    // frame, or after a pan only what it exposes.
    void layOut();
    void paintFrame();
    // Set to false to lay out and paint every frame whole, pans included (the benchmark
    // compares both).
    void setScrollReuse(bool reuse);
    // True when the last frame was the one before it, moved (tests check reuse happens).
    bool lastFrameMoved() const { return m_lastFrameMoved; }
    const DrawList& drawList() const { return m_drawList; }
    const QImage& frame() const { return m_frame; }
    void setParallelLayout(bool parallel) { m_builder->setParallel(parallel); }
    void setTiledLayout(bool tiled) { m_builder->setTiling(tiled); }

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
    void invalidate();
    void onVisibleChanged();
    QSize framePixels() const;
    void layOutPan(const PanStep& pan);
    void updateHover(QPoint pos);

    TimelineState& m_state;
    CanvasColors m_colors;
    std::unique_ptr<EventStyle> m_style;
    std::unique_ptr<DrawListBuilder> m_builder;
    std::unique_ptr<CanvasPainter> m_painter;
    DrawList m_drawList;
    QImage m_frame;
    bool m_stale = true;

    // The pan the next paintFrame() applies, when layOut() chose to reuse the frame.
    FrameScroll m_scroll;
    bool m_scrollReuse = true;
    std::optional<int> m_pendingShift;
    bool m_lastFrameMoved = false;
    DrawList m_exposed; // columns a pan exposed, laid out
    std::vector<std::pair<int, int>> m_exposedColumns;
    std::vector<LaneColumns> m_labelRepairs;

    Drag m_drag = Drag::None;
    QPointF m_pressPos;
    TimeScale m_pressScale;
    std::optional<EventRef> m_hover;
    std::optional<double> m_cursorX;
    std::vector<JumpTarget> m_jumpTargets;
};

} // namespace sightline::views
