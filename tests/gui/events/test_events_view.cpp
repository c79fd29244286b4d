// The Events View widget with QTest input: a header click sorts (duration longest first in one
// click), typing in the filter box narrows the list, queries run off the GUI thread and the
// newest one wins, and the table model passes QAbstractItemModelTester throughout.
#include "events_test_support.h"
#include "timeline_fixture.h"
#include "views/events/events_table_model.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <catch2/catch.hpp>
#include <set>
#include <tuple>

using namespace sightline;
using namespace sightline::testing;
using namespace sightline::views;

namespace {

struct ViewFixture
{
    std::shared_ptr<const Trace> trace = generatedTrace();
    EventsView view {trace};
    QAbstractItemModelTester tester {view.model(), QAbstractItemModelTester::FailureReportingMode::Fatal};

    ViewFixture()
    {
        view.resize(1400, 600);
        view.show();
    }
    void showKind(TrackKind kind)
    {
        view.showEvents(tracksOfKind(*trace, kind));
        REQUIRE(waitUntilIdle(view));
    }
    EventRef rowEvent(int row) const { return view.model()->eventAt(row); }
    void clickHeader(EventColumn column)
    {
        QHeaderView* header = view.table()->horizontalHeader();
        const int x = header->sectionViewportPosition(int(column)) + header->sectionSize(int(column)) / 2;
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
    }
};

} // namespace

TEST_CASE("Show in Events View lists the events of the rows in start order, with the columns of their kinds")
{
    ViewFixture f;
    f.showKind(TrackKind::Kernels);
    const auto expected = allEventsOf(*f.trace, tracksOfKind(*f.trace, TrackKind::Kernels));
    REQUIRE(f.view.listedCount() == expected.size());
    REQUIRE(f.view.model()->rowCount() == int(expected.size()));
    for (int r = 1; r < 200; ++r)
        REQUIRE(f.trace->track(f.rowEvent(r - 1).track).events.start[f.rowEvent(r - 1).index]
            <= f.trace->track(f.rowEvent(r).track).events.start[f.rowEvent(r).index]);

    const auto columns = f.view.visibleColumns();
    auto shown = [&](EventColumn c) { return std::find(columns.begin(), columns.end(), c) != columns.end(); };
    CHECK(shown(EventColumn::Grid));
    CHECK(shown(EventColumn::Registers));
    CHECK_FALSE(shown(EventColumn::Bytes)); // memory only
    CHECK_FALSE(shown(EventColumn::Domain)); // NVTX only
    // A kernel's cells come from its launch descriptor.
    const EventRef first = f.rowEvent(0);
    const KernelLaunch& launch
        = f.trace->kernelLaunches[f.trace->track(first.track).events.detail[first.index]];
    const QString grid = f.view.model()->index(0, int(EventColumn::Grid)).data().toString();
    CHECK(grid == QStringLiteral("(%1, %2, %3)").arg(launch.grid[0]).arg(launch.grid[1]).arg(launch.grid[2]));
    CHECK(f.view.statusText().contains(
        QStringLiteral("%1 events").arg(QLocale(QLocale::English).toString(qulonglong(expected.size())))));
}

TEST_CASE("one click on the Duration header puts the longest event first")
{
    ViewFixture f;
    f.showKind(TrackKind::Memory);
    f.clickHeader(EventColumn::Duration);
    REQUIRE(waitUntilIdle(f.view));
    CHECK(f.view.query().sortColumn == EventColumn::Duration);
    CHECK(f.view.query().order == Qt::DescendingOrder);
    CHECK(f.view.table()->horizontalHeader()->sortIndicatorSection() == int(EventColumn::Duration));

    Duration longest = 0;
    for (const EventRef& e : allEventsOf(*f.trace, tracksOfKind(*f.trace, TrackKind::Memory)))
        longest = std::max(longest, f.trace->track(e.track).duration(e.index));
    const EventRef top = f.rowEvent(0);
    CHECK(f.trace->track(top.track).duration(top.index) == longest);

    // A second click reverses the order: the shortest first.
    f.clickHeader(EventColumn::Duration);
    REQUIRE(waitUntilIdle(f.view));
    CHECK(f.view.query().order == Qt::AscendingOrder);
    const EventRef bottom = f.rowEvent(0);
    const EventRef last = f.rowEvent(f.view.model()->rowCount() - 1);
    CHECK(f.trace->track(bottom.track).duration(bottom.index)
        <= f.trace->track(last.track).duration(last.index));
}

