// Labels of boxes that overlap ([All Streams], where kernels of several streams run at once):
// each label keeps to the part of its box that the boxes painted over it leave visible, so no
// two labels overlap and none is written over another box, in the draw list and in the pixels.
#include "model/construct/trace_builder.h"
#include "timeline_widget_fixture.h"
#include "views/timeline/frame/canvas_painter.h"
#include "views/timeline/frame/label_spans.h"

#include <catch2/catch.hpp>
#include <random>

using namespace sightline;
using namespace sightline::testing;
using namespace sightline::views;

namespace {

DrawBox box(float x0, float x1, uint32_t index)
{
    return DrawBox {x0, x1, qRgb(0, 0, 255), EventRef {TrackId(0), index}};
}

// One GPU with three streams whose kernels (each stream's in sequence, with long names) run at
// random times over 50 ms, so those of different streams overlap in every way.
std::shared_ptr<const Trace> overlappingKernels(int perStream)
{
    TraceBuilder builder;
    std::mt19937 random(5);
    for (uint32_t stream = 0; stream < 3; ++stream) {
        const TrackId track
            = builder.gpuTrack(TrackKind::Kernels, Pid(1), DeviceId(0), ContextId(1), StreamId(10 + stream));
        Timestamp at = Timestamp(std::uniform_int_distribution<int>(0, 300'000)(random));
        for (int k = 0; k < perStream; ++k) {
            const Duration length
                = std::uniform_int_distribution<Duration>(20'000, 50'000'000 / perStream)(random);
            const std::string name
                = "stream" + std::to_string(stream) + "_kernel_with_a_long_name_" + std::to_string(k);
            builder.add(track, KernelEvent {at, at + length, builder.intern(name), CorrelationId(0), {}});
            at += length + std::uniform_int_distribution<Duration>(1'000, 100'000)(random);
        }
    }
    return std::make_shared<const Trace>(builder.build(1));
}

// True when some two boxes of the lane overlap on screen.
bool boxesOverlap(const LaneDraw& lane, int width)
{
    for (size_t a = 0; a < lane.boxes.size(); ++a)
        for (size_t b = a + 1; b < lane.boxes.size(); ++b)
            if (std::max({lane.boxes[a].x0, lane.boxes[b].x0, 0.0f})
                < std::min({lane.boxes[a].x1, lane.boxes[b].x1, float(width)}))
                return true;
    return false;
}

// Checks the labels of `lane`: inside the viewport and their box, clear of every box painted
// over theirs and of each other; in the frame, text only inside them. Returns how many there are.
size_t checkLabels(const std::vector<CanvasPainter::PlacedLabel>& labels, const LaneDraw& lane,
    const QImage& frame, int width)
{
    for (size_t i = 0; i < labels.size(); ++i) {
        const QRectF& rect = labels[i].rect;
        const DrawBox& own = lane.boxes[labels[i].box];
        INFO("label " << labels[i].text.toStdString() << " at " << rect.left() << ".." << rect.right());
        CHECK(rect.left() >= std::max(0.0f, own.x0));
        CHECK(rect.right() <= std::min(float(width), own.x1));
        for (size_t over = labels[i].box + 1; over < lane.boxes.size(); ++over)
            CHECK((rect.right() <= lane.boxes[over].x0 || rect.left() >= lane.boxes[over].x1));
        for (size_t j = i + 1; j < labels.size(); ++j)
            CHECK_FALSE(rect.intersects(labels[j].rect));
    }
    // Boxes are flat colour top to bottom, so outside the labels every pixel of a column
    // without bars (dense columns) equals its top one; inside each label, its text changes some.
    const int top = lane.top + 1, bottom = lane.top + lane.height - 1;
    std::vector<bool> barAt(size_t(width), false);
    for (const DrawBar& bar : lane.bars)
        std::fill_n(barAt.begin() + bar.x, std::min<int>(bar.width, width - bar.x), true);
    std::vector<int> labelAt(size_t(width), -1);
    for (size_t i = 0; i < labels.size(); ++i)
        for (int x = int(std::floor(labels[i].rect.left())); x < int(std::ceil(labels[i].rect.right())); ++x)
            labelAt[size_t(x)] = int(i);
    std::vector<bool> inked(labels.size(), false);
    int strayInk = 0;
    for (int x = 0; x < width; ++x)
        for (int y = top + 1; y < bottom; ++y)
            if (!barAt[size_t(x)] && frame.pixel(x, y) != frame.pixel(x, top)) {
                if (labelAt[size_t(x)] < 0)
                    ++strayInk;
                else
                    inked[size_t(labelAt[size_t(x)])] = true;
            }
    CHECK(strayInk == 0);
    CHECK(std::count(inked.begin(), inked.end(), true) == std::ptrdiff_t(labels.size()));
    return labels.size();
}

} // namespace

TEST_CASE("A label keeps to the widest stretch of its box that later boxes leave visible")
{
    std::vector<LabelSpan> spans;
    // b is painted over a's right half; c, under d entirely, has nowhere to go; e is cut by the
    // viewport's right edge.
    const std::vector<DrawBox> boxes
        = {box(0, 100, 0), box(50, 150, 1), box(200, 260, 2), box(190, 300, 3), box(380, 404, 4)};
    visibleLabelSpans(boxes, 400, 1, spans);
    REQUIRE(spans.size() == 4);
    CHECK((spans[0].box == 0 && spans[0].x0 == 0 && spans[0].x1 == 50));
    CHECK((spans[1].box == 1 && spans[1].x0 == 50 && spans[1].x1 == 150));
    CHECK((spans[2].box == 3 && spans[2].x0 == 190 && spans[2].x1 == 300));
    CHECK((spans[3].box == 4 && spans[3].x0 == 380 && spans[3].x1 == 400));

    // A box with later boxes inside it gets its widest uncovered stretch; narrow boxes none.
    const std::vector<DrawBox> holed = {box(0, 100, 0), box(5, 20, 1), box(40, 90, 2), box(95, 98, 3)};
    visibleLabelSpans(holed, 1000, 10, spans);
    REQUIRE(spans.size() == 3);
    CHECK((spans[0].box == 0 && spans[0].x0 == 20 && spans[0].x1 == 40));
    CHECK((spans[1].box == 1 && spans[1].x0 == 5 && spans[1].x1 == 20));
    CHECK((spans[2].box == 2 && spans[2].x0 == 40 && spans[2].x1 == 90));

    // Boxes one after another (most lanes) each keep their whole visible width.
    const std::vector<DrawBox> sequence = {box(-4, 30, 0), box(30, 35, 1), box(40, 90, 2)};
    visibleLabelSpans(sequence, 80, 10, spans);
    REQUIRE(spans.size() == 2);
    CHECK((spans[0].x0 == 0 && spans[0].x1 == 30));
    CHECK((spans[1].x0 == 40 && spans[1].x1 == 80));
}

TEST_CASE("Labels of overlapping kernels in [All Streams] never overlap, on screen and in the draw list")
{
    for (const int perStream : {40, 400}) {
        INFO(perStream << " kernels per stream");
        const auto trace = overlappingKernels(perStream);
        TimelineView view {trace};
        view.resize(1400, 600);
        view.show();
        REQUIRE(QTest::qWaitForWindowExposed(&view));
        TimelineState& state = view.state();
        TimelineCanvas& canvas = *view.canvas();
        const int allStreams = state.rows().find(QStringLiteral("[All Streams]"));
        REQUIRE(allStreams >= 0);
        const EventStyle style(*trace, false);
        CanvasPainter painter(style);
        QFont labelFont = canvas.font(); // as the canvas sets its painter's
        labelFont.setPointSizeF(labelFont.pointSizeF() * 0.92);
        painter.setFont(labelFont);

        const TimeRange all = state.bounds();
        size_t labelled = 0;
        bool overlapped = false;
        for (const double zoom : {1.0, 0.2, 0.05, 0.01}) {
            const Duration shown = Duration(double(all.duration()) * zoom);
            for (const double at : {0.0, 0.37, 0.8}) {
                const Timestamp start = all.start + Timestamp(double(all.duration() - shown) * at);
                state.setVisible({start, start + shown}, HistoryMode::Skip);
                canvas.layOut();
                canvas.paintFrame();
                const DrawList& list = canvas.drawList();
                const VisibleRow& row = state.layout().rows()[size_t(state.layout().rowOfNode(allStreams))];
                INFO("zoom " << zoom << " at " << at);
                for (size_t l = 0; l < list.laneCount; ++l) {
                    const LaneDraw& lane = list.lanes[l];
                    if (lane.top < row.top - state.scrollY() || lane.top >= row.bottom() - state.scrollY())
                        continue;
                    overlapped = overlapped || boxesOverlap(lane, list.width);
                    labelled += checkLabels(painter.labels(list, lane), lane, canvas.frame(), list.width);
                }
            }
        }
        CHECK(overlapped);
        CHECK(labelled > 20);
    }
}
