#include "views/timeline/frame/canvas_painter.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace sightline::views {
namespace {

// Fills device pixels [x0, x1) x [y0, y1) with an opaque colour, clipped to `clip`.
template <class Clip>
void fillPixels(QImage& image, const Clip& clip, int x0, int x1, int y0, int y1, QRgb rgb)
{
    x0 = std::max(x0, clip.x0);
    y0 = std::max(y0, clip.y0);
    x1 = std::min(x1, clip.x1);
    y1 = std::min(y1, clip.y1);
    if (x0 >= x1 || y0 >= y1) return;
    const qsizetype stride = image.bytesPerLine() / 4;
    uint32_t* line = reinterpret_cast<uint32_t*>(image.bits()) + qsizetype(y0) * stride;
    for (int y = y0; y < y1; ++y, line += stride)
        std::fill(line + x0, line + x1, uint32_t(rgb));
}

// An opaque colour: `argb` (translucent) over `under`.
QRgb blended(QRgb under, QRgb argb)
{
    const uint32_t alpha = qAlpha(argb), keep = 255 - alpha;
    return qRgb((qRed(under) * keep + qRed(argb) * alpha) / 255,
        (qGreen(under) * keep + qGreen(argb) * alpha) / 255,
        (qBlue(under) * keep + qBlue(argb) * alpha) / 255);
}

QRgb darker(QRgb rgb)
{
    return qRgb(qRed(rgb) * 3 / 4, qGreen(rgb) * 3 / 4, qBlue(rgb) * 3 / 4);
}

// The row holding a lane (rows are sorted by top and contain their lanes).
const DrawRow* rowOf(const DrawList& list, const LaneDraw& lane)
{
    auto it = std::upper_bound(list.rows.begin(), list.rows.end(), lane.top,
        [](int top, const DrawRow& row) { return top < row.top; });
    return it == list.rows.begin() ? nullptr : &*(it - 1);
}

// The viewport rows [top, bottom) a lane owns: its height, less the separator line at the
// bottom of its row.
std::pair<int, int> laneBand(const DrawList& list, const LaneDraw& lane)
{
    const DrawRow* row = rowOf(list, lane);
    const int rowEnd = row ? row->top + row->height - 1 : lane.top + lane.height;
    return {lane.top, std::min(lane.top + lane.height, rowEnd)};
}

} // namespace

CanvasPainter::CanvasPainter(const EventStyle& style)
    : m_style(style)
    , m_metrics(m_font)
{ }

void CanvasPainter::setFont(const QFont& font)
{
    m_font = font;
    m_metrics = QFontMetrics(font);
    m_labelWidths.clear();
}

int CanvasPainter::labelWidth(const QString& text)
{
    auto [it, inserted] = m_labelWidths.try_emplace(&text, 0);
    if (inserted) it->second = m_metrics.horizontalAdvance(text);
    return it->second;
}

void CanvasPainter::paint(const DrawList& list, const CanvasColors& colors, QImage& image)
{
    paintColumns(list, colors, image, 0, list.width);
}

CanvasPainter::Clip CanvasPainter::columnClip(const QImage& image, int x0, int x1) const
{
    const double dpr = image.devicePixelRatio();
    return {std::max(0, int(std::lround(x0 * dpr))), std::min(image.width(), int(std::lround(x1 * dpr))), 0,
        image.height()};
}

void CanvasPainter::paintColumns(
    const DrawList& list, const CanvasColors& colors, QImage& image, int x0, int x1)
{
    const Clip clip = columnClip(image, x0, x1);
    if (clip.x0 >= clip.x1) return;
    paintRowBands(image, list, colors, clip);
    for (size_t l = 0; l < list.laneCount; ++l)
        paintLane(image, list.lanes[l], clip);

    QPainter painter(&image);
    painter.setFont(m_font);
    for (size_t l = 0; l < list.laneCount; ++l)
        paintLabels(painter, list, list.lanes[l], x0, x1);
}

void CanvasPainter::paintLaneColumns(
    const DrawList& list, size_t l, const CanvasColors& colors, QImage& image, int x0, int x1)
{
    const LaneDraw& lane = list.lanes[l];
    const double dpr = image.devicePixelRatio();
    const auto [top, bottom] = laneBand(list, lane);
    Clip clip = columnClip(image, x0, x1);
    clip.y0 = std::max(0, int(std::lround(top * dpr)));
    clip.y1 = std::min(image.height(), int(std::lround(bottom * dpr)));
    if (clip.x0 >= clip.x1 || clip.y0 >= clip.y1) return;
    const DrawRow* row = rowOf(list, lane);
    fillPixels(image, clip, clip.x0, clip.x1, clip.y0, clip.y1,
        row && row->group ? colors.groupRow : colors.background);
    paintLane(image, lane, clip);
    QPainter painter(&image);
    painter.setFont(m_font);
    paintLabels(painter, list, lane, x0, x1);
}

