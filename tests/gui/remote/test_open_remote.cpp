// File > Open Remote… in the main window: a 100 MB report over SSH downloads with a moving
// progress bar and opens in a tab, the remote location lands in Open Recent and reopening it
// uses the cached copy; Cancel stops a download and keeps the dialog; a failure is shown in the
// dialog; an https:// location given like a file (command line, Open Recent) opens too.
#include "app/ui/remote/open_remote_dialog.h"
#include "app/ui/report/report_tab.h"
#include "app/ui/shell/main_window.h"
#include "app/ui/shell/recent_files.h"
#include "app/ui/shell/screenshot.h"
#include "http_test_server.h"
#include "qt_catch_strings.h"
#include "remote_test_support.h"
#include "shell_test_support.h"
#include "ssh_test_server.h"
#include "test_paths.h"
#include "views/timeline/widgets/timeline_view.h"

#include <QApplication>
#include <QComboBox>
#include <QCoreApplication>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QTabWidget>
#include <QTest>
#include <catch2/catch.hpp>

using namespace sightline;

namespace {

ui::OpenRemoteDialog* openRemoteDialog(ui::MainWindow& window)
{
    window.showOpenRemoteDialog();
    return window.findChild<ui::OpenRemoteDialog*>(QStringLiteral("openRemoteDialog"));
}

bool reportShown(ui::MainWindow& window, int index)
{
    ui::ReportTab* tab = window.report(index);
    return tab && !tab->isLoading() && tab->timeline() != nullptr;
}

// Saves a documentation screenshot when SIGHTLINE_SCREENSHOT_DIR is set.
void keepScreenshot(const QImage& image, const char* name)
{
    const QString folder = qEnvironmentVariable("SIGHTLINE_SCREENSHOT_DIR");
    if (!folder.isEmpty()) image.save(folder + QLatin1Char('/') + QLatin1String(name));
}

} // namespace

TEST_CASE(
    "Open Remote downloads a 100 MB report over SSH with progress, opens it, and remembers the location")
{
    if (!test::sshAvailable()) return;
    const auto large = test::largeReport();
    const QString location = test::sshServer().location(large);
    ui::MainWindow window(ui::MainWindow::Options {false});
    window.resize(1200, 800);
    ui::OpenRemoteDialog* dialog = openRemoteDialog(window);
    REQUIRE(dialog != nullptr);
    QList<int> barValues;
    QImage midway;
    QObject::connect(dialog, &ui::OpenRemoteDialog::fetchStarted, [&](ui::RemoteFetch* fetch) {
        QObject::connect(fetch, &ui::RemoteFetch::progressed, [&, dialog](qint64 done, qint64 total) {
            barValues.append(dialog->progressBar()->value());
            if (midway.isNull() && total > 0 && done * 5 > total * 2) midway = ui::renderWidget(*dialog);
        });
    });
    dialog->setLocation(location);
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("remoteOpenButton")), Qt::LeftButton);

    REQUIRE(test::waitWithoutSleeping(
        [&] { return window.reportCount() == 1 && reportShown(window, 0); }, 240000));
    CHECK(window.findChild<ui::OpenRemoteDialog*>(QStringLiteral("openRemoteDialog")) == nullptr);
    CHECK(window.report(0)->timeline()->trace().eventCount() == test::kLargeReportEvents);
    CHECK(barValues.size() >= 50);
    CHECK(std::is_sorted(barValues.begin(), barValues.end()));
    CHECK(barValues.last() == 1000);
    REQUIRE_FALSE(midway.isNull());
    keepScreenshot(midway, "open-remote-progress.png");
    CHECK(window.recentFiles()->paths().value(0) == location);
    const auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("reportTabs"));
    CHECK(tabs->tabToolTip(0) == location);

    // Reopening it from Open Recent uses the unchanged cached copy and the tab already open.
    bool fromCache = false;
    window.openLocation(location);
    ui::OpenRemoteDialog* again = window.findChild<ui::OpenRemoteDialog*>(QStringLiteral("openRemoteDialog"));
    if (again)
        QObject::connect(again, &ui::OpenRemoteDialog::fetchEnded,
            [&](const ui::FetchOutcome& outcome) { fromCache = outcome.fromCache; });
    REQUIRE(test::waitWithoutSleeping(
        [&] {
            return !window.findChild<ui::OpenRemoteDialog*>(QStringLiteral("openRemoteDialog"))
                && reportShown(window, 0);
        },
        240000));
    CHECK(fromCache);
    CHECK(window.reportCount() == 1);
    CHECK_FALSE(window.report(0)->isLoading()); // the unchanged copy is not even reloaded
}

