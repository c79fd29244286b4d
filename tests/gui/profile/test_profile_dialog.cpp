// Tools > Profile Application… end to end: the dialog is filled like a user would, Start runs
// the real collector test program under `sightline profile --trace=nvtx,osrt` as a child
// process, its output shows in the live pane and the report opens in a new tab of the main
// window; Stop in the middle of a 30 s sleep still yields a report; inline messages block Start;
// the settings come back for the same program next time.
#include "../remote/qt_catch_strings.h"
#include "app/ui/profile/environment_editor.h"
#include "app/ui/profile/profile_dialog.h"
#include "app/ui/profile/profile_run.h"
#include "app/ui/profile/profile_run_pane.h"
#include "app/ui/report/report_tab.h"
#include "app/ui/shell/main_window.h"
#include "app/ui/shell/screenshot.h"
#include "shell_test_support.h"
#include "test_paths.h"
#include "views/timeline/widgets/timeline_view.h"

#include <QCheckBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QTest>
#include <catch2/catch.hpp>

using namespace sightline;

namespace {

QString pathText(const std::filesystem::path& path)
{
    return QString::fromStdString(path.string());
}

QString sightlinePath()
{
    return pathText(test::binDir() / "sightline");
}

// The main window's dialog, with the test's `sightline` found through SIGHTLINE_CLI.
ui::ProfileDialog* openProfileDialog(ui::MainWindow& window)
{
    qputenv("SIGHTLINE_CLI", sightlinePath().toLocal8Bit());
    QTest::keySequence(&window, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    auto* dialog = window.findChild<ui::ProfileDialog*>(QStringLiteral("profileDialog"));
    if (dialog) REQUIRE(QTest::qWaitForWindowExposed(dialog));
    return dialog;
}

// The main window shown and its Profile dialog set to run the test target's "sleep" mode
// (it pushes "waiting", then sleeps 30 s) without CUDA, in `folder`.
ui::ProfileDialog* dialogForSleepingTarget(
    ui::MainWindow& window, const std::filesystem::path& folder, const QString& outputFile = {})
{
    window.show();
    REQUIRE(QTest::qWaitForWindowExposed(&window));
    ui::ProfileDialog* dialog = openProfileDialog(window);
    REQUIRE(dialog != nullptr);
    ui::ProfileSettings settings;
    settings.executable = QStringLiteral(COLLECTOR_TARGET);
    settings.arguments = QStringLiteral("sleep");
    settings.workingDirectory = pathText(folder);
    settings.traceCuda = false;
    if (!outputFile.isEmpty()) settings.outputFile = outputFile;
    dialog->setSettings(settings);
    return dialog;
}

template <typename Widget> Widget* child(QWidget* parent, const char* name)
{
    auto* widget = parent->findChild<Widget*>(QLatin1String(name));
    REQUIRE(widget != nullptr);
    return widget;
}

// Replaces a line edit's text by typing, then leaves the field (editingFinished).
void typeInto(QWidget* dialog, const char* name, const QString& text)
{
    auto* edit = child<QLineEdit>(dialog, name);
    edit->setFocus();
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Delete);
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Tab);
}

QString problemText(QWidget* dialog, const char* name)
{
    auto* label = child<QLabel>(dialog, name);
    return label->isVisible() ? label->text() : QString();
}

bool reportShown(ui::MainWindow& window, int index)
{
    ui::ReportTab* tab = window.report(index);
    return tab && !tab->isLoading() && tab->timeline() != nullptr;
}

std::string metadataValue(const KeyValueList& list, const std::string& key)
{
    for (const auto& [name, value] : list)
        if (name == key) return value;
    return {};
}

void keepScreenshot(QWidget& widget, const char* name)
{
    const QImage image = ui::renderWidget(widget);
    CHECK_FALSE(image.isNull());
    const QString folder = qEnvironmentVariable("SIGHTLINE_SCREENSHOT_DIR");
    if (!folder.isEmpty()) image.save(folder + QLatin1Char('/') + QLatin1String(name));
}

} // namespace

