// Background loading: progress in bytes, Cancel, the newest request of a tab winning, a reload
// that fails keeping the report shown before, and a request destroyed mid-load staying silent.
#include "app/ui/document/report_loader.h"
#include "app/ui/report/report_tab.h"
#include "app/ui/shell/main_window.h"
#include "app/ui/shell/screenshot.h"
#include "shell_test_support.h"
#include "views/timeline/widgets/timeline_view.h"

#include <QEventLoop>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>
#include <QTimer>
#include <catch2/catch.hpp>

using namespace sightline;
using sightline::test::guiApp;
using sightline::test::waitUntil;

namespace {

// Runs the event loop a little longer, so that any late signal would have arrived.
void drainEvents()
{
    QTest::qWait(200);
}

} // namespace

TEST_CASE("a load reports growing progress in bytes and ends with the trace")
{
    guiApp();
    const auto folder = test::guiScratch("progress");
    const QString path = test::writeGeneratedReport(folder, "progress.rep", 300000);
    ui::LoadRequest request(path);
    std::vector<std::pair<qint64, qint64>> steps;
    QObject::connect(&request, &ui::LoadRequest::progressed,
        [&](qint64 done, qint64 total) { steps.emplace_back(done, total); });
    std::optional<ui::LoadOutcome> outcome;
    QObject::connect(&request, &ui::LoadRequest::finished, [&](const ui::LoadOutcome& o) { outcome = o; });
    request.start();
    CHECK(request.isRunning());
    REQUIRE(waitUntil([&] { return outcome.has_value(); }));

    REQUIRE(outcome->status == ui::LoadOutcome::Status::Loaded);
    CHECK(outcome->trace->eventCount() == 300000);
    CHECK_FALSE(request.isRunning());
    REQUIRE_FALSE(steps.empty());
    for (size_t i = 1; i < steps.size(); ++i)
        CHECK(steps[i].first >= steps[i - 1].first);
    CHECK(steps.back().first == steps.back().second);
    CHECK(steps.back().second > 0);
}

TEST_CASE("cancelling a request during its progress stops the reader part-way")
{
    guiApp();
    const auto folder = test::guiScratch("cancel-request");
    // About thirty event batches: far more than the reader can decode before it sees the flag.
    const QString path = test::writeGeneratedReport(folder, "cancel.rep", 2000000);
    ui::LoadRequest request(path);
    std::optional<ui::LoadOutcome> outcome;
    int finishedCount = 0;
    qint64 lastDone = 0;
    qint64 total = 0;
    QEventLoop loop;
    QObject::connect(&request, &ui::LoadRequest::progressed, [&](qint64 done, qint64 of) {
        lastDone = std::max(lastDone, done);
        total = of;
        request.cancel();
    });
    QObject::connect(&request, &ui::LoadRequest::finished, [&](const ui::LoadOutcome& o) {
        outcome = o;
        ++finishedCount;
        loop.quit();
    });
    QTimer::singleShot(120000, &loop, &QEventLoop::quit);
    request.start();
    loop.exec();
    REQUIRE(outcome.has_value());
    drainEvents();
    CHECK(finishedCount == 1);
    CHECK(outcome->status == ui::LoadOutcome::Status::Cancelled);
    CHECK(outcome->trace == nullptr);
    CHECK(outcome->error.isEmpty());
    REQUIRE(total > 0);
    CHECK(lastDone < total); // the reader stopped before the last batch
}

TEST_CASE("a request cancelled before it starts decodes no event batch")
{
    guiApp();
    const auto folder = test::guiScratch("cancel-early");
    const QString path = test::writeGeneratedReport(folder, "early.rep", 300000);
    ui::LoadRequest request(path);
    int progressCount = 0;
    std::optional<ui::LoadOutcome> outcome;
    QObject::connect(&request, &ui::LoadRequest::progressed, [&] { ++progressCount; });
    QObject::connect(&request, &ui::LoadRequest::finished, [&](const ui::LoadOutcome& o) { outcome = o; });
    request.cancel();
    request.start();
    REQUIRE(waitUntil([&] { return outcome.has_value(); }));
    drainEvents();
    CHECK(outcome->status == ui::LoadOutcome::Status::Cancelled);
    CHECK(progressCount == 0);
}

