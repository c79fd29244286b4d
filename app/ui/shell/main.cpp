// sightline-ui: the viewer. Opens the reports named on the command line in tabs, or with
// --screenshot renders the main window for one report to a PNG and exits.
#include "app/ui/common/memory_budget.h"
#include "app/ui/shell/main_window.h"
#include "app/ui/shell/screenshot.h"
#include "app/ui/shell/shell_options.h"

#include <QApplication>
#include <cstdio>

int main(int argc, char** argv)
{
    QApplication::setOrganizationName(QStringLiteral("Sightline"));
    QApplication::setApplicationName(QStringLiteral("sightline-ui"));
    QApplication::setApplicationVersion(QStringLiteral(SIGHTLINE_VERSION));

    // The command line is read before any display is needed: --help, --version and mistakes
    // are answered on a machine without one.
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments.append(QString::fromLocal8Bit(argv[i]));
    const sightline::Result<sightline::ui::ShellOptions> parsed = sightline::ui::parseShellOptions(arguments);
    if (!parsed) {
        std::fprintf(stderr, "sightline-ui: %s\n", parsed.error().c_str());
        return 1;
    }
    const sightline::ui::ShellOptions& options = parsed.value();
    if (options.showHelp) {
        std::fputs(qPrintable(options.helpText), stdout);
        return 0;
    }
    if (options.showVersion) {
        std::printf("sightline-ui %s\n", SIGHTLINE_VERSION);
        return 0;
    }
    if (options.memoryBudget) sightline::ui::setMemoryBudget(*options.memoryBudget);
    // A screenshot needs no display: use the offscreen platform unless one was chosen.
    if (options.screenshot && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication::setHighDpiScaleFactorRoundingPolicy(Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);

    QApplication app(argc, argv);
    QGuiApplication::setDesktopFileName(QStringLiteral("sightline-ui"));
    if (options.screenshot) return sightline::ui::runScreenshot(*options.screenshot);

    sightline::ui::MainWindow window;
    window.show();
    window.openReports(options.files);
    return QApplication::exec();
}
