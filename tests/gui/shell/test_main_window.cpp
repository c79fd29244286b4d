// The main window with real generated reports: tabs, title, empty state, the error dialog for a
// bad file while another report stays usable, drag and drop, recent files, and the View menu
// and shortcuts reaching the current timeline.
#include "app/ui/report/report_tab.h"
#include "app/ui/shell/main_window.h"
#include "app/ui/shell/recent_files.h"
#include "app/ui/shell/screenshot.h"
#include "app/ui/shell/status_summary.h"
#include "app/ui/shell/view_menu.h"
#include "shell_test_support.h"
#include "views/timeline/widgets/timeline_canvas.h"
#include "views/timeline/widgets/timeline_view.h"

#include <QAction>
#include <QApplication>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QTest>
#include <QToolButton>
#include <QUrl>
#include <catch2/catch.hpp>
#include <random>

using namespace sightline;
using sightline::test::guiApp;
using sightline::test::waitUntil;

namespace {

bool waitLoaded(ui::ReportTab* tab)
{
    return waitUntil([tab] { return !tab->isLoading() && tab->timeline() != nullptr; });
}

QWidget* emptyPage(ui::MainWindow& window)
{
    return window.findChild<QWidget*>(QStringLiteral("emptyStatePage"));
}

QString absolute(const QString& path)
{
    return QFileInfo(path).canonicalFilePath();
}

} // namespace

TEST_CASE("with no report open the window shows the empty-state page and the plain title")
{
    guiApp();
    ui::MainWindow window;
    REQUIRE(emptyPage(window) != nullptr);
    CHECK(emptyPage(window)->isVisibleTo(&window));
    CHECK(window.reportCount() == 0);
    CHECK(window.windowTitle() == QStringLiteral("Sightline"));
    CHECK_FALSE(window.viewMenu()->zoomToAllAction()->isEnabled());
    CHECK(window.statusSummary()->rangeText().isEmpty());

    auto* message = window.findChild<QLabel*>(QStringLiteral("emptyStateMessage"));
    REQUIRE(message != nullptr);
    CHECK(message->text() == QStringLiteral("Open a report (Ctrl+O) or drop one here"));
    // Kept for a look: build/test-scratch/gui-shell-empty-state/empty.png
    window.resize(1000, 640);
    CHECK(ui::renderWidget(window).save(
        QString::fromStdString((test::guiScratch("empty-state") / "empty.png").string())));
}

TEST_CASE("opening a generated report adds a tab showing all of its events")
{
    guiApp();
    const auto folder = test::guiScratch("open-one");
    const QString path = test::writeGeneratedReport(folder, "first.rep", 20000);
    ui::MainWindow window;

    ui::ReportTab* tab = window.openReport(path);
    CHECK(window.reportCount() == 1);
    CHECK(tab->isLoading());
    REQUIRE(waitLoaded(tab));

    CHECK(window.currentReport() == tab);
    CHECK(window.windowTitle() == QStringLiteral("Sightline — first.rep"));
    CHECK(window.findChild<QTabWidget*>(QStringLiteral("reportTabs"))->tabText(0)
        == QStringLiteral("first.rep"));
    CHECK_FALSE(emptyPage(window)->isVisibleTo(&window));
    CHECK(tab->timeline()->trace().eventCount() == 20000);
    // Zoomed out, every event of the report is in view.
    CHECK(
        window.statusSummary()->eventsText().startsWith(QLocale().toString(20000) + QStringLiteral(" of ")));
    CHECK_FALSE(window.statusSummary()->rangeText().isEmpty());
    CHECK(window.viewMenu()->zoomToAllAction()->isEnabled());
    CHECK(window.recentFiles()->paths().value(0) == absolute(path));

    SECTION("opening the same file again brings its tab forward instead of adding one")
    {
        CHECK(window.openReport(path) == tab);
        CHECK(window.reportCount() == 1);
    }
    SECTION("closing the last tab brings the empty-state page back")
    {
        window.closeCurrentReport();
        CHECK(window.reportCount() == 0);
        CHECK(emptyPage(window)->isVisibleTo(&window));
        CHECK(window.windowTitle() == QStringLiteral("Sightline"));
        CHECK(window.statusSummary()->eventsText().isEmpty());
    }
}

