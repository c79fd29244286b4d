// Paints a draw list into an image: row bands and separators, then each lane's bars and boxes
// written straight into the image's pixels (a frame can hold a hundred thousand of them, far
// more than QPainter calls could afford), then the labels of boxes wide enough to hold text.
// It only reads the draw list, so layout and painting can be timed apart. The image is
// ARGB32_Premultiplied, its size the viewport's times its device pixel ratio.
#pragma once

#include "draw_list.h"
#include "event_style.h"

#include <QFont>
#include <QFontMetrics>
#include <QImage>
#include <unordered_map>

namespace sightline::views {

class CanvasPainter
{
public:
    static constexpr int kMinLabelPixels = 28;

    explicit CanvasPainter(const EventStyle& style);

    void setFont(const QFont& font);
    void paint(const DrawList& list, const CanvasColors& colors, QImage& image);

private:
    void paintRowBands(QImage& image, const DrawList& list, const CanvasColors& colors) const;
    void paintLane(QImage& image, const LaneDraw& lane) const;
    void paintLabels(QPainter& painter, const LaneDraw& lane, int width);
    int labelWidth(const QString& text);

    const EventStyle& m_style;
    QFont m_font;
    QFontMetrics m_metrics;
    std::unordered_map<const QString*, int> m_labelWidths; // labels live in EventStyle's caches
};

} // namespace sightline::views
