// The first paint of a report (issue #20): a 1.2 report's overview arrives before the report
// itself, the tab shows it as a picture-only timeline with a line saying how far the load is,
// the report replaces it keeping the range, the rows opened or closed and the scroll position
// the user chose meanwhile, a Cancel keeps the overview, and a report without an overview loads
// as before. The overview draws the report's own picture at the whole-span zoom, and
// --screenshot --overview shows it.
#include "app/ui/document/report_loader.h"
#include "app/ui/report/report_tab.h"
#include "app/ui/shell/main_window.h"
#include "app/ui/shell/screenshot.h"
#include "app/ui/shell/shell_options.h"
#include "model/format/report_io.h"
#include "shell_test_support.h"
#include "test_paths.h"
#include "views/timeline/interaction/timeline_keys.h"
#include "views/timeline/interaction/timeline_state.h"
#include "views/timeline/widgets/find_bar.h"
#include "views/timeline/widgets/timeline_canvas.h"
#include "views/timeline/widgets/timeline_view.h"

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <algorithm>
#include <catch2/catch.hpp>

using namespace sightline;
using sightline::test::guiApp;
using sightline::test::waitUntil;

namespace {

// The size from which the writer stores an overview; smaller reports open whole.
const uint64_t kOverviewEvents = WriteOptions {}.overviewFromEvents;

// Runs the event loop a little longer, so that any late signal would have arrived.
void drainEvents()
{
    QTest::qWait(200);
}

// A capture of format 1.0: it stores no overview.
QString olderReport()
{
    return QString::fromStdString(
        (std::filesystem::path(SIGHTLINE_SOURCE_DIR) / "tests/data/captures/compute-bound.rep").string());
}

QString overviewText(const ui::ReportTab& tab)
{
    const auto* label = tab.findChild<QLabel*>(QStringLiteral("overviewText"));
    return label ? label->text() : QString();
}

// What the tab looked like when its overview appeared.
struct OverviewPage
{
    QString line;
    bool pictureOnly = false;
    bool hasEventsView = true;
    bool selectorEnabled = true;
    bool eventsButtonEnabled = true;
    bool expertButtonEnabled = true;
    bool cancelOffered = false;
    size_t traceEvents = 0;
};

OverviewPage lookAt(const ui::ReportTab& tab)
{
    OverviewPage page;
    page.line = overviewText(tab);
    page.pictureOnly = tab.timeline()->isPictureOnly();
    page.hasEventsView = tab.eventsView() != nullptr;
    page.selectorEnabled = tab.viewSelector()->isEnabled();
    page.eventsButtonEnabled = tab.eventsPaneButton()->isEnabled();
    page.expertButtonEnabled = tab.expertPaneButton()->isEnabled();
    const auto* cancel = tab.findChild<QPushButton*>(QStringLiteral("cancelOverviewLoadButton"));
    page.cancelOffered = cancel && !cancel->isHidden();
    page.traceEvents = tab.timeline()->trace().eventCount();
    return page;
}

// The row at the top of a timeline's view, and how far the view starts below its top.
struct TopRow
{
    QString label;
    int offset = 0;
    bool operator==(const TopRow&) const = default;
};

TopRow topRowOf(const views::TimelineView& timeline)
{
    const views::TimelineState& state = timeline.state();
    const int row = state.layout().rowAt(state.scrollY());
    if (row < 0) return {};
    const views::VisibleRow& shown = state.layout().rows()[size_t(row)];
    return {state.rows().node(shown.node).label, state.scrollY() - shown.top};
}

// A timeline's canvas at the whole-span zoom, every row expanded and tall enough for all of
// them, as drawn; and where each row drawing one stored track lies in it.
struct Picture
{
    QImage image;
    struct Row
    {
        TrackId track;
        int top = 0;
        int height = 0;
    };
    std::vector<Row> rows;
};

Picture pictureOf(std::shared_ptr<const Trace> trace)
{
    views::TimelineView timeline(std::move(trace));
    timeline.setAttribute(Qt::WA_DontShowOnScreen);
    timeline.setLaneHeight(20);
    timeline.setAllRowsExpanded(true);
    timeline.resize(1400, timeline.state().layout().totalHeight() + 80);
    timeline.show();
    QTest::qWait(50);
    Picture picture;
    picture.image = ui::renderWidget(*timeline.canvas());
    const views::TimelineState& state = timeline.state();
    for (const views::VisibleRow& shown : state.layout().rows()) {
        const views::RowNode& node = state.rows().node(shown.node);
        if (node.tracks.size() != 1 || node.tracks[0].value >= state.trace().tracks.size()) continue;
        picture.rows.push_back({node.tracks[0], shown.top, shown.height});
    }
    return picture;
}

// The share of the pixels of the rows that both pictures draw from the same stored track that
// differ by more than a little in some channel.
double differingShare(const Picture& a, const Picture& b)
{
    size_t differing = 0, compared = 0;
    for (const Picture::Row& rowA : a.rows) {
        const auto match = std::find_if(b.rows.begin(), b.rows.end(),
            [&](const Picture::Row& rowB) { return rowB.track == rowA.track && rowB.height == rowA.height; });
        if (match == b.rows.end()) continue;
        for (int dy = 0; dy < rowA.height; ++dy) {
            if (rowA.top + dy >= a.image.height() || match->top + dy >= b.image.height()) break;
            for (int x = 0; x < std::min(a.image.width(), b.image.width()); ++x) {
                const QRgb p = a.image.pixel(x, rowA.top + dy), q = b.image.pixel(x, match->top + dy);
                const int delta = std::max({std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)),
                    std::abs(qBlue(p) - qBlue(q))});
                differing += delta > 24 ? 1 : 0;
                ++compared;
            }
        }
    }
    REQUIRE(compared > 0);
    return double(differing) / double(compared);
}

} // namespace

