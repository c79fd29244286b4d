// The Events View of a track too large to hold (views/pagedevents): its orders, computed from the
// report a batch at a time, are those the in-memory Events View computes over the whole report
// (exactly for a one-lane track; for a nested NVTX track, exactly by start and with the same
// values by duration and end); its name filter matches the same events; and the widget shows
// the same cells, reading the page under the table as it scrolls, refusing an order the memory
// budget cannot hold with a sentence.
#include "../../test_paths.h"
#include "generate.h"
#include "model/events/event_rows.h"
#include "model/events/parallel_key_sort.h"
#include "model/format/report_io.h"
#include "views/events/event_query.h"
#include "views/pagedevents/paged_events_view.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QLineEdit>
#include <QScrollBar>
#include <QTableView>
#include <QTest>
#include <catch2/catch.hpp>
#include <random>

using namespace sightline;
using namespace sightline::views;

namespace {

// A generated report in small batches, and its whole read.
struct PagedFixture
{
    std::string path;
    std::shared_ptr<const Trace> whole;
};

const PagedFixture& fixture()
{
    static const PagedFixture f = [] {
        gen::GeneratorOptions options;
        options.events = 150000;
        PagedFixture made;
        made.path = (test::processScratchDir("paged-events") / "paged.rep").string();
        WriteOptions write;
        write.eventsPerChunk = 4096;
        REQUIRE(writeReport(gen::generateTrace(options), made.path, write).ok());
        Result<Trace> read = readReport(made.path);
        REQUIRE(read);
        made.whole = std::make_shared<const Trace>(std::move(read.value()));
        return made;
    }();
    return f;
}

// The largest track with `lanes` lanes (1) or more than one (0).
uint32_t largestTrack(const Trace& trace, bool oneLane)
{
    uint32_t best = UINT32_MAX;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
        const Track& track = trace.tracks[t];
        if ((track.laneCount() == 1) != oneLane) continue;
        if (best == UINT32_MAX || track.size() > trace.tracks[best].size()) best = t;
    }
    REQUIRE(best != UINT32_MAX);
    return best;
}

OpenedTrack openPager(uint32_t track)
{
    Result<OpenedTrack> opened = TrackPager::open(fixture().path, track);
    REQUIRE(opened);
    return std::move(opened.value());
}

// What the in-memory Events View lists for the track: event indexes, which a whole read numbers
// as the stored indexes.
std::vector<uint32_t> inMemoryOrder(uint32_t track, const TrackOrderRequest& request)
{
    const Trace& whole = *fixture().whole;
    const EventCells cells(whole);
    const std::vector<EventRef> base = collectRows(whole, EventSource {{TrackId(track)}, {}, {}, {}, {}});
    const QueryOutcome outcome = runEventQuery(cells, base, {request.filter, request.column, request.order});
    REQUIRE(outcome.error.isEmpty());
    std::vector<uint32_t> rows;
    for (EventRef event : outcome.rows)
        rows.push_back(event.index);
    return rows;
}

TrackOrder pagedOrder(const OpenedTrack& opened, const TrackOrderRequest& request)
{
    const EventNames names(opened.structure);
    const std::atomic<bool> cancel {false};
    return orderTrackEvents(*opened.pager, names, request, cancel);
}

// A column's values along an order.
std::vector<int64_t> valuesAlong(uint32_t track, const std::vector<uint32_t>& rows, EventColumn column)
{
    const Track& t = fixture().whole->tracks[track];
    std::vector<int64_t> values;
    for (uint32_t i : rows)
        values.push_back(column == EventColumn::Duration ? t.duration(i)
                : column == EventColumn::End             ? t.events.end[i]
                                                         : t.events.start[i]);
    return values;
}

const std::vector<TrackOrderRequest>& everyOrder()
{
    static const std::vector<TrackOrderRequest> orders = [] {
        std::vector<TrackOrderRequest> all;
        for (EventColumn column : {EventColumn::Start, EventColumn::Duration, EventColumn::End})
            for (Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder})
                all.push_back({column, order, {}});
        return all;
    }();
    return orders;
}

bool waitFor(const std::function<bool()>& condition)
{
    return QTest::qWaitFor(condition, 60000);
}

} // namespace