TEST_CASE("a bad file shows its error in a dialog and the open report keeps working")
{
    guiApp();
    const auto folder = test::guiScratch("bad-file");
    const QString good = test::writeGeneratedReport(folder, "good.rep", 20000);
    const QString bad = test::writeTextFile(folder, "broken.rep", "this is a shopping list, not a report\n");
    const QString missing = QString::fromStdString((folder / "missing.rep").string());
    const QString notATrace
        = test::writeTextFile(folder, "hello.json", "{\"hello\": 1}\n"); // JSON, but no trace
    ui::MainWindow window;
    ui::ReportTab* goodTab = window.openReport(good);
    REQUIRE(waitLoaded(goodTab));

    for (const QString& path : {bad, missing, notATrace}) {
        window.openReport(path);
        QMessageBox* box = test::waitForErrorDialog(window);
        REQUIRE(box != nullptr);
        INFO(box->text().toStdString());
        CHECK(box->text().contains(QFileInfo(path).fileName()));
        CHECK(box->icon() == QMessageBox::Critical);
        // Kept for a look: build/test-scratch/gui-shell-bad-file/error-*.png
        ui::renderWidget(*box).save(QString::fromStdString((folder / "error-").string())
            + QFileInfo(path).baseName() + QStringLiteral(".png"));
        box->button(QMessageBox::Ok)->click();
        REQUIRE(waitUntil([&] { return window.findChild<QMessageBox*>() == nullptr; }));
        // The failed tab is gone; the good one is current again.
        CHECK(window.reportCount() == 1);
        CHECK(window.currentReport() == goodTab);
        CHECK(window.windowTitle() == QStringLiteral("Sightline — good.rep"));
    }
    CHECK_FALSE(window.recentFiles()->paths().contains(absolute(missing)));

    // The good report still responds to the View menu.
    views::TimelineView* timeline = goodTab->timeline();
    const TimeRange whole = timeline->visibleRange();
    const TimeRange middle {whole.start + whole.duration() / 3, whole.start + 2 * (whole.duration() / 3)};
    const QString wholeText = window.statusSummary()->rangeText();
    timeline->setSelection(middle);
    REQUIRE(window.viewMenu()->zoomToSelectionAction()->isEnabled());
    window.viewMenu()->zoomToSelectionAction()->trigger();
    CHECK(timeline->visibleRange() == middle);
    CHECK(window.statusSummary()->rangeText() != wholeText);
    window.viewMenu()->backAction()->trigger();
    CHECK(timeline->visibleRange() == whole);
    CHECK(window.statusSummary()->rangeText() == wholeText);
}

TEST_CASE("a 30-byte file of random bytes is refused at once with one sentence")
{
    guiApp();
    const auto folder = test::guiScratch("random-bytes");
    std::string bytes;
    std::mt19937 random(30);
    for (int i = 0; i < 30; ++i)
        bytes.push_back(char(random() % 128 + 128)); // never '{', '[', a magic or a blank
    const QString path = test::writeTextFile(folder, "x.rep", bytes);
    ui::MainWindow window;
    QElapsedTimer clock;
    clock.start();
    window.openReport(path);
    QMessageBox* box = test::waitForErrorDialog(window, 5000);
    REQUIRE(box != nullptr);
    // Generous for a loaded machine; the verdict itself takes about a millisecond.
    CHECK(clock.elapsed() < 1000);
    INFO(box->text().toStdString());
    CHECK(box->text().startsWith(QStringLiteral("Cannot open '%1': it is neither").arg(path)));
    CHECK(box->text().endsWith(QStringLiteral("check that you chose the right file.")));
    box->button(QMessageBox::Ok)->click();
}

