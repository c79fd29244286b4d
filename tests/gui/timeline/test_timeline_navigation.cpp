// Navigating the timeline with real input: drag-select and Shift+Z, Ctrl+wheel zoom around
// the cursor, the zoom history, scrolling, and collapsing rows from the row tree.
#include "model/text/time_text.h"
#include "timeline_widget_fixture.h"
#include "views/timeline/widgets/row_header_pane.h"

#include <QLabel>
#include <catch2/catch.hpp>

using namespace sightline;
using namespace sightline::testing;

TEST_CASE("Drag-selecting then Shift+Z makes the visible range equal the selection")
{
    ShownTimeline t;
    auto& canvas = t.canvas();
    const views::TimeScale before = t.state().scale();
    const QPoint from(220, 60), to(760, 140);
    QTest::mousePress(&canvas, Qt::LeftButton, {}, from);
    QTest::mouseMove(&canvas, QPoint(400, 90));
    QTest::mouseMove(&canvas, to);
    QTest::mouseRelease(&canvas, Qt::LeftButton, {}, to);
    const std::optional<TimeRange> selection = t.view.selection();
    REQUIRE(selection);
    CHECK(selection->start == before.xToTime(from.x()));
    CHECK(selection->end == before.xToTime(to.x()));
    CHECK(t.view.visibleRange() == before.visible());
    // The duration is shown while the range is selected.
    const auto* corner = t.view.findChild<QLabel*>(QStringLiteral("timelineCorner"));
    REQUIRE(corner);
    CHECK(corner->text().contains(QString::fromStdString(formatDuration(selection->duration()))));

    QTest::keyClick(&canvas, Qt::Key_Z, Qt::ShiftModifier);
    CHECK(t.view.visibleRange() == *selection);
}

TEST_CASE("Ctrl+wheel zooms around the cursor: the time under it stays fixed")
{
    ShownTimeline t;
    for (const int x : {130, 517, 900}) {
        const QPoint at(x, 200);
        const Timestamp under = t.state().scale().xToTime(at.x());
        const Duration duration = t.view.visibleRange().duration();
        t.wheel(at, 120, Qt::ControlModifier);
        INFO("x " << x);
        CHECK(std::llabs(t.state().scale().xToTime(at.x()) - under) <= 1);
        CHECK(double(t.view.visibleRange().duration()) == Approx(duration / 1.25).epsilon(1e-6));
        t.wheel(at, 360, Qt::ControlModifier);
        CHECK(std::llabs(t.state().scale().xToTime(at.x()) - under) <= 1);
    }
    // Zooming out again keeps the anchor too while the window stays inside the trace.
    const QPoint at(600, 200);
    const Timestamp under = t.state().scale().xToTime(at.x());
    t.wheel(at, -120, Qt::ControlModifier);
    CHECK(std::llabs(t.state().scale().xToTime(at.x()) - under) <= 1);
}

TEST_CASE("Back restores the previous range and forward returns")
{
    ShownTimeline t;
    const TimeRange whole = t.view.visibleRange();
    const TimeRange first {whole.start + whole.duration() / 4, whole.start + whole.duration() / 2};
    t.view.setVisibleRange(first);
    CHECK(t.view.visibleRange() == first);
    t.wheel(QPoint(300, 100), 240, Qt::ControlModifier); // one gesture, two notches
    t.wheel(QPoint(300, 100), 120, Qt::ControlModifier);
    const TimeRange zoomed = t.view.visibleRange();
    CHECK(zoomed.duration() < first.duration());

    QTest::keyClick(&t.canvas(), Qt::Key_Backspace);
    CHECK(t.view.visibleRange() == first);
    QTest::keyClick(&t.canvas(), Qt::Key_Left, Qt::AltModifier);
    CHECK(t.view.visibleRange() == whole);
    QTest::keyClick(&t.canvas(), Qt::Key_Backspace, Qt::ShiftModifier);
    CHECK(t.view.visibleRange() == first);
    QTest::keyClick(&t.canvas(), Qt::Key_Right, Qt::AltModifier);
    CHECK(t.view.visibleRange() == zoomed);
    QTest::keyClick(&t.canvas(), Qt::Key_Home);
    CHECK(t.view.visibleRange() == whole);
    QTest::keyClick(&t.canvas(), Qt::Key_Backspace);
    CHECK(t.view.visibleRange() == zoomed);
}