TEST_CASE("a one-lane track ordered from the file lists exactly what the Events View lists")
{
    const uint32_t track = largestTrack(*fixture().whole, true);
    const OpenedTrack opened = openPager(track);
    REQUIRE(opened.pager->batchCount() > 3);
    for (const TrackOrderRequest& request : everyOrder()) {
        INFO("column " << int(request.column) << " order " << int(request.order));
        const TrackOrder paged = pagedOrder(opened, request);
        REQUIRE(paged.error.isEmpty());
        CHECK(paged.rows == inMemoryOrder(track, request));
    }

    // Filtered by a name the track holds, as a substring and as a regular expression.
    const Trace& whole = *fixture().whole;
    const QString name = QString::fromUtf8(whole.strings[whole.tracks[track].events.name[0]]);
    for (const NameFilter& filter : {NameFilter {name.mid(1, 6), false},
             NameFilter {QStringLiteral("^%1$").arg(QRegularExpression::escape(name)), true}}) {
        INFO(filter.pattern.toStdString());
        const TrackOrderRequest request {EventColumn::Duration, Qt::DescendingOrder, filter};
        const TrackOrder paged = pagedOrder(opened, request);
        const std::vector<uint32_t> expected = inMemoryOrder(track, request);
        CHECK(!expected.empty());
        CHECK(expected.size() < whole.tracks[track].size());
        CHECK(paged.rows == expected);
    }
    const TrackOrder broken
        = pagedOrder(opened, {EventColumn::Start, Qt::AscendingOrder, {QStringLiteral("(("), true}});
    CHECK(broken.rows.empty());
    CHECK_FALSE(broken.error.isEmpty());

    // A cancelled order says so and lists nothing.
    const EventNames names(opened.structure);
    const std::atomic<bool> cancelled {true};
    const TrackOrder stopped
        = orderTrackEvents(*opened.pager, names, {EventColumn::Duration, Qt::DescendingOrder, {}}, cancelled);
    CHECK(stopped.cancelled);
    CHECK(stopped.rows.empty());
}

TEST_CASE("a nested NVTX track ordered from the file merges its lanes as the Events View orders them")
{
    const uint32_t track = largestTrack(*fixture().whole, false);
    REQUIRE(fixture().whole->tracks[track].laneCount() > 1);
    const OpenedTrack opened = openPager(track);
    for (const TrackOrderRequest& request : everyOrder()) {
        INFO("column " << int(request.column) << " order " << int(request.order));
        const TrackOrder paged = pagedOrder(opened, request);
        const std::vector<uint32_t> expected = inMemoryOrder(track, request);
        REQUIRE(paged.rows.size() == expected.size());
        // The same events in the same order of values; equal values may come in another order
        // (track_event_order.h), except by start.
        CHECK(valuesAlong(track, paged.rows, request.column) == valuesAlong(track, expected, request.column));
        std::vector<uint32_t> sortedPaged = paged.rows, sortedExpected = expected;
        std::sort(sortedPaged.begin(), sortedPaged.end());
        std::sort(sortedExpected.begin(), sortedExpected.end());
        CHECK(sortedPaged == sortedExpected);
        if (request.column == EventColumn::Start) CHECK(paged.rows == expected);
    }
}