TEST_CASE("the Profile dialog runs a real program under sightline profile and opens its report in a new tab")
{
    test::guiApp();
    const auto folder = test::scratchDir("gui-profile-run");
    ui::MainWindow window(ui::MainWindow::Options {false});
    window.resize(1200, 700);
    window.show();
    REQUIRE(QTest::qWaitForWindowExposed(&window));
    ui::ProfileDialog* dialog = openProfileDialog(window);
    REQUIRE(dialog != nullptr);
    // A blank form, whatever earlier tests of this process remembered for other programs.
    dialog->setSettings(ui::ProfileSettings());
    CHECK(problemText(dialog, "collectorProblem").isEmpty());

    // A wrong path first: the inline message says so and Start stays disabled.
    typeInto(dialog, "executableEdit", pathText(folder / "no-such-program"));
    CHECK(problemText(dialog, "executableProblem").contains(QStringLiteral("does not exist")));
    CHECK_FALSE(dialog->startButton()->isEnabled());
    typeInto(dialog, "outputEdit", pathText(folder / "missing" / "run.rep"));
    CHECK(problemText(dialog, "outputProblem").contains(QStringLiteral("does not exist")));
    keepScreenshot(*dialog, "profile-dialog-validation.png");

    typeInto(dialog, "executableEdit", QStringLiteral(COLLECTOR_TARGET));
    CHECK(problemText(dialog, "executableProblem").isEmpty());
    typeInto(dialog, "argumentsEdit", QStringLiteral("nvtx-osrt ") + pathText(folder));
    typeInto(dialog, "workingDirectoryEdit", pathText(folder));
    typeInto(dialog, "outputEdit", QStringLiteral("gui-run.rep"));
    CHECK(problemText(dialog, "outputProblem").isEmpty());
    QTest::mouseClick(child<QPushButton>(dialog, "addEnvironmentButton"), Qt::LeftButton);
    auto* table = child<QTableWidget>(dialog, "environmentTable");
    REQUIRE(table->rowCount() == 1);
    table->item(0, 0)->setText(QStringLiteral("SIGHTLINE_GUI_TEST"));
    table->item(0, 1)->setText(QStringLiteral("from the dialog"));
    QTest::mouseClick(child<QCheckBox>(dialog, "traceCudaCheck"), Qt::LeftButton);
    CHECK(dialog->settings().traceList() == QStringLiteral("nvtx,osrt"));
    REQUIRE(dialog->startButton()->isEnabled());

    QTest::mouseClick(dialog->startButton(), Qt::LeftButton);
    REQUIRE(dialog->run() != nullptr);
    CHECK(dialog->run()->launcherArguments().contains(QStringLiteral("--trace=nvtx,osrt")));
    CHECK(dialog->stopButton()->isEnabled());
    CHECK_FALSE(dialog->startButton()->isEnabled());

    REQUIRE(QTest::qWaitFor([&] { return window.reportCount() == 1 && reportShown(window, 0); }, 120000));
    ui::ReportTab* tab = window.report(0);
    CHECK(tab->path() == pathText(std::filesystem::canonical(folder / "gui-run.rep")));
    const Trace& trace = tab->timeline()->trace();
    INFO(dialog->runPane()->outputText().toStdString());
    INFO("events: " << trace.eventCount());
    CHECK(metadataValue(trace.metadata.options, "trace") == "nvtx,osrt");
    CHECK(metadataValue(trace.metadata.environment, "SIGHTLINE_GUI_TEST") == "from the dialog");
    CHECK(trace.eventCount(TrackKind::Nvtx) > 0);
    CHECK(trace.eventCount(TrackKind::OsRuntime) > 0);
    CHECK(trace.eventCount(TrackKind::CudaApi) == 0);

    const QString output = dialog->runPane()->outputText();
    CHECK(output.contains(QStringLiteral("target says hello"))); // the target's stdout
    CHECK(output.contains(QStringLiteral("target warns"))); // its stderr
    CHECK(output.contains(QStringLiteral("Generated: ")));
    CHECK(dialog->runPane()->statusText().contains(QStringLiteral("Report written")));
    CHECK(dialog->runPane()->statusText().contains(QStringLiteral("exited with code 7")));
    CHECK(dialog->startButton()->isEnabled());
    CHECK_FALSE(dialog->stopButton()->isEnabled());
    keepScreenshot(*dialog, "profile-dialog.png");
    keepScreenshot(window, "profile-report-tab.png");

    // Next time, the same program brings back the same settings.
    ui::ProfileDialog remembered(nullptr, sightlinePath());
    const ui::ProfileSettings again = remembered.settings();
    CHECK(again.executable == QStringLiteral(COLLECTOR_TARGET));
    CHECK(again.arguments == QStringLiteral("nvtx-osrt ") + pathText(folder));
    CHECK(again.workingDirectory == pathText(folder));
    CHECK(again.outputFile == QStringLiteral("gui-run.rep"));
    CHECK(again.traceList() == QStringLiteral("nvtx,osrt"));
    REQUIRE(again.environment.size() == 1);
    CHECK(again.environment.first().name == QStringLiteral("SIGHTLINE_GUI_TEST"));
    // The report exists now: running again would replace it, which is said but allowed.
    CHECK(remembered.problems().outputWarning.contains(QStringLiteral("will be replaced")));
    CHECK(remembered.startButton()->isEnabled());
}

