// A report tab's three views wired together in the real main window (issue 5, the app path):
// a row's context menu > Show in Events View lists that row's and its sub-rows' events (within
// the timeline's selection), the Events View sorts longest first, filters as you type and moves
// the timeline to the selected row; the timeline's selection scopes the Analysis Summary, whose
// stats rows list their events under the timeline; the view selector and the Events View button
// switch views and panes, and a reload keeps them.
#include "app/ui/report/report_tab.h"
#include "app/ui/shell/main_window.h"
#include "events_test_support.h"
#include "model/stats/stats_engine.h"
#include "shell_test_support.h"
#include "summary_test_support.h"
#include "views/events/events_table_model.h"
#include "views/summary/stats_panel.h"
#include "views/timeline/interaction/navigation.h"
#include "views/timeline/widgets/row_header_pane.h"
#include "views/timeline/widgets/timeline_canvas.h"
#include "views/timeline/widgets/timeline_view.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QTableView>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <catch2/catch.hpp>

using namespace sightline;
using namespace sightline::testing;
using sightline::test::waitUntil;
using views::EventColumn;
using views::RowKind;

namespace {

struct OpenReport
{
    ui::MainWindow window {ui::MainWindow::Options {.persistState = false}};
    ui::ReportTab* tab = nullptr;

    explicit OpenReport(const std::string& testName)
    {
        test::guiApp();
        const QString path = test::writeGeneratedReport(test::guiScratch(testName), "views.rep", 20000);
        window.resize(1400, 1000);
        window.show();
        REQUIRE(QTest::qWaitForWindowExposed(&window));
        tab = window.openReport(path);
        REQUIRE(waitUntil([this] { return !tab->isLoading() && tab->timeline() != nullptr; }));
    }

    const Trace& trace() const { return tab->timeline()->trace(); }
    views::TimelineView& timeline() const { return *tab->timeline(); }
    views::EventsView& events() const { return *tab->eventsView(); }
    const views::RowTree& rows() const { return timeline().state().rows(); }

    int firstRowOfKind(RowKind kind) const
    {
        for (size_t n = 0; n < rows().size(); ++n)
            if (rows().node(int(n)).kind == kind) return int(n);
        return -1;
    }
};

// The events of `tracks` overlapping `range` (all of them without one), counted one by one.
size_t countOverlapping(
    const Trace& trace, const std::vector<TrackId>& tracks, std::optional<TimeRange> range)
{
    size_t count = 0;
    for (const EventRef e : allEventsOf(trace, tracks)) {
        const TimeRange r = views::eventRange(trace, e);
        count += !range || (r.start < range->end && r.end > range->start);
    }
    return count;
}

Duration durationOf(const Trace& trace, EventRef e)
{
    return trace.track(e.track).duration(e.index);
}

QPoint headerPoint(const QHeaderView& header, EventColumn column)
{
    const int section = int(column);
    return {header.sectionViewportPosition(section) + header.sectionSize(section) / 2, header.height() / 2};
}

// Every stats report shown equals the stats engine's over the same range, row by row.
void requireSameReports(
    const char* scope, const std::vector<StatsReport>& shown, const std::vector<StatsReport>& expected)
{
    INFO(scope);
    REQUIRE(shown.size() == expected.size());
    for (size_t i = 0; i < shown.size(); ++i) {
        INFO(std::string(statsReportInfo(expected[i].id).name));
        REQUIRE(shown[i].rows.size() == expected[i].rows.size());
        for (size_t r = 0; r < shown[i].rows.size(); ++r) {
            REQUIRE(shown[i].rows[r].name == expected[i].rows[r].name);
            REQUIRE(shown[i].rows[r].values == expected[i].rows[r].values);
        }
    }
}

} // namespace