TEST_CASE("the Events View of a track from the file shows the report's cells, a page at a time")
{
    const Trace& whole = *fixture().whole;
    const uint32_t track = largestTrack(whole, true);
    const EventCells wholeCells(whole);
    PagedEventsView view(openPager(track), uint64_t(1) << 30);
    QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    view.resize(1200, 400);
    view.show();
    REQUIRE(waitFor([&] { return !view.isBusy() && view.listedCount() > 0 && view.showsPage(); }));
    CHECK(view.listedCount() == whole.tracks[track].size());
    CHECK(view.statusText().contains(QStringLiteral("by start")));

    // Each shown cell is the whole report's cell of the same event.
    const auto checkShownRows = [&] {
        const QTableView& table = *view.table();
        const int first = table.rowAt(0);
        const int last = table.rowAt(table.viewport()->height() - 1);
        REQUIRE(first >= 0);
        const int end = last < 0 ? int(view.listedCount()) : last + 1;
        size_t compared = 0;
        for (int row = first; row < end; ++row) {
            const EventRef event {TrackId(track), (*view.model()->rows())[view.model()->positionOf(row)]};
            for (EventColumn column :
                {EventColumn::Name, EventColumn::Start, EventColumn::Duration, EventColumn::Correlation}) {
                const QString shown = view.model()->index(row, int(column)).data().toString();
                CHECK(shown.toStdString() == wholeCells.display(event, column));
                ++compared;
            }
        }
        CHECK(compared > 10);
    };
    checkShownRows();

    // Clicking Duration lists the longest first, as the Events View does.
    QHeaderView* header = view.table()->horizontalHeader();
    const int durationX = header->sectionViewportPosition(int(EventColumn::Duration)) + 10;
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(durationX, header->height() / 2));
    REQUIRE(waitFor([&] {
        return !view.isBusy() && view.request().column == EventColumn::Duration && view.showsPage();
    }));
    CHECK(view.request().order == Qt::DescendingOrder);
    CHECK(*view.model()->rows() == inMemoryOrder(track, {EventColumn::Duration, Qt::DescendingOrder, {}}));
    CHECK(view.statusText().contains(QStringLiteral("longest first")));
    checkShownRows();

    // Scrolled to the end, the last page is read.
    view.scrollToPosition(view.listedCount() - 1);
    REQUIRE(waitFor([&] { return view.showsPage(); }));
    CHECK(view.shownPositions().second == view.listedCount() - 1);
    checkShownRows();

    // The table holds a window of the listing: its own scrolling moves the window along, the
    // scroll bar beside it spans the listing.
    view.model()->setWindowSize(5000);
    view.scrollToPosition(0);
    REQUIRE(view.model()->windowFirst() == 0);
    const int nearEnd = view.model()->rowCount() - 5;
    view.table()->verticalScrollBar()->setValue(nearEnd);
    CHECK(view.model()->windowFirst() > 0);
    CHECK(view.shownPositions().first == size_t(nearEnd));
    auto* listingBar = view.findChild<QScrollBar*>(QStringLiteral("pagedEventsScroll"));
    REQUIRE(listingBar);
    CHECK(listingBar->value() == nearEnd);
    CHECK(size_t(listingBar->maximum()) + size_t(listingBar->pageStep()) >= view.listedCount());
    REQUIRE(waitFor([&] { return view.showsPage(); }));
    checkShownRows();
    listingBar->setValue(int(view.listedCount() / 2));
    CHECK(view.shownPositions().first == view.listedCount() / 2);
    REQUIRE(waitFor([&] { return view.showsPage(); }));
    checkShownRows();
    view.model()->setWindowSize(PagedEventsModel::kWindowSize);
    view.scrollToPosition(0);

    // A column a file's track cannot be ordered by says so and keeps the order.
    const int nameX = header->sectionViewportPosition(int(EventColumn::Name)) + 10;
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(nameX, header->height() / 2));
    CHECK(view.request().column == EventColumn::Duration);
    CHECK(view.statusText().contains(QStringLiteral("Start, Duration or End only")));

    // Typing a filter lists the matching events.
    const QString name = QString::fromUtf8(whole.strings[whole.tracks[track].events.name[0]]);
    QTest::keyClicks(view.filterEdit(), name);
    REQUIRE(
        waitFor([&] { return !view.isBusy() && view.request().filter.pattern == name && view.showsPage(); }));
    CHECK(*view.model()->rows()
        == inMemoryOrder(track, {EventColumn::Duration, Qt::DescendingOrder, {name, false}}));
    CHECK(view.statusText().contains(QStringLiteral("match")));
    checkShownRows();
}

TEST_CASE("keys sorted on several cores come out as one core sorts them")
{
    std::mt19937_64 random(11);
    std::vector<uint64_t> keys(700000);
    // Skewed like durations, with repeats, and a run of equal keys.
    for (size_t i = 0; i < keys.size(); ++i)
        keys[i] = i % 97 == 0 ? 42 : (random() >> (random() % 60));
    std::vector<uint64_t> expected = keys;
    std::sort(expected.begin(), expected.end());
    for (unsigned threads : {1u, 2u, 7u}) {
        INFO(threads << " threads");
        std::vector<uint64_t> sorted = keys;
        REQUIRE(sortKeysInParallel(sorted, nullptr, threads));
        CHECK(sorted == expected);
    }
    std::vector<uint64_t> stopped = keys;
    const std::atomic<bool> cancel {true};
    CHECK_FALSE(sortKeysInParallel(stopped, &cancel, 4));
}

TEST_CASE("an order the memory budget cannot hold is refused with a sentence")
{
    const uint32_t track = largestTrack(*fixture().whole, true);
    PagedEventsView view(openPager(track), 4096);
    QTest::qWait(50);
    CHECK_FALSE(view.isBusy());
    CHECK(view.listedCount() == 0);
    CHECK(view.statusText().contains(QStringLiteral("more than the viewer's budget")));
    CHECK(view.statusText().contains(QStringLiteral("--memory-budget")));
}