TEST_CASE("Stop in the middle of a run ends the program gracefully and still opens its report")
{
    test::guiApp();
    const auto folder = test::scratchDir("gui-profile-stop");
    ui::MainWindow window(ui::MainWindow::Options {false});
    ui::ProfileDialog* dialog = dialogForSleepingTarget(window, folder, QStringLiteral("stopped.rep"));
    REQUIRE(dialog->startButton()->isEnabled());

    QElapsedTimer clock;
    clock.start();
    QTest::mouseClick(dialog->startButton(), Qt::LeftButton);
    REQUIRE(QTest::qWaitFor(
        [&] { return dialog->runPane()->outputText().contains(QStringLiteral("Collecting data")); }, 30000));
    QTest::qWait(1500); // the target is asleep inside its NVTX range by now
    CHECK(dialog->run()->isRunning());
    CHECK(dialog->runPane()->statusText().contains(QStringLiteral("Collecting")));
    CHECK(dialog->runPane()->statusText().contains(QStringLiteral("elapsed")));
    CHECK_FALSE(dialog->startButton()->isEnabled());
    keepScreenshot(*dialog, "profile-dialog-running.png");
    QTest::mouseClick(dialog->stopButton(), Qt::LeftButton);

    REQUIRE(QTest::qWaitFor([&] { return window.reportCount() == 1 && reportShown(window, 0); }, 60000));
    CHECK(clock.elapsed() < 25000); // it did not sleep the 30 s out
    CHECK(window.report(0)->path() == pathText(std::filesystem::canonical(folder / "stopped.rep")));
    CHECK(window.report(0)->timeline()->trace().metadata.commandLine.size() >= 2);
    CHECK(dialog->runPane()->outputText().contains(QStringLiteral("SIGINT")));
    CHECK(dialog->runPane()->statusText().contains(QStringLiteral("Report written")));
    CHECK(dialog->runPane()->statusText().contains(QStringLiteral("exited with code 130"))); // 128 + SIGINT
}

TEST_CASE("a missing collector and a bad environment variable are shown inline and block Start")
{
    test::guiApp();
    const auto folder = test::scratchDir("gui-profile-inline");
    std::filesystem::create_directories(folder / "bin");
    const QString fakeSightline = test::writeTextFile(folder / "bin", "sightline", "#!/bin/sh\n");
    std::filesystem::permissions(folder / "bin" / "sightline", std::filesystem::perms::owner_all);
    ui::ProfileDialog dialog(nullptr, fakeSightline);
    ui::ProfileSettings settings;
    settings.executable = QStringLiteral(COLLECTOR_TARGET);
    settings.workingDirectory = pathText(folder);
    settings.environment = {{QStringLiteral("9LIVES"), QStringLiteral("x")}};
    dialog.setSettings(settings);
    dialog.show();
    REQUIRE(QTest::qWaitForWindowExposed(&dialog));
    CHECK(problemText(&dialog, "collectorProblem")
              .contains(QStringLiteral("libsightline-inject.so is missing")));
    CHECK(problemText(&dialog, "environmentProblem").startsWith(QStringLiteral("Row 1: '9LIVES'")));
    CHECK_FALSE(dialog.startButton()->isEnabled());
    dialog.startProfiling(); // refused
    CHECK(dialog.run() == nullptr);
}

TEST_CASE("closing the dialog during a run stops it once, gracefully, and the report still opens")
{
    test::guiApp();
    const auto folder = test::scratchDir("gui-profile-close");
    ui::MainWindow window(ui::MainWindow::Options {false});
    ui::ProfileDialog* dialog = dialogForSleepingTarget(window, folder);
    dialog->startProfiling();
    REQUIRE(QTest::qWaitFor(
        [&] { return dialog->runPane()->outputText().contains(QStringLiteral("Collecting data")); }, 30000));
    QTest::qWait(1000);
    dialog->close(); // the window's close button
    CHECK_FALSE(dialog->isVisible());
    REQUIRE(QTest::qWaitFor([&] { return window.reportCount() == 1 && reportShown(window, 0); }, 60000));
    // The automatic name: the program's name and the first free number.
    CHECK(
        window.report(0)->path() == pathText(std::filesystem::canonical(folder / "collector_target_1.rep")));
    const QString output = dialog->runPane()->outputText();
    CHECK(output.count(QStringLiteral("SIGINT")) == 1);
    CHECK_FALSE(output.contains(QStringLiteral("SIGTERM")));
}
