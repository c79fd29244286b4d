#include "screenshot.h"

#include "main_window.h"
#include "report_loader.h"
#include "report_tab.h"
#include "status_summary.h"
#include "views/timeline/timeline_view.h"

#include <QApplication>
#include <QFileInfo>
#include <QPainter>
#include <cstdio>

namespace sightline::ui {

namespace {

int fail(const QString& sentence)
{
    std::fprintf(stderr, "sightline-ui: %s\n", qPrintable(sentence));
    return 1;
}

// The offscreen platform warns about window features it lacks ("This plugin does not support
// raise()"); they mean nothing for a screenshot, so they are kept off stderr while it is taken.
class QuietPlatformWarnings
{
public:
    QuietPlatformWarnings() { s_previous = qInstallMessageHandler(&filter); }
    ~QuietPlatformWarnings() { qInstallMessageHandler(s_previous); }

private:
    static void filter(QtMsgType type, const QMessageLogContext& context, const QString& message)
    {
        if (type == QtWarningMsg && message.startsWith(QLatin1String("This plugin does not support"))) return;
        if (s_previous)
            s_previous(type, context, message);
        else
            std::fprintf(stderr, "%s\n", qPrintable(message));
    }
    static inline QtMessageHandler s_previous = nullptr;
};

// Lets queued layout and paint requests run so the window is in its final state.
void settle()
{
    for (int round = 0; round < 3; ++round)
        QApplication::processEvents();
}

} // namespace

QImage renderWidget(QWidget& widget)
{
    QImage image(widget.size(), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(1);
    image.fill(widget.palette().color(QPalette::Window));
    widget.render(&image);
    return image;
}

int runScreenshot(const ScreenshotOptions& options)
{
    const QString outputFolder = QFileInfo(options.outputPath).absolutePath();
    if (!QFileInfo(outputFolder).isDir())
        return fail(
            QStringLiteral("Cannot write the screenshot '%1': the folder '%2' does not exist; create it "
                           "or choose another OUT.png.")
                .arg(options.outputPath, outputFolder));

    LoadOutcome outcome = loadTraceFile(options.reportPath);
    if (outcome.status != LoadOutcome::Status::Loaded) return fail(outcome.error);
    const TimeRange span = outcome.trace->span;
    if (options.range && (options.range->end <= span.start || options.range->start >= span.end)) {
        const Duration resolution = std::max<Duration>(span.duration() / 1000, 1);
        return fail(QStringLiteral("The range '%1' lies outside '%2', which spans %3 to %4; choose START:END "
                                   "inside it.")
                        .arg(options.rangeText, options.reportPath, timestampText(span.start, resolution),
                            timestampText(span.end, resolution)));
    }

    const QuietPlatformWarnings quiet;
    MainWindow window(MainWindow::Options {.persistState = false});
    window.setAttribute(Qt::WA_DontShowOnScreen);
    window.resize(options.size);
    ReportTab* tab = window.showLoadedReport(options.reportPath, std::move(outcome.trace));
    window.show();
    window.resize(options.size);
    settle();
    if (options.range && tab->timeline()) tab->timeline()->setVisibleRange(*options.range);
    settle();

    const QImage image = renderWidget(window);
    if (image.size() != options.size)
        return fail(
            QStringLiteral("The window could not be laid out at %1x%2 (got %3x%4); try a larger --size.")
                .arg(options.size.width())
                .arg(options.size.height())
                .arg(image.width())
                .arg(image.height()));
    if (!image.save(options.outputPath, "PNG"))
        return fail(
            QStringLiteral("Cannot write the screenshot '%1'; check that the folder is writable and the "
                           "disk is not full.")
                .arg(options.outputPath));
    return 0;
}

} // namespace sightline::ui
