// Reports larger than memory (issue #20): a report whose events would take more memory than
// the viewer's budget opens as its overview only, says so, and reads the time ranges the user
// selects (each weighed against the budget before it is read), with the way back to the
// overview, and lists a row's track from the file (views/pagedevents) in a pane that outlives
// the range reads. The budget comes from --memory-budget or SIGHTLINE_MEMORY_BUDGET.
#include "app/ui/common/memory_budget.h"
#include "app/ui/report/report_tab.h"
#include "app/ui/shell/screenshot.h"
#include "app/ui/shell/shell_options.h"
#include "events_test_support.h"
#include "model/format/frame_index.h"
#include "model/format/report_io.h"
#include "model/format/report_overview.h"
#include "shell_test_support.h"
#include "views/pagedevents/paged_events_view.h"
#include "views/timeline/interaction/timeline_state.h"
#include "views/timeline/widgets/timeline_view.h"

#include <QFile>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QToolButton>
#include <catch2/catch.hpp>

using namespace sightline;
using sightline::test::guiApp;
using sightline::test::waitUntil;

namespace {

QString lineOf(const ui::ReportTab& tab)
{
    const auto* label = tab.findChild<QLabel*>(QStringLiteral("overviewText"));
    return label ? label->text() : QString();
}

QPushButton* buttonOf(const ui::ReportTab& tab, const char* name)
{
    return tab.findChild<QPushButton*>(QString::fromLatin1(name));
}

bool offered(const ui::ReportTab& tab, const char* name)
{
    const QPushButton* button = buttonOf(tab, name);
    return button && !button->isHidden();
}

// Restores the default budget when a test ends, however it ends.
struct BudgetGuard
{
    explicit BudgetGuard(uint64_t bytes) { ui::setMemoryBudget(bytes); }
    ~BudgetGuard() { ui::setMemoryBudget(0); }
};

// A report just large enough to store an overview, and that overview.
struct LargeReport
{
    QString path;
    uint64_t events = 0;
    ReportOverview overview;
};

LargeReport largeReport(const std::filesystem::path& folder)
{
    LargeReport large;
    large.events = WriteOptions {}.overviewFromEvents;
    large.path = test::writeGeneratedReport(folder, "large.rep", large.events);
    Result<std::optional<ReportOverview>> read = readReportOverview(large.path.toStdString());
    REQUIRE(read);
    REQUIRE(read->has_value());
    large.overview = std::move(*read.value());
    return large;
}

} // namespace

TEST_CASE("memory sizes read as a user writes them, and nonsense is refused with a sentence")
{
    CHECK(ui::parseMemorySize(QStringLiteral("8G"), QStringLiteral("x")).value() == uint64_t(8) << 30);
    CHECK(ui::parseMemorySize(QStringLiteral("512M"), QStringLiteral("x")).value() == uint64_t(512) << 20);
    CHECK(ui::parseMemorySize(QStringLiteral("1.5GB"), QStringLiteral("x")).value() == uint64_t(3) << 29);
    CHECK(ui::parseMemorySize(QStringLiteral("2 GiB"), QStringLiteral("x")).value() == uint64_t(2) << 30);
    CHECK(ui::parseMemorySize(QStringLiteral("4096"), QStringLiteral("x")).value() == 4096);
    for (const char* bad : {"lots", "0", "-1G", "8X", ""}) {
        INFO(bad);
        const Result<uint64_t> parsed
            = ui::parseMemorySize(QString::fromLatin1(bad), QStringLiteral("--memory-budget"));
        REQUIRE_FALSE(parsed);
        CHECK(parsed.error().find("--memory-budget") != std::string::npos);
        CHECK(parsed.error().find("8G") != std::string::npos);
    }
}

TEST_CASE("the memory budget comes from --memory-budget, else SIGHTLINE_MEMORY_BUDGET")
{
    const QString program = QStringLiteral("sightline-ui");
    qunsetenv("SIGHTLINE_MEMORY_BUDGET");
    CHECK_FALSE(ui::parseShellOptions({program}).value().memoryBudget);
    CHECK(ui::parseShellOptions({program, QStringLiteral("--memory-budget"), QStringLiteral("2G")})
              .value()
              .memoryBudget
        == uint64_t(2) << 30);
    qputenv("SIGHTLINE_MEMORY_BUDGET", "300M");
    CHECK(ui::parseShellOptions({program}).value().memoryBudget == uint64_t(300) << 20);
    qputenv("SIGHTLINE_MEMORY_BUDGET", "plenty");
    const Result<ui::ShellOptions> refused = ui::parseShellOptions({program});
    REQUIRE_FALSE(refused);
    CHECK(refused.error().find("SIGHTLINE_MEMORY_BUDGET") != std::string::npos);
    qunsetenv("SIGHTLINE_MEMORY_BUDGET");
    CHECK_FALSE(ui::parseShellOptions({program, QStringLiteral("--memory-budget"), QStringLiteral("much")}));
    // The default: a quarter of this machine's memory, never nothing.
    CHECK(ui::memoryBudget() > 0);
}