TEST_CASE("a report's overview arrives before the report, with the report's tracks and span")
{
    guiApp();
    const auto folder = test::guiScratch("overview-first");
    const QString path = test::writeGeneratedReport(folder, "first.rep", kOverviewEvents);
    ui::LoadRequest request(path);
    std::vector<std::string> order;
    std::optional<ui::LoadOutcome> overview;
    std::optional<ui::LoadOutcome> outcome;
    QObject::connect(&request, &ui::LoadRequest::overviewReady, [&](const ui::LoadOutcome& o) {
        order.emplace_back("overview");
        overview = o;
    });
    QObject::connect(&request, &ui::LoadRequest::finished, [&](const ui::LoadOutcome& o) {
        order.emplace_back("finished");
        outcome = o;
    });
    request.start();
    REQUIRE(waitUntil([&] { return outcome.has_value(); }));
    drainEvents();

    REQUIRE(order == std::vector<std::string> {"overview", "finished"});
    REQUIRE(overview->status == ui::LoadOutcome::Status::Loaded);
    CHECK(overview->overview);
    CHECK(overview->reportEvents == kOverviewEvents);
    REQUIRE(outcome->status == ui::LoadOutcome::Status::Loaded);
    CHECK_FALSE(outcome->overview);
    const Trace& picture = *overview->trace;
    const Trace& report = *outcome->trace;
    REQUIRE(picture.tracks.size() == report.tracks.size());
    for (size_t t = 0; t < report.tracks.size(); ++t) {
        CHECK(picture.tracks[t].key == report.tracks[t].key);
        CHECK(picture.tracks[t].laneCount() == report.tracks[t].laneCount());
    }
    CHECK(picture.span == report.span);
    CHECK(report.eventCount() >= kOverviewEvents);
    CHECK(picture.eventCount() > 0);
    CHECK(picture.eventCount() < report.eventCount() / 4);
}

TEST_CASE("a request cancelled at its overview ends Cancelled, once")
{
    guiApp();
    const auto folder = test::guiScratch("overview-cancel-request");
    const QString path = test::writeGeneratedReport(folder, "stop.rep", kOverviewEvents);
    ui::LoadRequest request(path);
    int overviews = 0;
    int finishedCount = 0;
    std::optional<ui::LoadOutcome> outcome;
    QObject::connect(&request, &ui::LoadRequest::overviewReady, [&] {
        ++overviews;
        request.cancel();
    });
    QObject::connect(&request, &ui::LoadRequest::finished, [&](const ui::LoadOutcome& o) {
        ++finishedCount;
        outcome = o;
    });
    request.start();
    REQUIRE(waitUntil([&] { return outcome.has_value(); }));
    drainEvents();
    CHECK(overviews == 1);
    CHECK(finishedCount == 1);
    CHECK(outcome->status == ui::LoadOutcome::Status::Cancelled);
    CHECK(outcome->trace == nullptr);
}