TEST_CASE("Show in Events View on a row lists the events of the row and of all its sub-rows")
{
    OpenReport r("show-in-events");
    QAbstractItemModelTester tester(
        r.events().model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    const int gpuRow = r.rows().roots().front();
    REQUIRE(r.rows().node(gpuRow).kind == RowKind::Gpu);
    const DeviceId device = r.trace().track(r.rows().node(gpuRow).tracks.front()).key.device;
    std::vector<TrackId> expected;
    bool hasSynchronization = false;
    for (uint32_t t = 0; t < r.trace().tracks.size(); ++t) {
        const Track& track = r.trace().tracks[t];
        if (isGpuKind(track.key.kind) && track.key.device == device && track.size() > 0) {
            expected.push_back(TrackId(t));
            hasSynchronization = hasSynchronization || track.key.kind == TrackKind::Synchronization;
        }
    }
    // The GPU row itself summarises kernels and memory; synchronization only comes from below.
    REQUIRE(hasSynchronization);
    CHECK_FALSE(r.tab->isEventsPaneShown());

    REQUIRE(chooseFromRowMenu(*r.timeline().rowHeaders(), gpuRow, QStringLiteral("Show in Events View")));
    CHECK(r.tab->isEventsPaneShown());
    CHECK(r.events().isVisible());
    CHECK(r.tab->currentView() == ui::ReportView::Timeline);
    REQUIRE(waitUntilIdle(r.events()));
    CHECK(r.events().source().tracks == expected);
    CHECK_FALSE(r.events().source().range.has_value());
    CHECK(r.events().listedCount() == countOverlapping(r.trace(), expected, std::nullopt));
    for (int row = 0; row < r.events().model()->rowCount(); row += 97)
        REQUIRE(std::binary_search(expected.begin(), expected.end(), r.events().model()->eventAt(row).track));

    SECTION("with a selection on the timeline, only the events overlapping it")
    {
        const TimeRange span = r.trace().span;
        const TimeRange selection {span.start + span.duration() / 3, span.start + span.duration() / 2};
        r.timeline().setSelection(selection);
        const int streamRow = r.firstRowOfKind(RowKind::Stream);
        REQUIRE(streamRow >= 0);
        const std::vector<TrackId> streamTracks = r.rows().tracksBelow(streamRow);
        REQUIRE(streamTracks.size() >= 2); // kernels and memory (and synchronization) of one stream

        REQUIRE(
            chooseFromRowMenu(*r.timeline().rowHeaders(), streamRow, QStringLiteral("Show in Events View")));
        REQUIRE(waitUntilIdle(r.events()));
        CHECK(r.events().source().tracks == streamTracks);
        CHECK(r.events().source().range == selection);
        const size_t inSelection = countOverlapping(r.trace(), streamTracks, selection);
        CHECK(inSelection > 0);
        CHECK(inSelection < countOverlapping(r.trace(), streamTracks, std::nullopt));
        CHECK(r.events().listedCount() == inSelection);
    }
}

TEST_CASE("In the Events View under the timeline, sorting, filtering and selecting rows work end to end")
{
    OpenReport r("events-under-timeline");
    QAbstractItemModelTester tester(
        r.events().model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    REQUIRE(chooseFromRowMenu(
        *r.timeline().rowHeaders(), r.rows().roots().front(), QStringLiteral("Show in Events View")));
    REQUIRE(waitUntilIdle(r.events()));
    views::EventsView& events = r.events();
    views::EventsTableModel& model = *events.model();
    const std::vector<TrackId> tracks = events.source().tracks;

    // One click on the Duration header: longest first.
    QHeaderView& header = *events.table()->horizontalHeader();
    QTest::mouseClick(header.viewport(), Qt::LeftButton, {}, headerPoint(header, EventColumn::Duration));
    REQUIRE(waitUntilIdle(events));
    CHECK(events.query().sortColumn == EventColumn::Duration);
    CHECK(events.query().order == Qt::DescendingOrder);
    Duration longest = 0;
    for (const EventRef e : allEventsOf(r.trace(), tracks))
        longest = std::max(longest, durationOf(r.trace(), e));
    REQUIRE(model.rowCount() > 100);
    CHECK(durationOf(r.trace(), model.eventAt(0)) == longest);
    for (int row = 1; row < model.rowCount(); ++row)
        REQUIRE(durationOf(r.trace(), model.eventAt(row - 1)) >= durationOf(r.trace(), model.eventAt(row)));

    // Typing in the filter box narrows the list to the names containing the text (any case).
    const std::string kernelName = nameOf(r.trace(), model.eventAt(model.rowCount() / 2));
    const std::string pattern = kernelName.substr(0, std::min<size_t>(kernelName.size(), 12));
    size_t matching = 0;
    for (const EventRef e : allEventsOf(r.trace(), tracks))
        matching += containsCaseless(nameOf(r.trace(), e), pattern);
    REQUIRE(matching > 0);
    REQUIRE(matching < model.listedCount());
    QTest::keyClicks(events.filterEdit(), QString::fromStdString(pattern).toUpper());
    REQUIRE(waitUntil([&] { return events.query().filter.pattern.size() == qsizetype(pattern.size()); }));
    REQUIRE(waitUntilIdle(events));
    CHECK(events.listedCount() == matching);
    for (int row = 0; row < model.rowCount(); ++row)
        REQUIRE(containsCaseless(nameOf(r.trace(), model.eventAt(row)), pattern));
    for (int row = 1; row < model.rowCount(); ++row)
        REQUIRE(durationOf(r.trace(), model.eventAt(row - 1)) >= durationOf(r.trace(), model.eventAt(row)));

    // Selecting a row moves the timeline to that event, however far away it was.
    const TimeRange span = r.trace().span;
    const int row = std::min(3, model.rowCount() - 1);
    const EventRef picked = model.eventAt(row);
    const TimeRange pickedRange = views::eventRange(r.trace(), picked);
    const TimeRange far = pickedRange.start - span.start > span.duration() / 2
        ? TimeRange {span.start, span.start + span.duration() / 1000}
        : TimeRange {span.end - span.duration() / 1000, span.end};
    r.timeline().setVisibleRange(far);
    REQUIRE_FALSE(r.timeline().visibleRange().contains(pickedRange.start));
    QTableView& table = *events.table();
    QTest::mouseClick(table.viewport(), Qt::LeftButton, {},
        table.visualRect(model.index(row, int(EventColumn::Duration))).center());
    CHECK(r.timeline().selectedEvent() == picked);
    CHECK(r.timeline().visibleRange().start <= pickedRange.start);
    CHECK(r.timeline().visibleRange().end >= pickedRange.end);

    // And an event selected on the timeline selects its row.
    const EventRef other = model.eventAt(0);
    r.timeline().selectEvent(other, true);
    CHECK(table.currentIndex().row() == 0);
}

TEST_CASE("The timeline's selection scopes the Analysis Summary")
{
    OpenReport r("summary-wiring");
    // A drag across the timeline selects a range before the summary exists...
    views::TimelineCanvas& canvas = *r.timeline().canvas();
    QTest::mousePress(&canvas, Qt::LeftButton, {}, QPoint(250, 60));
    QTest::mouseMove(&canvas, QPoint(400, 70));
    QTest::mouseMove(&canvas, QPoint(700, 80));
    QTest::mouseRelease(&canvas, Qt::LeftButton, {}, QPoint(700, 80));
    const std::optional<TimeRange> first = r.timeline().selection();
    REQUIRE(first);

    // ...and the summary, opened from the view selector, knows it.
    r.tab->viewSelector()->setCurrentIndex(int(ui::ReportView::Summary));
    CHECK(r.tab->currentView() == ui::ReportView::Summary);
    views::AnalysisSummary* summary = r.tab->summary();
    REQUIRE(summary);
    CHECK(summary->isVisible());
    CHECK_FALSE(r.timeline().isVisible());
    REQUIRE(waitForReports(*summary));
    CHECK(summary->selectionButton()->isEnabled());
    QTest::mouseClick(summary->selectionButton(), Qt::LeftButton);
    REQUIRE(waitForReports(*summary));
    CHECK(summary->activeRange() == first);
    requireSameReports("first selection", summary->reports(), computeAllReports(r.trace(), first));

    // A new selection on the timeline re-scopes the summary's tables.
    const TimeRange span = r.trace().span;
    const TimeRange second {span.start + span.duration() / 2, span.start + span.duration() * 3 / 4};
    r.timeline().setSelection(second);
    CHECK(summary->activeRange() == second);
    REQUIRE(waitForReports(*summary));
    requireSameReports("second selection", summary->reports(), computeAllReports(r.trace(), second));

    // Clearing it falls back to the whole trace, tables included.
    r.timeline().setSelection(std::nullopt);
    REQUIRE(waitForReports(*summary));
    CHECK(summary->scope() == views::AnalysisSummary::Scope::WholeTrace);
    CHECK_FALSE(summary->selectionButton()->isEnabled());
    requireSameReports("whole trace", summary->reports(), computeAllReports(r.trace()));
}

TEST_CASE("A stats row of the Analysis Summary lists its events under the timeline")
{
    OpenReport r("summary-row-click");
    QAbstractItemModelTester tester(
        r.events().model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    r.tab->setCurrentView(ui::ReportView::Summary);
    views::AnalysisSummary& summary = *r.tab->summary();
    REQUIRE(waitForReports(summary));
    const std::vector<StatsReport> whole = computeAllReports(r.trace());
    requireSameReports("whole trace", summary.reports(), whole);

    views::StatsTableModel* kernels = summary.stats()->model(StatsReportId::CudaGpuKernSum);
    QTableView* kernelTable = summary.stats()->view(StatsReportId::CudaGpuKernSum);
    summary.stats()->showReport(StatsReportId::CudaGpuKernSum);
    const int row = 2;
    const QString name = kernels->rowName(row);
    const auto kernelReport = std::find_if(whole.begin(), whole.end(),
        [](const StatsReport& report) { return report.id == StatsReportId::CudaGpuKernSum; });
    REQUIRE(kernelReport != whole.end());
    const StatsRow* expected = kernelReport->find(name.toStdString());
    REQUIRE(expected);
    QTest::mouseClick(kernelTable->viewport(), Qt::LeftButton, {},
        kernelTable->visualRect(kernels->index(row, 0)).center());
    CHECK(r.tab->currentView() == ui::ReportView::Timeline);
    CHECK(r.timeline().isVisible());
    CHECK(r.tab->isEventsPaneShown());
    REQUIRE(waitUntilIdle(r.events()));
    CHECK(r.events().query().filter.regex);
    CHECK(r.events().listedCount() == size_t(expected->values.count));
    for (int e = 0; e < r.events().model()->rowCount(); ++e)
        REQUIRE(nameOf(r.trace(), r.events().model()->eventAt(e)) == name.toStdString());
}

TEST_CASE("The Events View button shows and hides the pane, and a reload keeps the view and the pane")
{
    OpenReport r("view-bar");
    QToolButton& button = *r.tab->eventsPaneButton();
    CHECK(button.isVisible());
    CHECK_FALSE(button.isChecked());
    QTest::mouseClick(&button, Qt::LeftButton);
    CHECK(r.tab->isEventsPaneShown());
    CHECK(r.events().isVisible());
    // The pane takes a real share of the tab, and the timeline keeps the larger part.
    CHECK(r.events().height() > 150);
    CHECK(r.timeline().height() > r.events().height());
    QTest::mouseClick(&button, Qt::LeftButton);
    CHECK_FALSE(r.tab->isEventsPaneShown());
    CHECK_FALSE(r.events().isVisible());

    // The button belongs to the Timeline View only.
    r.tab->setEventsPaneShown(true);
    r.tab->setCurrentView(ui::ReportView::Summary);
    CHECK_FALSE(button.isVisible());
    CHECK(r.tab->viewSelector()->currentIndex() == int(ui::ReportView::Summary));
    // The summary scrolls in a small window rather than forcing the window to grow.
    r.window.resize(900, 600);
    CHECK(r.window.size() == QSize(900, 600));
    r.window.resize(1400, 1000);

    // A reload swaps the trace under the same timeline.
    views::TimelineView* before = r.tab->timeline();
    const Trace* beforeTrace = &before->trace();
    r.tab->load();
    REQUIRE(waitUntil([&] { return !r.tab->isLoading(); }));
    CHECK(r.tab->timeline() == before);
    CHECK(&r.tab->timeline()->trace() != beforeTrace);
    CHECK(r.tab->currentView() == ui::ReportView::Summary);
    CHECK(r.tab->summary()->isVisible());
    r.tab->setCurrentView(ui::ReportView::Timeline);
    CHECK(r.tab->isEventsPaneShown());
    CHECK(r.tab->eventsPaneButton()->isChecked());
}