void CanvasPainter::paintRowBands(
    QImage& image, const DrawList& list, const CanvasColors& colors, Clip clip) const
{
    // Every pixel is written once: each row's band with its separator line, then the space
    // below the last row.
    const double dpr = image.devicePixelRatio();
    const QRgb plainLine = blended(colors.background, colors.separator);
    const QRgb groupLine = blended(colors.groupRow, colors.separator);
    int filledTo = 0;
    for (const DrawRow& row : list.rows) {
        const int y0 = std::max(filledTo, int(std::lround(row.top * dpr)));
        const int y1 = int(std::lround((row.top + row.height) * dpr));
        if (y0 > filledTo) fillPixels(image, clip, clip.x0, clip.x1, filledTo, y0, colors.background);
        fillPixels(
            image, clip, clip.x0, clip.x1, y0, y1 - 1, row.group ? colors.groupRow : colors.background);
        fillPixels(
            image, clip, clip.x0, clip.x1, std::max(y0, y1 - 1), y1, row.group ? groupLine : plainLine);
        filledTo = std::max(filledTo, y1);
    }
    fillPixels(image, clip, clip.x0, clip.x1, filledTo, image.height(), colors.background);
}

void CanvasPainter::paintLane(QImage& image, const LaneDraw& lane, Clip clip) const
{
    const double dpr = image.devicePixelRatio();
    const int gap = lane.height >= 8 ? 1 : 0;
    const int top = int(std::lround((lane.top + gap) * dpr));
    const int bottom = int(std::lround((lane.top + lane.height - gap) * dpr));
    const int pixel = std::max(1, int(std::lround(dpr)));
    for (const DrawBand& band : lane.bands) {
        const int x0 = int(band.x * dpr + 0.5);
        const int x1 = std::max(x0 + pixel, int((band.x + band.width) * dpr + 0.5));
        if (x1 <= clip.x0 || x0 >= clip.x1) continue;
        fillPixels(image, clip, x0, x1, bottom - int(band.high * dpr + 0.5),
            bottom - int(band.low * dpr + 0.5), band.fill);
    }
    for (const DrawBar& bar : lane.bars) {
        const int x0 = int(bar.x * dpr + 0.5);
        const int x1 = std::max(x0 + pixel, int((bar.x + bar.width) * dpr + 0.5));
        if (x1 <= clip.x0 || x0 >= clip.x1) continue;
        fillPixels(image, clip, x0, x1, bottom - int(bar.height * dpr + 0.5), bottom, bar.fill);
    }
    for (const DrawBox& box : lane.boxes) {
        const int x0 = int(std::lround(box.x0 * dpr)); // rounded as x1 is: touching boxes never overlap
        const int x1 = std::max(x0 + 1, int(std::lround(box.x1 * dpr)));
        if (x1 <= clip.x0 || x0 >= clip.x1) continue;
        fillPixels(image, clip, x0, x1, top, bottom, box.fill);
        // A darker left edge keeps neighbouring boxes of one colour apart.
        if (x1 - x0 >= 4 * pixel) fillPixels(image, clip, x0, x0 + pixel, top, bottom, darker(box.fill));
    }
}

void CanvasPainter::findLabelSpans(const DrawList& list, const LaneDraw& lane)
{
    m_spans.clear();
    if (lane.utilization || lane.height + 2 < m_metrics.height()) return;
    visibleLabelSpans(lane.boxes, float(list.width), float(kMinLabelPixels), m_spans);
}

std::optional<CanvasPainter::PlacedLabel> CanvasPainter::placeLabel(
    const LaneDraw& lane, const LabelSpan& span)
{
    const DrawBox& box = lane.boxes[span.box];
    const QString& text = m_style.label(box.event);
    if (text.isEmpty()) return std::nullopt;
    const int available = int(span.x1 - span.x0) - 2 * kLabelPadding;
    const QRectF rect(span.x0 + kLabelPadding, lane.top, available, lane.height);
    if (labelWidth(text) <= available) return PlacedLabel {span.box, rect, text};
    return PlacedLabel {span.box, rect, m_metrics.elidedText(text, Qt::ElideRight, available)};
}

std::vector<CanvasPainter::PlacedLabel> CanvasPainter::labels(const DrawList& list, const LaneDraw& lane)
{
    std::vector<PlacedLabel> placed;
    findLabelSpans(list, lane);
    for (const LabelSpan& span : m_spans)
        if (std::optional<PlacedLabel> label = placeLabel(lane, span)) placed.push_back(std::move(*label));
    return placed;
}

void CanvasPainter::paintLabels(QPainter& painter, const DrawList& list, const LaneDraw& lane, int x0, int x1)
{
    findLabelSpans(list, lane);
    bool clipped = false;
    for (const LabelSpan& span : m_spans) {
        if (span.x1 <= float(x0) || span.x0 >= float(x1)) continue;
        const std::optional<PlacedLabel> label = placeLabel(lane, span);
        if (!label) continue;
        if (!clipped) {
            const auto [top, bottom] = laneBand(list, lane);
            painter.setClipRect(QRect(x0, top, x1 - x0, bottom - top));
            clipped = true;
        }
        painter.setPen(QColor(EventStyle::textColorOn(lane.boxes[label->box].fill)));
        painter.drawText(label->rect, Qt::AlignVCenter | Qt::AlignLeft, label->text);
    }
}

} // namespace sightline::views
