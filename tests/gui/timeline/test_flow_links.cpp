// Flow links on the timeline: selecting the slice a flow starts from outlines the slice it ends
// at (and the other way round), with a connector that ends in an arrowhead at the destination.
#include "tests/test_paths.h"
#include "timeline_widget_fixture.h"
#include "views/timeline/frame/event_style.h"
#include "views/timeline/interaction/correlated_events.h"
#include "views/timeline/interaction/event_geometry.h"
#include "views/timeline/interaction/navigation.h"
#include "views/timeline/widgets/timeline_canvas.h"
#include "views/timeline/widgets/timeline_view.h"

#include <QApplication>
#include <QTest>
#include <algorithm>
#include <catch2/catch.hpp>

using namespace sightline;

namespace {

// Two threads of a generic Chrome trace: "produce" on thread 1 hands over to "consume" on
// thread 2 through one flow.
constexpr const char* kHandoff = R"JSON({"traceEvents":[
{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"producer"}},
{"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"consumer"}},
{"ph":"X","cat":"work","name":"produce","pid":1,"tid":1,"ts":0,"dur":40},
{"ph":"X","cat":"work","name":"pack","pid":1,"tid":1,"ts":5,"dur":20},
{"ph":"X","cat":"work","name":"consume","pid":1,"tid":2,"ts":60,"dur":40},
{"ph":"s","cat":"queue","name":"batch","id":1,"pid":1,"tid":1,"ts":10},
{"ph":"f","cat":"queue","name":"batch","id":1,"pid":1,"tid":2,"ts":60,"bp":"e"}
]}
)JSON";

int pixelsOf(const QImage& image, const QRect& area, QRgb color)
{
    int n = 0;
    const QRect clipped = area.intersected(image.rect());
    for (int y = clipped.top(); y <= clipped.bottom(); ++y)
        for (int x = clipped.left(); x <= clipped.right(); ++x)
            n += (image.pixel(x, y) & 0xffffff) == (color & 0xffffff);
    return n;
}

} // namespace

TEST_CASE("Selecting a flow's source slice highlights its destination, and the other way round")
{
    const std::shared_ptr<const Trace> trace = testing::importedChromeTrace("gui-flow-links", kHandoff);
    REQUIRE(trace->flows.size() == 1);
    const EventRef source = trace->flows[0].from, destination = trace->flows[0].to;
    CHECK(trace->strings[trace->track(source.track).events.name[source.index]] == "pack");
    CHECK(trace->strings[trace->track(destination.track).events.name[destination.index]] == "consume");

    views::TimelineView view(trace);
    view.resize(1000, 420);
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    view.setAllRowsExpanded(true);
    view.setVisibleRange(views::framing(trace->span, 1.2));
    QApplication::processEvents();
    view.canvas()->repaint();

    const auto sourcePlace = views::primaryPlacement(view.state(), source);
    REQUIRE(sourcePlace);
    QTest::mouseClick(view.canvas(), Qt::LeftButton, {}, sourcePlace->rect.center().toPoint());
    REQUIRE(view.selectedEvent() == source);
    const std::vector<EventRef>& correlated = view.state().correlated();
    CHECK(std::find(correlated.begin(), correlated.end(), destination) != correlated.end());
    CHECK(view.state().isHighlighted(destination));
    CHECK(views::flowRuns(*trace, source, destination));
    CHECK_FALSE(views::flowRuns(*trace, destination, source));

    // The destination is outlined in the highlight colour.
    view.canvas()->repaint();
    const QImage image = view.canvas()->grab().toImage();
    image.save(QString::fromStdString((test::scratchDir("gui-flow-links-shot") / "flow.png").string()));
    const QRgb teal = views::canvasColors(view.canvas()->palette()).highlight;
    const auto destinationPlace = views::primaryPlacement(view.state(), destination);
    REQUIRE(destinationPlace);
    CHECK(pixelsOf(image, destinationPlace->rect.toAlignedRect().adjusted(-3, -3, 3, 3), teal) > 10);

    // Selecting the destination brings the source back.
    view.selectEvent(destination);
    CHECK(view.state().isHighlighted(source));
}