TEST_CASE("a report over the memory budget opens as its overview and reads the ranges chosen")
{
    guiApp();
    const auto folder = test::guiScratch("memory-budget");
    const LargeReport large = largeReport(folder);
    const QString& path = large.path;
    const uint64_t events = large.events;
    const ReportOverview& overview = large.overview;
    // A fiftieth of the span, a third of the way in: fewer events than the whole report (each
    // lane's batches of 65,536 events are read whole, so not fifty times fewer).
    const TimeRange span = overview.trace.span;
    const TimeRange range {
        span.start + span.duration() / 3, span.start + span.duration() / 3 + span.duration() / 50};
    const uint64_t inRange = overview.eventsStartingIn(range);
    REQUIRE(inRange < events * 3 / 4);
    // Room for the range, not for the report.
    const BudgetGuard budget((inRange + events) / 2 * kResidentBytesPerEvent);

    ui::ReportTab tab(path);
    tab.resize(1400, 900);
    tab.load();
    REQUIRE(waitUntil([&] { return !tab.isLoading(); }));
    REQUIRE(tab.isShowingOverview());
    CHECK(tab.timeline()->isPictureOnly());
    CHECK(lineOf(tab).contains(QStringLiteral("Overview only")));
    CHECK(lineOf(tab).contains(QLocale().toString(qulonglong(events))));
    CHECK(offered(tab, "loadRangeButton"));
    CHECK_FALSE(offered(tab, "backToOverviewButton"));
    // Pictures to look at: the overview of a report over the budget, then a range of it.
    ui::renderWidget(tab).save(QString::fromStdString((folder / "over-budget.png").string()));

    // Without a selection, Load Range says what to do.
    buttonOf(tab, "loadRangeButton")->click();
    CHECK(lineOf(tab).contains(QStringLiteral("Select a time range first")));
    CHECK_FALSE(tab.isLoading());
    // The whole span is over the budget: refused before anything is read.
    tab.timeline()->setSelection(span);
    buttonOf(tab, "loadRangeButton")->click();
    CHECK(lineOf(tab).contains(QStringLiteral("more than the memory budget allows")));
    CHECK_FALSE(tab.isLoading());

    // The range fits: its events are read, and the view stays where it was.
    tab.timeline()->setVisibleRange(range);
    tab.timeline()->setSelection(range);
    buttonOf(tab, "loadRangeButton")->click();
    REQUIRE(waitUntil([&] { return !tab.isLoading(); }));
    REQUIRE_FALSE(tab.isShowingOverview());
    CHECK_FALSE(tab.timeline()->isPictureOnly());
    REQUIRE(tab.eventsView() != nullptr);
    const Trace& shown = tab.timeline()->trace();
    CHECK(shown.eventCount() == inRange);
    CHECK(shown.span == span); // the report's whole span: the rest is there, not loaded
    CHECK(tab.timeline()->visibleRange() == range);
    CHECK(lineOf(tab).contains(QStringLiteral("Showing the")));
    CHECK(offered(tab, "backToOverviewButton"));
    ui::renderWidget(tab).save(QString::fromStdString((folder / "range.png").string()));
    // Every event starting in the range is there (the stats rule).
    ReadOptions whole;
    whole.select.startsIn = range;
    CHECK(readReport(path.toStdString(), whole).value().eventCount() == shown.eventCount());

    buttonOf(tab, "backToOverviewButton")->click();
    CHECK(tab.isShowingOverview());
    QTest::qWait(500); // the range's page goes; the view, zoomed out, reads nothing
    CHECK(tab.isShowingOverview());
    CHECK_FALSE(tab.isLoading());
    CHECK(tab.timeline()->visibleRange().start <= span.start);
    CHECK(tab.timeline()->visibleRange().end >= span.end);
    CHECK(lineOf(tab).contains(QStringLiteral("Overview only")));
    CHECK(offered(tab, "loadRangeButton"));
}