TEST_CASE("Keys zoom, pan and scroll; the wheel scrolls rows and Shift+wheel pans")
{
    ShownTimeline t;
    const TimeRange whole = t.view.visibleRange();
    QTest::keyClick(&t.canvas(), Qt::Key_Plus);
    const TimeRange in = t.view.visibleRange();
    CHECK(in.duration() < whole.duration());
    QTest::keyClick(&t.canvas(), Qt::Key_Right);
    CHECK(t.view.visibleRange().start > in.start);
    CHECK(t.view.visibleRange().duration() == in.duration());
    const TimeRange panned = t.view.visibleRange();
    t.wheel(QPoint(400, 300), -120, Qt::ShiftModifier);
    CHECK(t.view.visibleRange().start > panned.start);
    QTest::keyClick(&t.canvas(), Qt::Key_Minus);
    CHECK(t.view.visibleRange().duration() > in.duration());

    t.view.setAllRowsExpanded(true);
    t.settle();
    REQUIRE(t.state().maxScrollY() > 0);
    t.wheel(QPoint(400, 300), -120, Qt::NoModifier);
    CHECK(t.state().scrollY() == 3 * t.state().laneHeight());
    QTest::keyClick(&t.canvas(), Qt::Key_PageDown);
    CHECK(t.state().scrollY()
        == std::min(t.state().maxScrollY(), 3 * t.state().laneHeight() + t.state().viewportHeight()));
}

TEST_CASE("Collapsing a row hides its children; expanding shows them again")
{
    ShownTimeline t;
    const views::RowTree& rows = t.state().rows();
    int thread = -1;
    for (size_t n = 0; n < rows.size() && thread < 0; ++n)
        if (rows.node(int(n)).kind == views::RowKind::Thread && rows.node(int(n)).expanded) thread = int(n);
    REQUIRE(thread >= 0);
    const views::VisibleRow& row = t.state().layout().rows()[size_t(t.state().layout().rowOfNode(thread))];
    t.state().ensureVisible(row.top, row.bottom());
    t.settle();
    auto* headers = t.view.rowHeaders();
    const QRect triangle = headers->disclosureRect(thread);
    REQUIRE_FALSE(triangle.isEmpty());
    const std::vector<int> children = rows.node(thread).children;
    for (int child : children)
        CHECK(t.state().layout().rowOfNode(child) >= 0);

    QTest::mouseClick(headers, Qt::LeftButton, {}, triangle.center());
    CHECK_FALSE(rows.node(thread).expanded);
    for (int child : children)
        CHECK(t.state().layout().rowOfNode(child) == -1);
    // The canvas draws the collapsed thread as one summary row and none of its children.
    t.settle();
    bool threadDrawn = false;
    for (const views::DrawRow& drawn : t.canvas().drawList().rows) {
        CHECK(std::find(children.begin(), children.end(), drawn.node) == children.end());
        if (drawn.node == thread) {
            threadDrawn = true;
            CHECK(drawn.content == views::RowContent::Utilization);
        }
    }
    CHECK(threadDrawn);

    QTest::mouseDClick(headers, Qt::LeftButton, {}, headers->labelRect(thread).center());
    CHECK(rows.node(thread).expanded);
    for (int child : children)
        CHECK(t.state().layout().rowOfNode(child) >= 0);
}

TEST_CASE("Dragging the ruler pans by the distance dragged")
{
    ShownTimeline t;
    const TimeRange whole = t.view.visibleRange();
    const TimeRange middle {whole.start + whole.duration() / 3, whole.start + whole.duration() / 2};
    t.view.setVisibleRange(middle);
    auto* ruler = t.view.findChild<QWidget*>(QStringLiteral("timelineRuler"));
    REQUIRE(ruler);
    const double nsPerPixel = t.state().scale().nanosecondsPerPixel();
    QTest::mousePress(ruler, Qt::LeftButton, {}, QPoint(600, 10));
    QTest::mouseMove(ruler, QPoint(450, 12));
    QTest::mouseMove(ruler, QPoint(400, 12));
    QTest::mouseRelease(ruler, Qt::LeftButton, {}, QPoint(400, 12));
    const TimeRange panned = t.view.visibleRange();
    CHECK(panned.duration() == middle.duration());
    CHECK(double(panned.start - middle.start) == Approx(200 * nsPerPixel).margin(1));
    // One drag is one step back in the history.
    t.view.zoomBack();
    CHECK(t.view.visibleRange() == middle);
}
