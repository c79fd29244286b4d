#include "shell_test_support.h"

#include "generate.h"
#include "model/format/report_io.h"
#include "test_paths.h"

#include <QApplication>
#include <QMessageBox>
#include <QTest>
#include <fstream>
#include <stdexcept>

namespace sightline::test {

QApplication& guiApp()
{
    static const bool redirected = [] {
        // Recent files and window state go to a folder of this process only.
        const auto config
            = scratchDir("gui-shell-settings-" + std::to_string(QCoreApplication::applicationPid()));
        qputenv("XDG_CONFIG_HOME", QByteArray::fromStdString(config.string()));
        QApplication::setOrganizationName(QStringLiteral("SightlineTests"));
        QApplication::setApplicationName(QStringLiteral("test_gui_shell"));
        return true;
    }();
    (void)redirected;
    auto* app = qobject_cast<QApplication*>(QCoreApplication::instance());
    if (!app) throw std::logic_error("the GUI tests' main must create a QApplication");
    return *app;
}

std::filesystem::path guiScratch(const std::string& testName)
{
    return scratchDir("gui-shell-" + testName);
}

QString writeGeneratedReport(
    const std::filesystem::path& folder, const std::string& name, uint64_t events, uint64_t seed)
{
    gen::GeneratorOptions options;
    options.events = events;
    options.seed = seed;
    const std::string problem = gen::checkOptions(options);
    if (!problem.empty()) throw std::runtime_error(problem);
    const Trace trace = gen::generateTrace(options);
    const auto path = folder / name;
    const std::string error = writeReport(trace, path.string()).error();
    if (!error.empty()) throw std::runtime_error(error);
    return QString::fromStdString(path.string());
}

QString writeTextFile(const std::filesystem::path& folder, const std::string& name, const std::string& text)
{
    const auto path = folder / name;
    std::ofstream(path, std::ios::binary) << text;
    return QString::fromStdString(path.string());
}

bool waitUntil(const std::function<bool()>& done, int timeoutMs)
{
    return QTest::qWaitFor(done, timeoutMs);
}

QMessageBox* waitForErrorDialog(QWidget& window, int timeoutMs)
{
    QMessageBox* box = nullptr;
    waitUntil(
        [&] {
            box = window.findChild<QMessageBox*>(QStringLiteral("loadErrorDialog"));
            return box != nullptr;
        },
        timeoutMs);
    return box;
}

} // namespace sightline::test