TEST_CASE("over the memory budget, the view reads the range it settles on and lets it go when zoomed out")
{
    guiApp();
    const LargeReport large = largeReport(test::guiScratch("memory-budget-follow"));
    const QString& path = large.path;
    const uint64_t events = large.events;
    const ReportOverview& overview = large.overview;
    const TimeRange span = overview.trace.span;
    const Duration width = span.duration() / 200;
    const TimeRange view {span.start + span.duration() / 2, span.start + span.duration() / 2 + width};
    const TimeRange around {view.start - width, view.end + width}; // what the tab reads
    REQUIRE(overview.eventsStartingIn(around) < events * 3 / 4);
    const BudgetGuard budget((overview.eventsStartingIn(around) + events) / 2 * kResidentBytesPerEvent);

    ui::ReportTab tab(path);
    tab.resize(1400, 900);
    tab.load();
    REQUIRE(waitUntil([&] { return !tab.isLoading(); }));
    REQUIRE(tab.isShowingOverview());
    // Zoomed in: a moment later the events around the view are read and shown, the view kept.
    tab.timeline()->setVisibleRange(view);
    REQUIRE(waitUntil([&] { return !tab.isShowingOverview() && !tab.isLoading(); }));
    CHECK_FALSE(tab.timeline()->isPictureOnly());
    CHECK(tab.timeline()->visibleRange() == view);
    ReadOptions aroundOnly;
    aroundOnly.select.startsIn = around;
    CHECK(tab.timeline()->trace().eventCount()
        == readReport(path.toStdString(), aroundOnly).value().eventCount());
    // Panning inside what was read reads nothing more.
    const views::TimelineView* shown = tab.timeline();
    tab.timeline()->setVisibleRange({view.start + width / 2, view.end + width / 2});
    QTest::qWait(600);
    CHECK(tab.timeline() == shown);
    CHECK_FALSE(tab.isLoading());
    // Zoomed out past the budget: the overview again, with the rows as the user left them.
    views::TimelineState& state = tab.timeline()->state();
    int gpu = -1;
    for (size_t n = 0; n < state.rows().size() && gpu < 0; ++n)
        if (state.rows().node(int(n)).kind == views::RowKind::Gpu) gpu = int(n);
    REQUIRE(gpu >= 0);
    REQUIRE(state.rows().node(gpu).expanded);
    const std::vector<TrackId> gpuTracks = state.rows().tracksBelow(gpu);
    state.setExpanded(gpu, false);
    tab.timeline()->setVisibleRange(span);
    REQUIRE(waitUntil([&] { return tab.isShowingOverview(); }));
    CHECK(tab.timeline()->isPictureOnly());
    const views::RowTree& rows = tab.timeline()->state().rows();
    int same = 0;
    for (size_t n = 0; n < rows.size(); ++n)
        if (rows.node(int(n)).kind == views::RowKind::Gpu && rows.tracksBelow(int(n)) == gpuTracks) {
            ++same;
            CHECK_FALSE(rows.node(int(n)).expanded);
        }
    CHECK(same == 1);
}

TEST_CASE("over the memory budget, a row lists its track from the file in a pane that outlives range reads")
{
    guiApp();
    const LargeReport large = largeReport(test::guiScratch("memory-budget-track-events-report"));
    const ReportOverview& overview = large.overview;
    const TimeRange span = overview.trace.span;
    const Duration width = span.duration() / 200;
    const TimeRange view {span.start + span.duration() / 2, span.start + span.duration() / 2 + width};
    const TimeRange around {view.start - width, view.end + width};
    const BudgetGuard budget((overview.eventsStartingIn(around) + large.events) / 2 * kResidentBytesPerEvent);

    ui::ReportTab tab(large.path);
    tab.resize(1400, 900);
    tab.show();
    tab.load();
    REQUIRE(waitUntil([&] { return !tab.isLoading(); }));
    REQUIRE(tab.isShowingOverview());
    CHECK(tab.trackEventsView() == nullptr);

    // A stream's row holds its kernels, copies and synchronizations: the largest is listed.
    const views::RowTree& rows = tab.timeline()->state().rows();
    int streamRow = -1;
    for (size_t n = 0; n < rows.size() && streamRow < 0; ++n)
        if (rows.node(int(n)).kind == views::RowKind::Stream) streamRow = int(n);
    REQUIRE(streamRow >= 0);
    const std::vector<TrackId> tracks = rows.tracksBelow(streamRow);
    TrackId largest = tracks.front();
    for (TrackId track : tracks)
        if (overview.trackEvents(track.value) > overview.trackEvents(largest.value)) largest = track;
    REQUIRE(testing::chooseFromRowMenu(
        *tab.timeline()->rowHeaders(), streamRow, QStringLiteral("Show in Events View")));
    REQUIRE(waitUntil([&] {
        return tab.trackEventsView() && !tab.trackEventsView()->isBusy()
            && tab.trackEventsView()->showsPage();
    }));
    views::PagedEventsView* events = tab.trackEventsView();
    CHECK(events->isVisible());
    CHECK(events->pager().track().key == overview.trace.tracks[largest.value].key);
    CHECK(events->listedCount() == overview.trackEvents(largest.value));

    const auto folder = test::guiScratch("memory-budget-track-events");
    // A picture to look at: the overview over the list of a track read from the file.
    ui::renderWidget(tab).save(QString::fromStdString((folder / "track-events-overview.png").string()));

    // Zoomed in, a range is read and replaces the page; the list stays, shown, with its rows.
    tab.timeline()->setVisibleRange(view);
    REQUIRE(waitUntil([&] { return !tab.isShowingOverview() && !tab.isLoading(); }));
    REQUIRE(tab.trackEventsView() == events);
    CHECK(events->isVisible());
    CHECK(events->listedCount() == overview.trackEvents(largest.value));
    ui::renderWidget(tab).save(QString::fromStdString((folder / "track-events-range.png").string()));

    // Activating a row shows its event's time on the timeline, selected.
    const std::optional<EventRef> first = events->model()->pageEvent(0);
    REQUIRE(first);
    const Track& page = events->model()->pageTrace().tracks.front();
    const TimeRange eventRange {page.events.start[first->index], page.events.end[first->index]};
    emit events->table()->activated(events->model()->index(0, 0));
    CHECK(tab.timeline()->selection() == eventRange);
    CHECK(tab.timeline()->visibleRange().start <= eventRange.start);
    CHECK(tab.timeline()->visibleRange().end >= eventRange.end);

    // Its Close button lets it go.
    QToolButton* close = nullptr;
    for (QToolButton* button : events->findChildren<QToolButton*>())
        if (button->text() == QStringLiteral("Close")) close = button;
    REQUIRE(close);
    close->click();
    CHECK(tab.trackEventsView() == nullptr);
}