TEST_CASE("keyboard shortcuts reach the current timeline and close tabs")
{
    guiApp();
    const auto folder = test::guiScratch("shortcuts");
    const QString path = test::writeGeneratedReport(folder, "keys.rep", 20000);
    ui::MainWindow window;
    window.show();
    REQUIRE(QTest::qWaitForWindowActive(&window));
    ui::ReportTab* tab = window.openReport(path);
    REQUIRE(waitLoaded(tab));
    views::TimelineView* timeline = tab->timeline();
    const TimeRange whole = timeline->visibleRange();
    const TimeRange first {whole.start, whole.start + whole.duration() / 10};

    timeline->setSelection(first);
    QTest::keyClick(&window, Qt::Key_Z, Qt::ShiftModifier);
    CHECK(timeline->visibleRange() == first);
    QTest::keyClick(&window, Qt::Key_0, Qt::ControlModifier);
    CHECK(timeline->visibleRange() == whole);

    QTest::keyClick(&window, Qt::Key_W, Qt::ControlModifier);
    CHECK(window.reportCount() == 0);
    CHECK(emptyPage(window)->isVisibleTo(&window));
}

TEST_CASE("a report that opens gives the timeline the keyboard focus: its keys work without a click")
{
    guiApp();
    const auto folder = test::guiScratch("focus-on-open");
    const QString path = test::writeGeneratedReport(folder, "focus.rep", 20000);
    ui::MainWindow window;
    window.show();
    REQUIRE(QTest::qWaitForWindowActive(&window));
    ui::ReportTab* tab = window.openReport(path);
    REQUIRE(waitLoaded(tab));
    views::TimelineView* timeline = tab->timeline();
    REQUIRE(waitUntil([timeline] { return timeline->canvas()->hasFocus(); }, 2000));

    // W (zoom in) is no window shortcut: only the focused timeline hears it.
    const TimeRange whole = timeline->visibleRange();
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_W);
    CHECK(timeline->visibleRange().duration() < whole.duration());

    // A report that finishes loading in a tab behind the current one leaves the focus alone.
    const QString slow = test::writeGeneratedReport(folder, "slow.rep", 400000);
    const QString quick = test::writeGeneratedReport(folder, "quick.rep", 2000);
    ui::ReportTab* behind = window.openReport(slow);
    ui::ReportTab* front = window.openReport(quick);
    REQUIRE(waitLoaded(front));
    REQUIRE(waitLoaded(behind));
    CHECK(window.currentReport() == front);
    CHECK(front->timeline()->canvas()->hasFocus());

    // Choosing the tab loaded behind gives its timeline the keys.
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("reportTabs"));
    REQUIRE(tabs);
    tabs->setCurrentIndex(tabs->indexOf(behind));
    CHECK(window.currentReport() == behind);
    REQUIRE(waitUntil([behind] { return behind->timeline()->canvas()->hasFocus(); }, 2000));
    const TimeRange behindWhole = behind->timeline()->visibleRange();
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_W);
    CHECK(behind->timeline()->visibleRange().duration() < behindWhole.duration());
}

