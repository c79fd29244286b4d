#include "views/timeline/frame/canvas_frame.h"

#include <cmath>

namespace sightline::views {

CanvasFrame::CanvasFrame(const Trace& trace)
    : m_trace(&trace)
{ }

CanvasFrame::~CanvasFrame() = default;

void CanvasFrame::setStyle(const QPalette& palette, const QFont& labelFont)
{
    m_colors = canvasColors(palette);
    m_painter.reset();
    m_builder.reset();
    m_style = std::make_unique<EventStyle>(*m_trace, m_colors.dark);
    m_builder = std::make_unique<DrawListBuilder>(*m_trace, *m_style);
    m_builder->setSampleMarks(m_sampleMarks);
    m_painter = std::make_unique<CanvasPainter>(*m_style);
    m_painter->setFont(labelFont);
    invalidate();
}

void CanvasFrame::invalidate()
{
    m_scroll.invalidate();
    m_stale = true;
}

void CanvasFrame::setSampleMarks(std::shared_ptr<const SampleMarks> marks)
{
    m_sampleMarks = std::move(marks);
    if (m_builder) m_builder->setSampleMarks(m_sampleMarks);
    invalidate();
}

void CanvasFrame::setScrollReuse(bool reuse)
{
    m_scrollReuse = reuse;
    m_scroll.invalidate();
}

void CanvasFrame::layOut(const RowTree& rows, const RowLayout& layout, const TimeScale& scale, int scrollY,
    int height, QSize pixels, double dpr)
{
    if (m_pendingShift) m_scroll.invalidate(); // laid out twice without a paint between
    std::optional<PanStep> pan;
    if (m_scrollReuse && m_image.size() == pixels) pan = m_scroll.panTo(scale, dpr);
    if (pan && m_builder->modesHold(pan->scale)) {
        layOutPan(*pan);
        return;
    }
    m_pendingShift.reset();
    m_builder->build(rows, layout, scale, scrollY, height, m_drawList);
    m_scroll.reset(scale);
}

void CanvasFrame::layOutPan(const PanStep& pan)
{
    const auto before = edgeBoxes(m_drawList);
    shiftDrawList(m_drawList, pan.shift, pan.scale, *m_trace);
    m_exposedColumns = exposedColumns(pan.shift, m_drawList.width);
    for (const auto& [first, last] : m_exposedColumns) {
        m_builder->buildColumns(pan.scale, first, last, m_drawList, m_exposed);
        mergeColumns(m_drawList, m_exposed, first, last);
    }
    m_labelRepairs = labelRepairs(m_drawList, before);
    m_scroll.commit(pan);
    m_pendingShift = pan.shift;
}

void CanvasFrame::paint(QSize pixels, double dpr)
{
    if (m_pendingShift) {
        scrollImage(m_image, int(std::lround(*m_pendingShift * dpr)));
        for (const auto& [first, last] : m_exposedColumns)
            m_painter->paintColumns(m_drawList, m_colors, m_image, first, last);
        for (const LaneColumns& repair : m_labelRepairs)
            m_painter->paintLaneColumns(m_drawList, repair.lane, m_colors, m_image, repair.x0, repair.x1);
        m_pendingShift.reset();
        m_lastFrameMoved = true;
        m_stale = false;
        return;
    }
    if (m_image.size() != pixels) m_image = QImage(pixels, QImage::Format_ARGB32_Premultiplied);
    m_image.setDevicePixelRatio(dpr);
    m_painter->paint(m_drawList, m_colors, m_image);
    m_lastFrameMoved = false;
    m_stale = false;
}

} // namespace sightline::views