TEST_CASE("a request cancelled before its overview arrives never shows it")
{
    guiApp();
    const auto folder = test::guiScratch("overview-cancel-early");
    const QString path = test::writeGeneratedReport(folder, "early.rep", kOverviewEvents);
    ui::LoadRequest request(path);
    int overviews = 0;
    std::optional<ui::LoadOutcome> outcome;
    QObject::connect(&request, &ui::LoadRequest::overviewReady, [&] { ++overviews; });
    QObject::connect(&request, &ui::LoadRequest::finished, [&](const ui::LoadOutcome& o) { outcome = o; });
    request.start();
    request.cancel(); // before the event loop runs: whatever the worker delivered is still queued
    REQUIRE(waitUntil([&] { return outcome.has_value(); }));
    drainEvents();
    CHECK(overviews == 0);
    CHECK(outcome->status == ui::LoadOutcome::Status::Cancelled);
}

TEST_CASE("a tab shows the overview while the report loads, then the report where the user went")
{
    guiApp();
    const auto folder = test::guiScratch("overview-tab");
    const uint64_t events = kOverviewEvents;
    const QString path = test::writeGeneratedReport(folder, "tab.rep", events);
    ui::MainWindow window(ui::MainWindow::Options {.persistState = false});
    window.setAttribute(Qt::WA_DontShowOnScreen);
    window.resize(1000, 420); // short: the rows scroll
    window.show();
    ui::ReportTab* tab = window.openReport(path);
    QSignalSpy loaded(tab, &ui::ReportTab::loaded);

    std::optional<OverviewPage> seen;
    TimeRange chosen;
    std::optional<TimeRange> chosenSelection;
    TopRow chosenTop;
    std::vector<TrackId> collapsedGpu, expandedStream;
    QObject::connect(tab, &ui::ReportTab::overviewShown, tab, [&] {
        CHECK(tab->isLoading());
        seen = lookAt(*tab);
        // Kept for a look: build/test-scratch/gui-shell-overview-tab/overview.png
        ui::renderWidget(window).save(QString::fromStdString((folder / "overview.png").string()));
        // The user zooms into the report and scrolls down before it has loaded. The layout is
        // brought up to date first (it alone: the report's own arrival stays queued).
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        views::TimelineView& timeline = *tab->timeline();
        // It closes the first GPU's row and opens a stream of another GPU.
        views::TimelineState& state = timeline.state();
        int firstGpu = -1;
        for (size_t n = 0; n < state.rows().size(); ++n) {
            const views::RowNode& node = state.rows().node(int(n));
            if (node.kind == views::RowKind::Gpu && firstGpu < 0) {
                firstGpu = int(n);
                collapsedGpu = state.rows().tracksBelow(firstGpu);
            } else if (node.kind == views::RowKind::Stream && expandedStream.empty() && !node.expanded) {
                int gpu = node.parent;
                while (state.rows().node(gpu).parent >= 0)
                    gpu = state.rows().node(gpu).parent;
                if (gpu == firstGpu) continue;
                expandedStream = state.rows().tracksBelow(int(n));
                state.setExpanded(int(n), true);
            }
        }
        REQUIRE(firstGpu >= 0);
        REQUIRE(state.rows().node(firstGpu).expanded);
        state.setExpanded(firstGpu, false);
        REQUIRE_FALSE(expandedStream.empty());
        const TimeRange span = timeline.trace().span;
        chosen = {span.start + span.duration() * 4 / 10, span.start + span.duration() / 2};
        timeline.setVisibleRange(chosen);
        chosen = timeline.visibleRange();
        chosenSelection
            = TimeRange {chosen.start + chosen.duration() / 4, chosen.end - chosen.duration() / 4};
        timeline.setSelection(chosenSelection);
        timeline.state().setScrollY(timeline.state().maxScrollY() / 2 + 7);
        chosenTop = topRowOf(timeline);
    });
    REQUIRE(waitUntil([&] { return !tab->isLoading(); }, 120000));
    drainEvents();

    REQUIRE(seen.has_value());
    CHECK(seen->line.startsWith(
        QStringLiteral("Overview: drawn from the report's summary while its %1 events load (")
            .arg(QLocale().toString(qulonglong(events)))));
    CHECK(seen->pictureOnly);
    CHECK_FALSE(seen->hasEventsView);
    CHECK_FALSE(seen->selectorEnabled);
    CHECK_FALSE(seen->eventsButtonEnabled);
    CHECK_FALSE(seen->expertButtonEnabled);
    CHECK(seen->cancelOffered);
    CHECK(seen->traceEvents < events / 4);
    CHECK_FALSE(chosenTop.label.isEmpty());

    CHECK(loaded.count() == 1);
    REQUIRE(tab->timeline() != nullptr);
    CHECK_FALSE(tab->isShowingOverview());
    CHECK_FALSE(tab->timeline()->isPictureOnly());
    CHECK(tab->timeline()->trace().eventCount() >= events);
    CHECK(tab->eventsView() != nullptr);
    CHECK(tab->viewSelector()->isEnabled());
    CHECK(tab->findChild<QLabel*>(QStringLiteral("overviewText")) == nullptr);
    CHECK(tab->timeline()->visibleRange() == chosen);
    CHECK(tab->timeline()->selection() == chosenSelection);
    // The same row at the top (the report has rows of its own above it: projected NVTX).
    CHECK(topRowOf(*tab->timeline()) == chosenTop);
    // The rows the user closed and opened stay so.
    const views::RowTree& rows = tab->timeline()->state().rows();
    int gpuRows = 0, streamRows = 0;
    for (size_t n = 0; n < rows.size(); ++n) {
        const views::RowNode& node = rows.node(int(n));
        if (!node.isGroup()) continue;
        const std::vector<TrackId> tracks = rows.tracksBelow(int(n));
        if (node.kind == views::RowKind::Gpu && tracks == collapsedGpu) {
            ++gpuRows;
            CHECK_FALSE(node.expanded);
        }
        if (node.kind == views::RowKind::Stream && tracks == expandedStream) {
            ++streamRows;
            CHECK(node.expanded);
        }
    }
    CHECK(gpuRows == 1);
    CHECK(streamRows == 1);
}

