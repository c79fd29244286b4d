// The Events View beside a TimelineView, wired the way the shell wires them: selecting a row
// moves the timeline to that event (selected and centred), a double-click zooms the timeline
// to it, and selecting an event on the timeline selects its row.
#include "events_test_support.h"
#include "timeline_fixture.h"
#include "views/events/events_table_model.h"
#include "views/timeline/interaction/navigation.h"
#include "views/timeline/widgets/timeline_view.h"

#include <QSplitter>
#include <QTableView>
#include <QTest>
#include <catch2/catch.hpp>

using namespace sightline;
using namespace sightline::testing;
using namespace sightline::views;

namespace {

struct TimelineWithEvents
{
    std::shared_ptr<const Trace> trace = generatedTrace();
    QSplitter window {Qt::Vertical};
    TimelineView* timeline = new TimelineView(trace);
    EventsView* events = new EventsView(trace);

    TimelineWithEvents()
    {
        window.addWidget(timeline);
        window.addWidget(events);
        window.resize(1400, 1000);
        // The shell's connections (see events_view.h).
        QObject::connect(events, &EventsView::eventSelected, timeline,
            [this](EventRef e) { timeline->selectEvent(e, true); });
        QObject::connect(timeline, &TimelineView::eventSelected, events, &EventsView::selectEvent);
        QObject::connect(events, &EventsView::zoomToEventRequested, timeline, [this](EventRef e) {
            const TimeRange range = eventRange(*trace, e);
            const Duration margin = std::max<Duration>(range.duration() / 10, 1);
            timeline->selectEvent(e, false);
            timeline->setVisibleRange({range.start - margin, range.end + margin});
        });
        window.show();
        REQUIRE(QTest::qWaitForWindowExposed(&window));
    }
};

} // namespace

TEST_CASE("selecting a row in the Events View selects and centres that event on the timeline")
{
    TimelineWithEvents w;
    w.events->showEvents(tracksOfKind(*w.trace, TrackKind::Kernels));
    REQUIRE(waitUntilIdle(*w.events));
    // Zoom the timeline far from the kernel we are going to pick.
    const int row = w.events->model()->rowCount() - 10;
    const EventRef kernel = w.events->model()->eventAt(row);
    const TimeRange kernelRange = eventRange(*w.trace, kernel);
    w.timeline->setVisibleRange({w.trace->span.start, w.trace->span.start + 200000});
    REQUIRE_FALSE(w.timeline->visibleRange().contains(kernelRange.start));

    QTableView* table = w.events->table();
    table->scrollTo(w.events->model()->index(row, 0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
        table->visualRect(w.events->model()->index(row, int(EventColumn::Duration))).center());
    CHECK(w.timeline->selectedEvent() == kernel);
    const TimeRange visible = w.timeline->visibleRange();
    CHECK(visible.start <= kernelRange.start);
    CHECK(visible.end >= kernelRange.end);

    // A double-click (the second click of a pair) zooms the timeline to the event.
    QTest::mouseDClick(table->viewport(), Qt::LeftButton, {},
        table->visualRect(w.events->model()->index(row, int(EventColumn::Name))).center());
    const TimeRange zoomed = w.timeline->visibleRange();
    CHECK(zoomed.start <= kernelRange.start);
    CHECK(zoomed.end >= kernelRange.end);
    CHECK(zoomed.duration() <= kernelRange.duration() * 2);
}

TEST_CASE("selecting an event on the timeline selects its row in the Events View")
{
    TimelineWithEvents w;
    w.events->showEvents(tracksOfKind(*w.trace, TrackKind::Kernels));
    REQUIRE(waitUntilIdle(*w.events));
    const EventRef kernel = w.events->model()->eventAt(1234);
    w.timeline->selectEvent(kernel, true);
    CHECK(w.events->table()->currentIndex().row() == 1234);
    CHECK(w.events->table()->selectionModel()->isRowSelected(1234, {}));
}
