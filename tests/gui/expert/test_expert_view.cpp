// The Expert pane of a report tab, wired as the shell wires it (app/ui/report/report_tab.cpp):
// choosing a finding zooms the timeline to the span of its evidence (or to the largest piece
// when the evidence spreads over the whole report) and makes the Events View list exactly its
// evidence events; choosing an evidence row zooms to that one event and selects its row; the
// analysis follows the timeline's selected range. The View menu shows and hides the pane, and
// --screenshot --view expert asks for it.
#include "app/ui/document/report_loader.h"
#include "app/ui/report/report_tab.h"
#include "app/ui/shell/main_window.h"
#include "app/ui/shell/shell_options.h"
#include "app/ui/shell/view_menu.h"
#include "model/construct/trace_builder.h"
#include "views/events/events_table_model.h"
#include "views/events/events_view.h"
#include "views/expert/evidence_focus.h"
#include "views/expert/expert_view.h"
#include "views/expert/findings_model.h"
#include "views/timeline/widgets/timeline_view.h"

#include <QAction>
#include <QLabel>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>
#include <QTreeView>
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>

using namespace sightline;

namespace {

constexpr Timestamp kMs = 1'000'000;

// One thread launching a kernel every 100 ms over ten seconds, and calling
// cudaDeviceSynchronize at `syncs` (start, length): the synchronization calls are the
// evidence of cuda_api_sync.
std::shared_ptr<const Trace> traceWithSyncs(const std::vector<std::pair<Timestamp, Duration>>& syncs)
{
    TraceBuilder b;
    b.addProcess(Process {Pid(7), "train", {}});
    b.addThread(Thread {Pid(7), Tid(7), "train"});
    const TrackId api = b.hostTrack(TrackKind::CudaApi, Pid(7), Tid(7));
    const TrackId kernels = b.gpuTrack(TrackKind::Kernels, Pid(7), DeviceId(0), ContextId(1), StreamId(7));
    const StringId launch = b.intern("cudaLaunchKernel"), sync = b.intern("cudaDeviceSynchronize");
    const StringId kernel = b.intern("gemm");
    uint32_t correlation = 1;
    for (Timestamp t = 0; t < 10'000 * kMs; t += 100 * kMs, ++correlation) {
        b.add(api, ApiCall {t, t + kMs / 100, launch, CorrelationId(correlation), {}});
        b.add(kernels, KernelEvent {t + kMs / 50, t + 60 * kMs, kernel, CorrelationId(correlation), {}});
    }
    for (const auto& [start, length] : syncs)
        b.add(api, ApiCall {start, start + length, sync, CorrelationId(correlation++), {}});
    return std::make_shared<const Trace>(b.build(1));
}

struct ExpertTab
{
    ui::ReportTab tab {QStringLiteral("expert.rep")};
    views::ExpertView* expert = nullptr;

    explicit ExpertTab(std::shared_ptr<const Trace> trace)
    {
        tab.resize(1400, 1000);
        tab.show();
        REQUIRE(QTest::qWaitForWindowExposed(&tab));
        tab.showTrace(std::move(trace));
        QTest::mouseClick(tab.expertPaneButton(), Qt::LeftButton);
        REQUIRE(tab.isExpertPaneShown());
        expert = tab.expert();
        REQUIRE(expert);
        REQUIRE(analysed());
    }

    bool analysed() const
    {
        return QTest::qWaitFor([this] { return !expert->isBusy() && expert->result(); }, 60000);
    }
    bool eventsListed() const
    {
        return QTest::qWaitFor([this] { return !tab.eventsView()->isBusy(); }, 60000);
    }
    // The position of the rule's finding, or -1.
    int findingOf(std::string_view rule) const
    {
        const auto& findings = expert->result()->findings;
        for (size_t f = 0; f < findings.size(); ++f)
            if (findings[f].rule == rule) return int(f);
        return -1;
    }
    std::vector<EventRef> listedEvents() const
    {
        std::vector<EventRef> listed;
        const views::EventsTableModel& model = *tab.eventsView()->model();
        for (int row = 0; row < model.rowCount(); ++row)
            listed.push_back(model.eventAt(row));
        std::sort(listed.begin(), listed.end());
        return listed;
    }
};

std::vector<EventRef> evidenceEvents(const Finding& finding)
{
    std::vector<EventRef> events;
    for (const Evidence& piece : finding.evidence)
        if (piece.event) events.push_back(*piece.event);
    std::sort(events.begin(), events.end());
    return events;
}

// The visible range shows `range` with at most a fifth of it around it (the shell's margin is a
// tenth on each side; the timeline shows at least 50 ns).
bool showsClosely(TimeRange visible, TimeRange range)
{
    const Duration slack = std::max<Duration>(range.duration() / 5 + 2, 50);
    return visible.start <= range.start && visible.end >= range.end
        && visible.duration() <= range.duration() + slack;
}

} // namespace