TEST_CASE("a report without an overview that needs more than the budget is refused with what to do")
{
    guiApp();
    const auto folder = test::guiScratch("memory-budget-no-overview");
    const uint64_t events = 20000; // too few for an overview
    const QString path = test::writeGeneratedReport(folder, "small.rep", events);
    REQUIRE_FALSE(readReportOverview(path.toStdString()).value().has_value());
    {
        const BudgetGuard budget(events / 2 * kResidentBytesPerEvent);
        ui::ReportTab tab(path);
        QSignalSpy failed(&tab, &ui::ReportTab::loadFailed);
        tab.load();
        REQUIRE(waitUntil([&] { return !tab.isLoading(); }));
        REQUIRE(failed.count() == 1);
        const QString sentence = failed.at(0).at(0).toString();
        CHECK(sentence.contains(path));
        CHECK(sentence.contains(QStringLiteral("sightline import")));
        CHECK(sentence.contains(QStringLiteral("--memory-budget")));
    }
    // Within the budget it opens whole, as before.
    const BudgetGuard budget(events * 2 * kResidentBytesPerEvent);
    ui::ReportTab tab(path);
    tab.load();
    REQUIRE(waitUntil([&] { return !tab.isLoading(); }));
    REQUIRE(tab.timeline() != nullptr);
    CHECK(tab.timeline()->trace().eventCount() == events);
}

TEST_CASE("a report over the budget whose overview is damaged is refused with the damage named")
{
    guiApp();
    const LargeReport large = largeReport(test::guiScratch("memory-budget-damaged-overview"));
    // Flip a byte inside its first overview batch.
    QFile file(large.path);
    REQUIRE(file.open(QIODevice::ReadWrite));
    QByteArray bytes = file.readAll();
    const auto span
        = std::span(reinterpret_cast<const unsigned char*>(bytes.constData()), size_t(bytes.size()));
    const Result<rep::FrameIndex> index = rep::indexFrames(span, large.path.toStdString());
    REQUIRE(index);
    const auto batch = std::find_if(index->frames.begin(), index->frames.end(),
        [](const rep::FrameRef& frame) { return frame.header.kind == rep::ChunkKind::Overview; });
    REQUIRE(batch != index->frames.end());
    const qint64 at = qint64(batch->offset + rep::kFrameHeaderSize + batch->header.compressedSize / 2);
    bytes[at] = char(bytes[at] ^ 0x5a);
    REQUIRE(file.seek(0));
    REQUIRE(file.write(bytes) == bytes.size());
    file.close();

    const BudgetGuard budget(large.events / 2 * kResidentBytesPerEvent);
    ui::ReportTab tab(large.path);
    QSignalSpy failed(&tab, &ui::ReportTab::loadFailed);
    tab.load();
    REQUIRE(waitUntil([&] { return !tab.isLoading(); }));
    REQUIRE(failed.count() == 1);
    const QString sentence = failed.at(0).at(0).toString();
    CHECK(sentence.contains(QStringLiteral("overview batch fails its checksum")));
    CHECK(sentence.contains(large.path));
}