TEST_CASE("Cancel on the loading page stops the load and closes the tab without an error")
{
    guiApp();
    const auto folder = test::guiScratch("cancel-button");
    const QString path = test::writeGeneratedReport(folder, "big.rep", 300000);
    ui::MainWindow window;
    ui::ReportTab* tab = window.openReport(path);
    auto* cancel = tab->findChild<QPushButton*>(QStringLiteral("cancelLoadButton"));
    REQUIRE(cancel != nullptr);
    REQUIRE(cancel->isVisibleTo(&window));
    // Kept for a look: build/test-scratch/gui-shell-cancel-button/loading.png
    window.resize(900, 560);
    ui::renderWidget(window).save(QString::fromStdString((folder / "loading.png").string()));
    QSignalSpy cancelledSpy(tab, &ui::ReportTab::loadCancelled);
    QSignalSpy loadedSpy(tab, &ui::ReportTab::loaded);
    QSignalSpy failedSpy(tab, &ui::ReportTab::loadFailed);
    CHECK(tab->isLoading());
    cancel->click();

    const bool closed = waitUntil([&] { return window.reportCount() == 0; }, 5000);
    CHECK(cancelledSpy.count() == 1);
    CHECK(loadedSpy.count() == 0);
    CHECK(failedSpy.count() == 0);
    REQUIRE(closed);
    drainEvents();
    CHECK(window.findChild<QMessageBox*>() == nullptr);
    CHECK(window.statusBar()->currentMessage().contains(QStringLiteral("cancelled")));

    // The app is still usable: the same file opens normally afterwards.
    ui::ReportTab* again = window.openReport(path);
    // Loaded, not only its overview.
    REQUIRE(waitUntil([&] { return !again->isLoading() && again->timeline() != nullptr; }));
    CHECK(again->timeline()->trace().eventCount() == 300000);
}

TEST_CASE("the newest load request of a tab wins")
{
    guiApp();
    const auto folder = test::guiScratch("newest-wins");
    const QString path = test::writeGeneratedReport(folder, "twice.rep", 100000);
    ui::ReportTab tab(path);
    QSignalSpy loaded(&tab, &ui::ReportTab::loaded);
    QSignalSpy cancelled(&tab, &ui::ReportTab::loadCancelled);
    tab.load();
    tab.load(); // replaces the first request: its result must never arrive
    REQUIRE(waitUntil([&] { return !tab.isLoading(); }));
    drainEvents();
    CHECK(loaded.count() == 1);
    CHECK(cancelled.count() == 0);
    REQUIRE(tab.timeline() != nullptr);
    CHECK(tab.timeline()->trace().eventCount() == 100000);
}

TEST_CASE("a reload that fails keeps the report shown before and says why")
{
    guiApp();
    const auto folder = test::guiScratch("reload-fails");
    const QString path = test::writeGeneratedReport(folder, "changing.rep", 20000);
    ui::MainWindow window;
    ui::ReportTab* tab = window.openReport(path);
    REQUIRE(waitUntil([&] { return !tab->isLoading() && tab->timeline() != nullptr; }));
    views::TimelineView* before = tab->timeline();

    test::writeTextFile(folder, "changing.rep", "overwritten with garbage");
    window.reloadCurrentReport();
    QMessageBox* box = test::waitForErrorDialog(window);
    REQUIRE(box != nullptr);
    CHECK(box->text().contains(QStringLiteral("changing.rep")));
    box->button(QMessageBox::Ok)->click();
    CHECK(window.reportCount() == 1);
    CHECK(tab->timeline() == before);
    CHECK(before->isVisibleTo(&window));
}

TEST_CASE("a request destroyed while loading emits nothing")
{
    guiApp();
    const auto folder = test::guiScratch("destroyed");
    const QString path = test::writeGeneratedReport(folder, "gone.rep", 300000);
    int emitted = 0;
    QObject counter;
    {
        auto* request = new ui::LoadRequest(path);
        QObject::connect(request, &ui::LoadRequest::progressed, &counter, [&] { ++emitted; });
        QObject::connect(request, &ui::LoadRequest::finished, &counter, [&] { ++emitted; });
        request->start();
        delete request;
    }
    QTest::qWait(1500);
    CHECK(emitted == 0);
}