TEST_CASE("choosing a finding zooms the timeline to its evidence and lists exactly its events")
{
    // Three synchronizations within 600 ms of a ten-second run.
    ExpertTab w(traceWithSyncs({{4000 * kMs, 100 * kMs}, {4300 * kMs, 50 * kMs}, {4550 * kMs, 50 * kMs}}));
    CHECK(w.expert->verdictLabel()->text().startsWith(QStringLiteral("Verdict: ")));
    CHECK_FALSE(w.expert->reasonLabel()->text().isEmpty());
    const int sync = w.findingOf("cuda_api_sync");
    REQUIRE(sync >= 0);
    const Finding& finding = w.expert->result()->findings[size_t(sync)];
    REQUIRE(finding.evidence.size() == 3);

    // A click on the finding's row, as a user chooses it.
    QTreeView* tree = w.expert->tree();
    const QModelIndex row = w.expert->model()->findingIndex(size_t(sync));
    tree->scrollTo(row);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(row).center());
    REQUIRE(tree->currentIndex() == row);

    CHECK(showsClosely(w.tab.timeline()->visibleRange(), {4000 * kMs, 4600 * kMs}));
    REQUIRE(w.tab.isEventsPaneShown());
    REQUIRE(w.eventsListed());
    CHECK(w.tab.eventsView()->listedCount() == 3);
    CHECK(w.listedEvents() == evidenceEvents(finding));
    CHECK(w.tab.eventsView()->statusText().startsWith(QStringLiteral("3 events")));
    // The largest piece is selected on the timeline and in the Events View.
    CHECK(w.tab.timeline()->selectedEvent() == finding.evidence.front().event);
    const QModelIndex current = w.tab.eventsView()->table()->currentIndex();
    REQUIRE(current.isValid());
    CHECK(w.tab.eventsView()->model()->eventAt(current.row()) == *finding.evidence.front().event);
    // The finding's summary and what to do are shown below the tree.
    const QString details = w.expert->details()->toPlainText();
    CHECK(details.contains(QString::fromStdString(finding.summary)));
    CHECK(details.contains(QStringLiteral("What to do:")));
}

TEST_CASE("a finding whose evidence spreads over the whole report zooms to its largest piece")
{
    ExpertTab w(traceWithSyncs({{200 * kMs, 30 * kMs}, {5000 * kMs, 80 * kMs}, {9800 * kMs, 40 * kMs}}));
    const int sync = w.findingOf("cuda_api_sync");
    REQUIRE(sync >= 0);
    REQUIRE(w.expert->selectFinding(size_t(sync)));
    CHECK(showsClosely(w.tab.timeline()->visibleRange(), {5000 * kMs, 5080 * kMs}));
    REQUIRE(w.eventsListed());
    CHECK(w.listedEvents() == evidenceEvents(w.expert->result()->findings[size_t(sync)]));
}

TEST_CASE("choosing an evidence row zooms to that event and selects its row in the Events View")
{
    ExpertTab w(traceWithSyncs({{4000 * kMs, 100 * kMs}, {4300 * kMs, 50 * kMs}, {4550 * kMs, 20 * kMs}}));
    const int sync = w.findingOf("cuda_api_sync");
    REQUIRE(sync >= 0);
    REQUIRE(w.expert->selectFinding(size_t(sync)));
    REQUIRE(w.eventsListed());

    // The smallest piece comes last.
    const Finding& finding = w.expert->result()->findings[size_t(sync)];
    const QModelIndex findingRow = w.expert->model()->findingIndex(size_t(sync));
    const QModelIndex last = w.expert->model()->index(2, 0, findingRow);
    REQUIRE(w.expert->model()->evidenceAt(last) == &finding.evidence[2]);
    QTreeView* tree = w.expert->tree();
    tree->expand(findingRow);
    tree->scrollTo(last);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(last).center());
    CHECK(showsClosely(w.tab.timeline()->visibleRange(), {4550 * kMs, 4570 * kMs}));
    CHECK(w.tab.timeline()->selectedEvent() == finding.evidence[2].event);
    // The Events View still lists the finding's evidence, with this event's row selected.
    REQUIRE(w.eventsListed());
    CHECK(w.tab.eventsView()->listedCount() == 3);
    const QModelIndex current = w.tab.eventsView()->table()->currentIndex();
    REQUIRE(current.isValid());
    CHECK(w.tab.eventsView()->model()->eventAt(current.row()) == *finding.evidence[2].event);
}

