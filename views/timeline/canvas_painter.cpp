#include "canvas_painter.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace sightline::views {
namespace {

// Fills device pixels [x0, x1) x [y0, y1) with an opaque colour, clipped to the image.
void fillPixels(QImage& image, int x0, int x1, int y0, int y1, QRgb rgb)
{
    x0 = std::max(x0, 0);
    y0 = std::max(y0, 0);
    x1 = std::min(x1, image.width());
    y1 = std::min(y1, image.height());
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
    paintRowBands(image, list, colors);
    for (size_t l = 0; l < list.laneCount; ++l)
        paintLane(image, list.lanes[l]);

    QPainter painter(&image);
    painter.setFont(m_font);
    for (size_t l = 0; l < list.laneCount; ++l)
        paintLabels(painter, list.lanes[l], list.width);
}

void CanvasPainter::paintRowBands(QImage& image, const DrawList& list, const CanvasColors& colors) const
{
    // Every pixel is written once: each row's band with its separator line, then the space
    // below the last row.
    const double dpr = image.devicePixelRatio();
    const int width = image.width();
    const QRgb plainLine = blended(colors.background, colors.separator);
    const QRgb groupLine = blended(colors.groupRow, colors.separator);
    int filledTo = 0;
    for (const DrawRow& row : list.rows) {
        const int y0 = std::max(filledTo, int(std::lround(row.top * dpr)));
        const int y1 = int(std::lround((row.top + row.height) * dpr));
        if (y0 > filledTo) fillPixels(image, 0, width, filledTo, y0, colors.background);
        fillPixels(image, 0, width, y0, y1 - 1, row.group ? colors.groupRow : colors.background);
        fillPixels(image, 0, width, std::max(y0, y1 - 1), y1, row.group ? groupLine : plainLine);
        filledTo = std::max(filledTo, y1);
    }
    fillPixels(image, 0, width, filledTo, image.height(), colors.background);
}

void CanvasPainter::paintLane(QImage& image, const LaneDraw& lane) const
{
    const double dpr = image.devicePixelRatio();
    const int gap = lane.height >= 8 ? 1 : 0;
    const int top = int(std::lround((lane.top + gap) * dpr));
    const int bottom = int(std::lround((lane.top + lane.height - gap) * dpr));
    const int pixel = std::max(1, int(std::lround(dpr)));
    for (const DrawBar& bar : lane.bars) {
        const int x0 = int(bar.x * dpr + 0.5);
        const int x1 = std::max(x0 + pixel, int((bar.x + bar.width) * dpr + 0.5));
        fillPixels(image, x0, x1, bottom - int(bar.height * dpr + 0.5), bottom, bar.fill);
    }
    for (const DrawBox& box : lane.boxes) {
        const int x0 = int(std::floor(box.x0 * dpr));
        const int x1 = std::max(x0 + 1, int(std::lround(box.x1 * dpr)));
        fillPixels(image, x0, x1, top, bottom, box.fill);
        // A darker left edge keeps neighbouring boxes of one colour apart.
        if (x1 - x0 >= 4 * pixel) fillPixels(image, x0, x0 + pixel, top, bottom, darker(box.fill));
    }
}

void CanvasPainter::paintLabels(QPainter& painter, const LaneDraw& lane, int width)
{
    if (lane.utilization || lane.height + 2 < m_metrics.height()) return;
    constexpr int kPadding = 4;
    for (const DrawBox& box : lane.boxes) {
        const float left = std::max(box.x0, 0.0f);
        const float room = std::min(box.x1, float(width)) - left;
        if (room < kMinLabelPixels) continue;
        const QString& text = m_style.label(box.event);
        if (text.isEmpty()) continue;
        const int available = int(room) - 2 * kPadding;
        const QRectF rect(left + kPadding, lane.top, available, lane.height);
        painter.setPen(QColor(EventStyle::textColorOn(box.fill)));
        if (labelWidth(text) <= available)
            painter.drawText(rect, Qt::AlignVCenter | Qt::AlignLeft, text);
        else
            painter.drawText(rect, Qt::AlignVCenter | Qt::AlignLeft,
                m_metrics.elidedText(text, Qt::ElideRight, available));
    }
}

} // namespace sightline::views