TEST_CASE("Cancel stops a remote download and keeps the dialog, and a failure is shown in the dialog")
{
    if (!test::sshAvailable()) return;
    // A location of its own (a link to the large report), so no earlier test has cached it.
    const auto folder = test::scratchDir("open-remote-cancel");
    const auto large = folder / "linked-large.rep";
    std::filesystem::create_symlink(test::largeReport(), large);
    ui::MainWindow window(ui::MainWindow::Options {false});
    ui::OpenRemoteDialog* dialog = openRemoteDialog(window);
    REQUIRE(dialog != nullptr);
    auto* cancel = dialog->findChild<QPushButton*>(QStringLiteral("remoteCancelButton"));
    QObject::connect(dialog, &ui::OpenRemoteDialog::fetchStarted, [&](ui::RemoteFetch* fetch) {
        QObject::connect(fetch, &ui::RemoteFetch::progressed, [cancel](qint64 done, qint64 total) {
            if (done > 0 && done < total)
                QMetaObject::invokeMethod(cancel, &QPushButton::click, Qt::QueuedConnection);
        });
    });
    dialog->setLocation(test::sshServer().location(large));
    dialog->startOpening();
    REQUIRE(test::waitWithoutSleeping([&] { return dialog->currentFetch() == nullptr; }, 120000));
    CHECK(dialog->errorText() == QStringLiteral("The download was cancelled."));
    CHECK(dialog->isVisible());
    CHECK(window.reportCount() == 0);

    dialog->setLocation(test::sshServer().location(folder / "gone.rep"));
    dialog->startOpening();
    REQUIRE(test::waitWithoutSleeping([&] { return dialog->currentFetch() == nullptr; }, 60000));
    CHECK(dialog->errorText().startsWith(QStringLiteral("No such file: ")));
    keepScreenshot(ui::renderWidget(*dialog), "open-remote-error.png");
    CHECK(window.reportCount() == 0);

    dialog->setLocation(QStringLiteral("ftp://nowhere/x.rep"));
    dialog->startOpening();
    CHECK(dialog->errorText().contains(QStringLiteral("ssh://[user@]host[:port]/path/file.rep")));
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("remoteCancelButton")), Qt::LeftButton);
    CHECK_FALSE(dialog->isVisible()); // no download running: Cancel closes it (deleted later)
}

TEST_CASE("after a failed download Enter in the dialog tries again instead of closing it")
{
    test::remoteTestApp();
    ui::OpenRemoteDialog dialog({}, nullptr, test::scratchCache("open-remote-enter-cache"));
    dialog.show();
    REQUIRE(QTest::qWaitForWindowActive(&dialog));
    int fetches = 0;
    QObject::connect(&dialog, &ui::OpenRemoteDialog::fetchStarted, [&fetches] { ++fetches; });
    auto* location = dialog.findChild<QComboBox*>(QStringLiteral("remoteLocationCombo"));
    REQUIRE(location != nullptr);
    location->setFocus();
    // Nothing listens there: the download fails at once, with its sentence in the dialog.
    dialog.setLocation(QStringLiteral("http://127.0.0.1:%1/run.rep").arg(test::unusedLoopbackPort()));

    for (int attempt = 1; attempt <= 2; ++attempt) {
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        REQUIRE(test::waitWithoutSleeping([&] { return dialog.currentFetch() == nullptr; }, 60000));
        CHECK(fetches == attempt);
        CHECK(dialog.isVisible());
        CHECK(dialog.errorText().startsWith(QStringLiteral("Cannot reach 127.0.0.1")));
        // The field to fix has the focus again, and Open stays the button Enter presses.
        QWidget* focused = QApplication::focusWidget();
        CHECK((focused == location || location->isAncestorOf(focused)));
        CHECK(dialog.findChild<QPushButton*>(QStringLiteral("remoteOpenButton"))->isDefault());
    }
}

TEST_CASE("an https-style location given like a file opens in a tab and is kept in Open Recent")
{
    test::remoteTestApp();
    const auto folder = test::scratchDir("open-remote-http");
    test::writeGeneratedReport(folder, "served.rep", 5000);
    test::HttpTestServer http(QString::fromStdString(folder.string()));
    REQUIRE(http.listen());
    ui::MainWindow window(ui::MainWindow::Options {false});
    const QString url = http.url(QStringLiteral("served.rep"));
    window.openReports({url});
    REQUIRE(test::waitWithoutSleeping(
        [&] { return window.reportCount() == 1 && reportShown(window, 0); }, 60000));
    CHECK(window.report(0)->timeline()->trace().eventCount() == 5000);
    CHECK(window.recentFiles()->paths().value(0) == url);
    CHECK(http.bodiesSent() == 1);
}