TEST_CASE("the Expert view analyses the timeline's selected range")
{
    ExpertTab w(traceWithSyncs({{1000 * kMs, 100 * kMs}, {4300 * kMs, 50 * kMs}, {8000 * kMs, 20 * kMs}}));
    const auto evidenceFound = [&w]() -> int {
        const int sync = w.findingOf("cuda_api_sync");
        return sync < 0 ? 0 : int(w.expert->result()->findings[size_t(sync)].evidenceCount);
    };
    CHECK(evidenceFound() == 3);
    CHECK_FALSE(w.expert->range());

    w.tab.timeline()->setSelection(TimeRange {4000 * kMs, 9000 * kMs});
    REQUIRE(w.expert->isBusy());
    REQUIRE(w.analysed());
    CHECK(w.expert->range() == TimeRange {4000 * kMs, 9000 * kMs});
    CHECK(evidenceFound() == 2);

    w.tab.timeline()->setSelection(TimeRange {5000 * kMs, 6000 * kMs});
    REQUIRE(w.analysed());
    CHECK(evidenceFound() == 0);

    w.tab.timeline()->setSelection(std::nullopt);
    REQUIRE(w.analysed());
    CHECK(evidenceFound() == 3);

    // A closed pane analyses nothing; shown again, it catches up with the selection.
    QTest::mouseClick(w.tab.expertPaneButton(), Qt::LeftButton);
    CHECK_FALSE(w.tab.isExpertPaneShown());
    w.tab.timeline()->setSelection(TimeRange {4000 * kMs, 9000 * kMs});
    CHECK_FALSE(w.expert->isBusy());
    CHECK(evidenceFound() == 3);
    QTest::mouseClick(w.tab.expertPaneButton(), Qt::LeftButton);
    REQUIRE(w.analysed());
    CHECK(evidenceFound() == 2);
}

TEST_CASE("on the sample report, each finding with events lists exactly them and zooms to its focus")
{
    const std::filesystem::path sample
        = std::filesystem::path(SIGHTLINE_SOURCE_DIR) / "resources/samples/sample.rep";
    ui::LoadOutcome loaded = ui::loadTraceFile(QString::fromStdString(sample.string()));
    REQUIRE(loaded.status == ui::LoadOutcome::Status::Loaded);
    ExpertTab w(loaded.trace);
    const AnalysisResult& result = *w.expert->result();
    REQUIRE_FALSE(result.verdicts.empty());
    CHECK(w.expert->verdictLabel()->text().contains(
        views::limitTitle(result.verdicts.front().limit), Qt::CaseInsensitive));

    int checked = 0;
    for (size_t f = 0; f < result.findings.size(); ++f) {
        const Finding& finding = result.findings[f];
        const std::vector<EventRef> events = evidenceEvents(finding);
        if (events.empty()) continue;
        INFO(finding.rule);
        REQUIRE(w.expert->selectFinding(f));
        const views::EvidenceFocus focus = views::findingFocus(finding, result.verdicts.front().range);
        REQUIRE(focus.zoom);
        CHECK(showsClosely(w.tab.timeline()->visibleRange(), *focus.zoom));
        REQUIRE(w.eventsListed());
        CHECK(w.tab.eventsView()->listedCount() == events.size());
        CHECK(w.listedEvents() == events);
        ++checked;
    }
    CHECK(checked > 0);
}

TEST_CASE("the View menu's Expert View entry shows and hides the current report's Expert pane")
{
    ui::MainWindow window(ui::MainWindow::Options {.persistState = false});
    QAction* entry = window.viewMenu()->expertAction();
    CHECK_FALSE(entry->isEnabled());
    ui::ReportTab* tab = window.showLoadedReport(QStringLiteral("expert.rep"), traceWithSyncs({{0, kMs}}));
    window.show();
    REQUIRE(QTest::qWaitForWindowExposed(&window));
    REQUIRE(entry->isEnabled());
    CHECK_FALSE(entry->isChecked());

    tab->setCurrentView(ui::ReportView::Summary);
    entry->trigger();
    CHECK(tab->isExpertPaneShown());
    CHECK(tab->currentView() == ui::ReportView::Timeline); // where the pane is
    CHECK(tab->expert()->isVisible());
    CHECK(tab->expertPaneButton()->isChecked());
    // The pane's own button unchecks the menu entry.
    QTest::mouseClick(tab->expertPaneButton(), Qt::LeftButton);
    CHECK_FALSE(tab->isExpertPaneShown());
    CHECK_FALSE(entry->isChecked());
}

TEST_CASE("The --view expert option chooses the Expert view for --screenshot")
{
    const auto parsed = ui::parseShellOptions(
        {QStringLiteral("sightline-ui"), QStringLiteral("--screenshot"), QStringLiteral("out.png"),
            QStringLiteral("--view"), QStringLiteral("expert"), QStringLiteral("run.rep")});
    REQUIRE(parsed);
    REQUIRE(parsed->screenshot);
    CHECK(parsed->screenshot->view == ui::ScreenshotView::Expert);
    const auto unknown = ui::parseShellOptions(
        {QStringLiteral("sightline-ui"), QStringLiteral("--screenshot"), QStringLiteral("out.png"),
            QStringLiteral("--view"), QStringLiteral("expertise"), QStringLiteral("run.rep")});
    REQUIRE_FALSE(unknown);
    CHECK_THAT(unknown.error(), Catch::Contains("summary or expert"));
}