TEST_CASE("typing in the filter box narrows the list to matching names once typing pauses")
{
    ViewFixture f;
    f.showKind(TrackKind::CudaApi);
    const size_t all = f.view.listedCount();
    QTest::keyClicks(f.view.filterEdit(), QStringLiteral("memcpy"));
    // Nothing changes while the user is still typing.
    CHECK(f.view.listedCount() == all);
    REQUIRE(QTest::qWaitFor([&] { return f.view.listedCount() != all && !f.view.isBusy(); }, 30000));

    size_t expected = 0;
    for (const EventRef& e : allEventsOf(*f.trace, tracksOfKind(*f.trace, TrackKind::CudaApi)))
        expected += containsCaseless(nameOf(*f.trace, e), "memcpy") ? 1 : 0;
    REQUIRE(expected > 0);
    CHECK(f.view.listedCount() == expected);
    for (int r = 0; r < f.view.model()->rowCount(); ++r)
        REQUIRE(containsCaseless(nameOf(*f.trace, f.rowEvent(r)), "memcpy"));
    CHECK(f.view.statusText().contains(QStringLiteral("match")));

    // A broken regular expression keeps the list and says what is wrong.
    f.view.setNameFilter(QStringLiteral("memcpy("), true);
    REQUIRE(waitUntilIdle(f.view));
    CHECK(f.view.listedCount() == expected);
    CHECK(f.view.statusText().contains(QStringLiteral("regular expression")));

    // Clearing the filter lists everything again.
    f.view.setNameFilter(QString(), false);
    REQUIRE(waitUntilIdle(f.view));
    CHECK(f.view.listedCount() == all);
}

TEST_CASE("sorting runs off the GUI thread: the table keeps its rows until the newest query is done")
{
    auto trace = generatedTrace(400000);
    EventsView view(trace);
    QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    std::vector<TrackId> tracks;
    for (uint32_t t = 0; t < trace->tracks.size(); ++t)
        tracks.push_back(TrackId(t));
    view.showEvents(tracks);
    REQUIRE(waitUntilIdle(view));
    const auto before = view.model()->rows();
    QSignalSpy shown(&view, &EventsView::rowsShown);

    view.sortBy(EventColumn::Duration, Qt::DescendingOrder);
    CHECK(view.isBusy());
    CHECK(view.model()->rows() == before); // still the old rows, the GUI thread was not held
    view.sortBy(EventColumn::Name, Qt::AscendingOrder); // the newest request wins
    REQUIRE(waitUntilIdle(view));
    CHECK(shown.count() == 1);
    CHECK(view.query().sortColumn == EventColumn::Name);
    const auto& rows = *view.model()->rows();
    REQUIRE(rows.size() == before->size());
    for (size_t r = 1; r < 2000; ++r)
        REQUIRE(QString::fromStdString(nameOf(*trace, rows[r - 1]))
                    .compare(QString::fromStdString(nameOf(*trace, rows[r])), Qt::CaseInsensitive)
            <= 0);
}

TEST_CASE("showing a time range lists only the events overlapping it")
{
    ViewFixture f;
    const TimeRange range {f.trace->span.start + f.trace->span.duration() / 4,
        f.trace->span.start + f.trace->span.duration() / 4 + 5000000};
    const auto tracks = tracksOfKind(*f.trace, TrackKind::Kernels);
    f.view.showEvents(tracks, range);
    REQUIRE(waitUntilIdle(f.view));
    size_t expected = 0;
    for (const EventRef& e : allEventsOf(*f.trace, tracks)) {
        const Track& t = f.trace->track(e.track);
        expected += overlaps(t.events.start[e.index], t.events.end[e.index], range) ? 1 : 0;
    }
    REQUIRE(expected > 0);
    CHECK(f.view.listedCount() == expected);
}

TEST_CASE("the title counts the streams and threads shown, not their tracks")
{
    ViewFixture f;
    std::vector<TrackId> gpuTracks;
    std::set<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>> streams;
    for (TrackKind kind : {TrackKind::Kernels, TrackKind::Memory, TrackKind::Synchronization})
        for (TrackId id : tracksOfKind(*f.trace, kind)) {
            gpuTracks.push_back(id);
            const TrackKey& key = f.trace->track(id).key;
            streams.insert({key.pid.value, key.device.value, key.context.value, key.stream.value});
        }
    REQUIRE(gpuTracks.size() > streams.size()); // several kinds share a stream
    f.view.showEvents(gpuTracks);
    REQUIRE(waitUntilIdle(f.view));
    const auto* title = f.view.findChild<QLabel*>(QStringLiteral("eventsViewTitle"));
    REQUIRE(title != nullptr);
    INFO(title->text().toStdString());
    CHECK(title->text().contains(QStringLiteral("\u00b7 %1 streams").arg(streams.size())));
}