TEST_CASE("Cancel during the overview keeps it and says so; a reload then shows the report")
{
    guiApp();
    const auto folder = test::guiScratch("overview-cancel-tab");
    const QString path = test::writeGeneratedReport(folder, "cancel.rep", kOverviewEvents);
    ui::MainWindow window(ui::MainWindow::Options {.persistState = false});
    ui::ReportTab* tab = window.openReport(path);
    QSignalSpy cancelled(tab, &ui::ReportTab::loadCancelled);
    QSignalSpy loaded(tab, &ui::ReportTab::loaded);
    QSignalSpy failed(tab, &ui::ReportTab::loadFailed);
    bool clicked = false;
    QObject::connect(tab, &ui::ReportTab::overviewShown, tab, [&] {
        if (clicked) return; // the reload below is not cancelled
        auto* cancel = tab->findChild<QPushButton*>(QStringLiteral("cancelOverviewLoadButton"));
        if (!cancel) return; // `clicked` stays false
        cancel->click();
        clicked = true;
    });
    REQUIRE(waitUntil([&] { return !tab->isLoading(); }, 120000));
    drainEvents();

    REQUIRE(clicked);
    CHECK(cancelled.count() == 1);
    CHECK(loaded.count() == 0);
    CHECK(failed.count() == 0);
    CHECK(window.reportCount() == 1);
    CHECK(window.findChild<QMessageBox*>() == nullptr);
    CHECK(tab->isShowingOverview());
    REQUIRE(tab->timeline() != nullptr);
    CHECK(tab->timeline()->isPictureOnly());
    CHECK(overviewText(*tab)
        == QStringLiteral("Overview only: loading was cancelled; reopen the report to see its events."));
    CHECK(tab->findChild<QPushButton*>(QStringLiteral("cancelOverviewLoadButton"))->isHidden());
    // No view that needs events can be reached meanwhile.
    tab->setCurrentView(ui::ReportView::Summary);
    CHECK(tab->currentView() == ui::ReportView::Timeline);
    CHECK(tab->summary() == nullptr);
    CHECK(tab->expert() == nullptr);

    window.reloadCurrentReport();
    REQUIRE(waitUntil([&] { return loaded.count() == 1; }, 120000));
    CHECK_FALSE(tab->isShowingOverview());
    CHECK(tab->timeline()->trace().eventCount() >= kOverviewEvents);
}