TEST_CASE("dropping report files on the window opens each in its own tab")
{
    guiApp();
    const auto folder = test::guiScratch("drop");
    const QString a = test::writeGeneratedReport(folder, "a.rep", 5000, 1);
    const QString b = test::writeGeneratedReport(folder, "b.rep", 6000, 2);
    ui::MainWindow window;

    QMimeData text;
    text.setText(QStringLiteral("not a file"));
    QDragEnterEvent refused(QPoint(10, 10), Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
    refused.setAccepted(false);
    QApplication::sendEvent(&window, &refused);
    CHECK_FALSE(refused.isAccepted());

    QMimeData files;
    files.setUrls({QUrl::fromLocalFile(a), QUrl::fromLocalFile(b)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &files, Qt::LeftButton, Qt::NoModifier);
    enter.setAccepted(false);
    QApplication::sendEvent(&window, &enter);
    REQUIRE(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &files, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);

    REQUIRE(window.reportCount() == 2);
    REQUIRE(waitLoaded(window.report(0)));
    REQUIRE(waitLoaded(window.report(1)));
    CHECK(window.report(0)->timeline()->trace().eventCount() == 5000);
    CHECK(window.report(1)->timeline()->trace().eventCount() == 6000);
}

TEST_CASE("recent files survive the window and Open Recent reopens a report")
{
    guiApp();
    const auto folder = test::guiScratch("recent");
    const QString path = test::writeGeneratedReport(folder, "recent.rep", 5000);
    {
        ui::MainWindow first;
        first.recentFiles()->clear();
        REQUIRE(waitLoaded(first.openReport(path)));
    }
    ui::MainWindow second;
    REQUIRE(second.recentFiles()->paths().value(0) == absolute(path));
    auto* menu = second.findChild<QMenu*>(QStringLiteral("recentMenu"));
    REQUIRE(menu != nullptr);
    QAction* entry = nullptr;
    for (QAction* action : menu->actions()) {
        if (action->text().contains(QStringLiteral("recent.rep"))) entry = action;
    }
    REQUIRE(entry != nullptr);
    entry->trigger();
    REQUIRE(waitUntil([&] { return second.reportCount() == 1; }));
    REQUIRE(waitLoaded(second.report(0)));
    CHECK(second.report(0)->path() == absolute(path));

    // At most ten entries, newest first, no duplicates.
    for (int i = 0; i < 12; ++i)
        second.recentFiles()->add(
            QString::fromStdString(folder.string()) + QStringLiteral("/f%1.rep").arg(i));
    second.recentFiles()->add(path);
    const QStringList paths = second.recentFiles()->paths();
    CHECK(paths.size() == ui::RecentFiles::kMaximum);
    CHECK(paths.value(0) == absolute(path));
    CHECK(paths.count(absolute(path)) == 1);
}

TEST_CASE("the window's size is restored from QSettings")
{
    guiApp();
    {
        ui::MainWindow first;
        first.resize(900, 700);
        first.show();
        REQUIRE(QTest::qWaitForWindowExposed(&first));
        first.close();
    }
    ui::MainWindow second;
    CHECK(second.size() == QSize(900, 700));
}

TEST_CASE("a window that does not persist its state leaves QSettings alone")
{
    guiApp();
    const auto folder = test::guiScratch("no-persist");
    const QString path = test::writeGeneratedReport(folder, "quiet.rep", 5000);
    QSettings().clear();
    {
        ui::MainWindow window(ui::MainWindow::Options {.persistState = false});
        REQUIRE(waitLoaded(window.openReport(path)));
        CHECK(window.recentFiles()->paths() == QStringList {absolute(path)});
        window.close();
    }
    QSettings settings;
    settings.sync();
    CHECK(settings.allKeys().isEmpty());
}

TEST_CASE("a report that lost data says so in a banner above its views, which the user may close")
{
    guiApp();
    const auto folder = test::guiScratch("diagnostics-banner");
    const QString whole = test::writeGeneratedReport(folder, "whole.rep", 20000);
    QFile file(whole);
    REQUIRE(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    file.close();
    const QString cut
        = test::writeTextFile(folder, "cut.rep", bytes.left(bytes.size() * 3 / 5).toStdString());

    ui::MainWindow window;
    window.resize(1200, 700);
    ui::ReportTab* wholeTab = window.openReport(whole);
    REQUIRE(waitLoaded(wholeTab));
    QWidget* quiet = wholeTab->findChild<QWidget*>(QStringLiteral("diagnosticsBanner"));
    REQUIRE(quiet != nullptr);
    CHECK_FALSE(quiet->isVisibleTo(wholeTab)); // nothing was lost: nothing to say

    ui::ReportTab* cutTab = window.openReport(cut);
    REQUIRE(waitLoaded(cutTab));
    window.show();
    QWidget* banner = cutTab->findChild<QWidget*>(QStringLiteral("diagnosticsBanner"));
    REQUIRE(banner != nullptr);
    CHECK(banner->isVisibleTo(cutTab));
    const auto* text = banner->findChild<QLabel*>(QStringLiteral("diagnosticsBannerText"));
    REQUIRE(text != nullptr);
    INFO(text->text().toStdString());
    CHECK(text->text().contains(QStringLiteral("cut short")));
    CHECK(text->text().contains(QStringLiteral("events were recovered")));
    // Kept for a look: build/test-scratch/gui-shell-diagnostics-banner/banner.png
    ui::renderWidget(window).save(QString::fromStdString((folder / "banner.png").string()));

    banner->findChild<QToolButton*>(QStringLiteral("diagnosticsBannerClose"))->click();
    CHECK_FALSE(banner->isVisibleTo(cutTab));
}
