// The canvas's cached frame and everything that makes it: the event style, the draw-list
// builder and painter, the draw list, the image, and the pan state. When the window only pans
// (same duration, same size, modes that still hold), the last frame is moved and only the
// columns it exposes are laid out and painted (frame_scroll.h); otherwise the whole frame is
// laid out and painted again. The canvas widget owns one and keeps only input and overlays.
// Invariant: the builder and painter refer to the style, so the three are replaced together.
#pragma once

#include "views/timeline/frame/canvas_painter.h"
#include "views/timeline/frame/draw_list_builder.h"
#include "views/timeline/frame/frame_scroll.h"

#include <QFont>
#include <QImage>
#include <QPalette>
#include <memory>
#include <optional>

namespace sightline::views {

class CanvasFrame
{
public:
    explicit CanvasFrame(const Trace& trace);
    ~CanvasFrame();

    // Draws `trace` from now on; setStyle() must follow before the next frame.
    void setTrace(const Trace& trace) { m_trace = &trace; }

    // New colours (and the label font) from the widget's palette: a whole new frame follows.
    void setStyle(const QPalette& palette, const QFont& labelFont);
    // The next frame is laid out whole (rows, scroll or size changed).
    void invalidate();
    // The CPU samples whose ticks are highlighted (null: none); a whole new frame follows.
    void setSampleMarks(std::shared_ptr<const SampleMarks> marks);
    // The next frame is laid out, moved from the last one when the window only panned.
    void markStale() { m_stale = true; }
    bool stale() const { return m_stale; }

    // Lays out the frame for `scale` over `pixels` (device pixels at `dpr`).
    void layOut(const RowTree& rows, const RowLayout& layout, const TimeScale& scale, int scrollY, int height,
        QSize pixels, double dpr);
    // Paints what layOut() prepared into the image.
    void paint(QSize pixels, double dpr);

    void setScrollReuse(bool reuse);
    bool lastFrameMoved() const { return m_lastFrameMoved; }
    const DrawList& drawList() const { return m_drawList; }
    const QImage& image() const { return m_image; }
    const CanvasColors& colors() const { return m_colors; }
    DrawListBuilder& builder() { return *m_builder; }

private:
    void layOutPan(const PanStep& pan);

    const Trace* m_trace;
    CanvasColors m_colors;
    std::unique_ptr<EventStyle> m_style;
    std::unique_ptr<DrawListBuilder> m_builder;
    std::unique_ptr<CanvasPainter> m_painter;
    std::shared_ptr<const SampleMarks> m_sampleMarks;
    DrawList m_drawList;
    QImage m_image;
    bool m_stale = true;
    FrameScroll m_scroll;
    bool m_scrollReuse = true;
    std::optional<int> m_pendingShift; // the pan the next paint() applies
    bool m_lastFrameMoved = false;
    DrawList m_exposed; // columns a pan exposed, laid out
    std::vector<std::pair<int, int>> m_exposedColumns;
    std::vector<LaneColumns> m_labelRepairs;
};

} // namespace sightline::views