TEST_CASE("a report without an overview loads as before")
{
    guiApp();
    const QString older = olderReport();
    CHECK_FALSE(ui::loadReportOverview(older).has_value());
    const auto folder = test::guiScratch("overview-none");
    CHECK_FALSE(ui::loadReportOverview(test::writeTextFile(folder, "notes.txt", "not a report")).has_value());
    // Below the writer's threshold a 1.2 report stores none either.
    CHECK_FALSE(ui::loadReportOverview(test::writeGeneratedReport(folder, "small.rep", 50000)).has_value());

    ui::LoadRequest request(older);
    int overviews = 0;
    std::optional<ui::LoadOutcome> outcome;
    QObject::connect(&request, &ui::LoadRequest::overviewReady, [&] { ++overviews; });
    QObject::connect(&request, &ui::LoadRequest::finished, [&](const ui::LoadOutcome& o) { outcome = o; });
    request.start();
    REQUIRE(waitUntil([&] { return outcome.has_value(); }));
    drainEvents();
    CHECK(overviews == 0);
    REQUIRE(outcome->status == ui::LoadOutcome::Status::Loaded);
    CHECK(outcome->trace->eventCount() > 0);

    ui::ReportTab tab(older);
    QSignalSpy shown(&tab, &ui::ReportTab::overviewShown);
    tab.load();
    REQUIRE(waitUntil([&] { return !tab.isLoading(); }));
    CHECK(shown.count() == 0);
    REQUIRE(tab.timeline() != nullptr);
    CHECK_FALSE(tab.timeline()->isPictureOnly());
    CHECK(tab.eventsView() != nullptr);
}

TEST_CASE("a reload of a report already shown keeps its views until the new one has loaded")
{
    guiApp();
    const auto folder = test::guiScratch("overview-reload");
    const QString path = test::writeGeneratedReport(folder, "again.rep", kOverviewEvents);
    ui::ReportTab tab(path);
    QSignalSpy shown(&tab, &ui::ReportTab::overviewShown);
    QSignalSpy loaded(&tab, &ui::ReportTab::loaded);
    tab.load();
    REQUIRE(waitUntil([&] { return loaded.count() == 1; }));
    CHECK(shown.count() == 1);
    tab.load();
    REQUIRE(waitUntil([&] { return loaded.count() == 2; }));
    drainEvents();
    CHECK(shown.count() == 1);
    CHECK_FALSE(tab.isShowingOverview());
}

TEST_CASE("a picture-only timeline hits no event: no tooltip, no selection")
{
    guiApp();
    const auto folder = test::guiScratch("overview-picture-only");
    const QString path = test::writeGeneratedReport(folder, "picture.rep", kOverviewEvents);
    const std::optional<ui::LoadOutcome> overview = ui::loadReportOverview(path);
    REQUIRE(overview.has_value());
    REQUIRE(overview->status == ui::LoadOutcome::Status::Loaded);
    views::TimelineView timeline(overview->trace);
    timeline.setAttribute(Qt::WA_DontShowOnScreen);
    timeline.resize(1000, 600);
    timeline.show();
    QTest::qWait(50);
    views::TimelineCanvas& canvas = *timeline.canvas();

    // A point on a stand-in, found while the timeline still offers its events.
    std::optional<QPoint> onEvent;
    for (int y = 2; y < canvas.height() && !onEvent; y += 3)
        for (int x = 2; x < canvas.width() && !onEvent; x += 5)
            if (canvas.eventAt({x, y})) onEvent = QPoint(x, y);
    REQUIRE(onEvent.has_value());
    CHECK_FALSE(canvas.toolTipAt(*onEvent).isEmpty());

    timeline.setPictureOnly(true);
    CHECK(timeline.isPictureOnly());
    CHECK_FALSE(canvas.eventAt(*onEvent).has_value());
    CHECK(canvas.toolTipAt(*onEvent).isEmpty());
    QTest::mouseClick(&canvas, Qt::LeftButton, {}, *onEvent);
    CHECK_FALSE(timeline.selectedEvent().has_value());
    timeline.runAction(views::TimelineAction::Find);
    CHECK(timeline.findBar()->isHidden());

    timeline.setPictureOnly(false);
    QTest::mouseClick(&canvas, Qt::LeftButton, {}, *onEvent);
    CHECK(timeline.selectedEvent().has_value());
}

