// Paints a draw list into an image: row bands and separators, then each lane's bars and boxes
// written straight into the image's pixels (a frame can hold a hundred thousand of them, far
// more than QPainter calls could afford), then the labels of boxes wide enough to hold text.
// A label keeps to the widest stretch of its box left visible by the boxes painted over it
// (label_spans.h), so in a lane of overlapping boxes no label covers another.
// It only reads the draw list, so layout and painting can be timed apart. The image is
// ARGB32_Premultiplied, its size the viewport's times its device pixel ratio. A panned frame
// repaints only some pixel columns of some lanes (frame_scroll.h), so everything is painted
// through a clip of pixel columns, and a label never leaves its lane's band: a lane's pixels
// depend on that lane's draw list alone.
#pragma once

#include "views/timeline/frame/draw_list.h"
#include "views/timeline/frame/event_style.h"
#include "views/timeline/frame/label_spans.h"

#include <QFont>
#include <QFontMetrics>
#include <QImage>
#include <optional>
#include <unordered_map>
#include <vector>

namespace sightline::views {

class CanvasPainter
{
public:
    static constexpr int kMinLabelPixels = 28;
    static constexpr int kLabelPadding = 4;

    explicit CanvasPainter(const EventStyle& style);

    void setFont(const QFont& font);
    // The whole frame.
    void paint(const DrawList& list, const CanvasColors& colors, QImage& image);
    // Viewport pixel columns [x0, x1) of every row and lane; the rest of the image is kept.
    void paintColumns(const DrawList& list, const CanvasColors& colors, QImage& image, int x0, int x1);
    // Columns [x0, x1) of lane `lane` only: its part of the row band, its bars, boxes, labels.
    void paintLaneColumns(
        const DrawList& list, size_t lane, const CanvasColors& colors, QImage& image, int x0, int x1);

    // A label as painted: `text` (elided to fit) drawn left-aligned and centred vertically in
    // `rect`, viewport pixels, and clipped to it; `box` indexes its lane's boxes.
    struct PlacedLabel
    {
        size_t box;
        QRectF rect;
        QString text;
    };
    // Every label painting `lane` of `list` draws.
    std::vector<PlacedLabel> labels(const DrawList& list, const LaneDraw& lane);

private:
    // Device pixels a paint may write: columns [x0, x1), rows [y0, y1).
    struct Clip
    {
        int x0, x1, y0, y1;
    };
    // The spans of `lane`'s boxes that can hold a label, into m_spans (none where the lane
    // shows no labels).
    void findLabelSpans(const DrawList& list, const LaneDraw& lane);
    std::optional<PlacedLabel> placeLabel(const LaneDraw& lane, const LabelSpan& span);
    Clip columnClip(const QImage& image, int x0, int x1) const;
    void paintRowBands(QImage& image, const DrawList& list, const CanvasColors& colors, Clip clip) const;
    void paintLane(QImage& image, const LaneDraw& lane, Clip clip) const;
    void paintLabels(QPainter& painter, const DrawList& list, const LaneDraw& lane, int x0, int x1);
    int labelWidth(const QString& text);

    const EventStyle& m_style;
    QFont m_font;
    QFontMetrics m_metrics;
    std::unordered_map<const QString*, int> m_labelWidths; // labels live in EventStyle's caches
    std::vector<LabelSpan> m_spans;
};

} // namespace sightline::views