TEST_CASE("the overview draws the report's own picture at the whole-span zoom")
{
    guiApp();
    const auto folder = test::guiScratch("overview-picture");
    const QString path = test::writeGeneratedReport(folder, "same.rep", kOverviewEvents, 7);
    const QString other = test::writeGeneratedReport(folder, "other.rep", kOverviewEvents, 8);
    const std::optional<ui::LoadOutcome> overview = ui::loadReportOverview(path);
    REQUIRE(overview.has_value());
    REQUIRE(overview->status == ui::LoadOutcome::Status::Loaded);
    const ui::LoadOutcome report = ui::loadTraceFile(path);
    const ui::LoadOutcome otherReport = ui::loadTraceFile(other);
    REQUIRE(report.status == ui::LoadOutcome::Status::Loaded);
    REQUIRE(otherReport.status == ui::LoadOutcome::Status::Loaded);

    const Picture fromOverview = pictureOf(overview->trace);
    const Picture fromReport = pictureOf(report.trace);
    const Picture fromOther = pictureOf(otherReport.trace);
    // Kept for a look: build/test-scratch/gui-shell-overview-picture/*.png
    fromOverview.image.save(QString::fromStdString((folder / "overview.png").string()));
    fromReport.image.save(QString::fromStdString((folder / "report.png").string()));
    // Rows of one track each (rows summarising several tracks colour a column by the longest
    // event among them, and a stand-in lasts as long as its run: there they may differ).
    const double same = differingShare(fromOverview, fromReport);
    const double apart = differingShare(fromOther, fromReport);
    INFO("overview vs its report " << same << ", another report vs the report " << apart);
    CHECK(same < 0.015);
    CHECK(apart > 5 * same); // the measure tells pictures apart
}

TEST_CASE("the screenshot option --overview applies to timeline and events screenshots only")
{
    const auto parse = [](QStringList arguments) {
        arguments.prepend(QStringLiteral("sightline-ui"));
        return ui::parseShellOptions(arguments);
    };
    const auto shot = parse({QStringLiteral("--screenshot"), QStringLiteral("out.png"),
        QStringLiteral("--overview"), QStringLiteral("run.rep")});
    REQUIRE(shot);
    REQUIRE(shot->screenshot.has_value());
    CHECK(shot->screenshot->overview);
    const auto plain
        = parse({QStringLiteral("--screenshot"), QStringLiteral("out.png"), QStringLiteral("run.rep")});
    REQUIRE(plain);
    CHECK_FALSE(plain->screenshot->overview);

    const auto alone = parse({QStringLiteral("--overview"), QStringLiteral("run.rep")});
    REQUIRE_FALSE(alone);
    CHECK(alone.error().find("--overview only applies together with --screenshot") != std::string::npos);
    const auto events
        = parse({QStringLiteral("--screenshot"), QStringLiteral("out.png"), QStringLiteral("--overview"),
            QStringLiteral("--view"), QStringLiteral("events"), QStringLiteral("run.rep")});
    REQUIRE(events);
    CHECK(events->screenshot->overview);
    const auto summary
        = parse({QStringLiteral("--screenshot"), QStringLiteral("out.png"), QStringLiteral("--overview"),
            QStringLiteral("--view"), QStringLiteral("summary"), QStringLiteral("run.rep")});
    REQUIRE_FALSE(summary);
    CHECK(
        summary.error().find("--overview shows the timeline and the events view only") != std::string::npos);
}

TEST_CASE("sightline-ui --screenshot --overview draws the overview, and refuses a report without one")
{
    guiApp();
    const auto folder = test::guiScratch("overview-screenshot");
    const QString report = test::writeGeneratedReport(folder, "shot.rep", kOverviewEvents);
    const auto run = [](const QStringList& arguments, QString* stdErr) {
        QProcess process;
        process.start(QString::fromStdString((test::binDir() / "sightline-ui").string()), arguments);
        if (!process.waitForFinished(120000)) return -1;
        *stdErr = QString::fromUtf8(process.readAllStandardError());
        return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    };
    const QString overviewPng = QString::fromStdString((folder / "overview.png").string());
    const QString reportPng = QString::fromStdString((folder / "report.png").string());
    QString stdErr;
    REQUIRE(run({QStringLiteral("--screenshot"), overviewPng, QStringLiteral("--overview"),
                    QStringLiteral("--size"), QStringLiteral("1200x700"), report},
                &stdErr)
        == 0);
    REQUIRE(run({QStringLiteral("--screenshot"), reportPng, QStringLiteral("--size"),
                    QStringLiteral("1200x700"), report},
                &stdErr)
        == 0);
    const QImage overview(overviewPng);
    const QImage full(reportPng);
    CHECK(overview.size() == QSize(1200, 700));
    CHECK(full.size() == QSize(1200, 700));
    CHECK(overview != full); // the overview line, at least

    const QString refused = QString::fromStdString((folder / "refused.png").string());
    CHECK(run({QStringLiteral("--screenshot"), refused, QStringLiteral("--overview"), olderReport()}, &stdErr)
        == 1);
    CHECK(stdErr.contains(QStringLiteral("stores no overview")));
    CHECK_FALSE(QFile::exists(refused));
}
