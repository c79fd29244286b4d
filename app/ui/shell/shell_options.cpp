#include "app/ui/shell/shell_options.h"

#include "app/ui/common/memory_budget.h"
#include "model/text/time_text.h"

#include <QCommandLineParser>
#include <QRegularExpression>

namespace sightline::ui {

namespace {

constexpr int kMinimumSide = 64;
constexpr int kMaximumSide = 16384;

std::optional<QSize> parseSize(const QString& text)
{
    static const QRegularExpression pattern(QStringLiteral("^(\\d{1,5})[xX](\\d{1,5})$"));
    const auto match = pattern.match(text);
    if (!match.hasMatch()) return std::nullopt;
    const QSize size(match.captured(1).toInt(), match.captured(2).toInt());
    const auto inBounds = [](int side) { return side >= kMinimumSide && side <= kMaximumSide; };
    if (!inBounds(size.width()) || !inBounds(size.height())) return std::nullopt;
    return size;
}

// Options that QApplication understands itself (see QGuiApplication and QApplication): known
// to the parser so that they are not rejected, hidden from --help, and otherwise ignored.
void addQtOptions(QCommandLineParser& parser)
{
    const char* const withValue[]
        = {"platform", "platformpluginpath", "platformtheme", "plugin", "qwindowgeometry", "qwindowicon",
            "qwindowtitle", "style", "stylesheet", "display", "geometry", "widgetcount"};
    for (const char* name : withValue) {
        QCommandLineOption option(QString::fromLatin1(name), QString(), QStringLiteral("value"));
        option.setFlags(QCommandLineOption::HiddenFromHelp);
        parser.addOption(option);
    }
    for (const char* name : {"reverse", "nograb", "dograb", "sync"}) {
        QCommandLineOption option(QString::fromLatin1(name));
        option.setFlags(QCommandLineOption::HiddenFromHelp);
        parser.addOption(option);
    }
}

std::optional<ScreenshotView> parseScreenshotView(const QString& name)
{
    if (name == QLatin1String("timeline")) return ScreenshotView::Timeline;
    if (name == QLatin1String("events")) return ScreenshotView::Events;
    if (name == QLatin1String("summary")) return ScreenshotView::Summary;
    if (name == QLatin1String("expert")) return ScreenshotView::Expert;
    if (name == QLatin1String("callstacks")) return ScreenshotView::CallStacks;
    return std::nullopt;
}

QString usageHint()
{
    return QStringLiteral("; run 'sightline-ui --help' for the options.");
}

Status failure(const QString& sentence)
{
    return Status::failure(sentence.toStdString());
}

// Fills options.screenshot from the parser.
Status readScreenshotOptions(const QCommandLineParser& parser, const QCommandLineOption& screenshot,
    const QCommandLineOption& size, const QCommandLineOption& range, const QCommandLineOption& view,
    const QCommandLineOption& overview, ShellOptions& options)
{
    if (!parser.isSet(screenshot)) {
        for (const auto* option : {&size, &range, &view, &overview}) {
            if (parser.isSet(*option))
                return failure(
                    QStringLiteral("The option --%1 only applies together with --screenshot OUT.png")
                        .arg(option->names().constFirst())
                    + usageHint());
        }
        return {};
    }
    ScreenshotOptions shot;
    shot.outputPath = parser.value(screenshot);
    if (options.files.size() != 1)
        return failure(
            QStringLiteral("--screenshot needs exactly one report file (given: %1)").arg(options.files.size())
            + usageHint());
    shot.reportPath = options.files.constFirst();
    options.files.clear();
    if (parser.isSet(size)) {
        const auto parsed = parseSize(parser.value(size));
        if (!parsed)
            return failure(
                QStringLiteral("The size '%1' is not WIDTHxHEIGHT with sides from %2 to %3 pixels, "
                               "e.g. --size 1920x1080.")
                    .arg(parser.value(size))
                    .arg(kMinimumSide)
                    .arg(kMaximumSide));
        shot.size = *parsed;
    }
    if (parser.isSet(range)) {
        const auto parsed = parseTimeRange(parser.value(range).toStdString());
        if (!parsed || parsed->empty())
            return failure(
                QStringLiteral("The range '%1' is not START:END with END after START, "
                               "e.g. --range 1.2s:1.25s (units ns, us, ms, s; plain numbers are ns).")
                    .arg(parser.value(range)));
        shot.range = *parsed;
        shot.rangeText = parser.value(range);
    }
    if (parser.isSet(view)) {
        const auto parsed = parseScreenshotView(parser.value(view));
        if (!parsed)
            return failure(QStringLiteral(
                "The view '%1' is unknown; choose timeline, events, callstacks, summary or expert.")
                               .arg(parser.value(view)));
        shot.view = *parsed;
    }
    shot.overview = parser.isSet(overview);
    if (shot.overview && shot.view != ScreenshotView::Timeline && shot.view != ScreenshotView::Events)
        return failure(
            QStringLiteral("--overview shows the timeline and the events view only (the other views "
                           "need the report's events); leave out --view %1")
                .arg(parser.value(view))
            + usageHint());
    options.screenshot = shot;
    return {};
}

} // namespace

Result<ShellOptions> parseShellOptions(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Sightline: an open CUDA timeline profiler (viewer)."));
    const QCommandLineOption help(
        {QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help and exit."));
    const QCommandLineOption version(
        {QStringLiteral("v"), QStringLiteral("version")}, QStringLiteral("Show the version and exit."));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
        QStringLiteral("Load FILE, render the main window to the PNG OUT without showing it, and exit."),
        QStringLiteral("OUT"));
    const QCommandLineOption size(QStringLiteral("size"),
        QStringLiteral("Window size for --screenshot (default 1600x1000)."), QStringLiteral("WxH"));
    const QCommandLineOption range(QStringLiteral("range"),
        QStringLiteral("Visible time range for --screenshot, e.g. 1.2s:1.25s (ns, us, ms, s)."),
        QStringLiteral("START:END"));
    const QCommandLineOption view(QStringLiteral("view"),
        QStringLiteral("The view shown by --screenshot: timeline (default), events (the Events View "
                       "under the timeline: kernels and memory operations, longest first), summary "
                       "(the Analysis Summary; with --range, its statistics cover that range), expert "
                       "(the Expert view with its first finding chosen; with --range, it analyses that "
                       "range) or callstacks (the Call Stacks pane under the timeline, the hottest leaf "
                       "function's callers opened; with --range, the samples in that range)."),
        QStringLiteral("NAME"));
    const QCommandLineOption overview(QStringLiteral("overview"),
        QStringLiteral("With --screenshot: show the report's overview (stored in reports of format 1.2 "
                       "and later) as the viewer paints it while the report's events load, instead of "
                       "the report itself; with --view events, under it the Events View of its largest "
                       "kernel track read from the file, longest first, as over the memory budget."));
    const QCommandLineOption budget(QStringLiteral("memory-budget"),
        QStringLiteral("Memory one report's events may take (default: a quarter of this machine's, or "
                       "SIGHTLINE_MEMORY_BUDGET), e.g. 8G. A larger report opens as its overview, and "
                       "the time ranges you choose load within the budget."),
        QStringLiteral("SIZE"));
    parser.addOptions({help, version, screenshot, size, range, view, overview, budget});
    addQtOptions(parser);
    // "-platform offscreen" is one option, as Qt spells its own, not six single-letter ones.
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addPositionalArgument(QStringLiteral("FILES"),
        QStringLiteral("Reports to open (.rep, Nsight Systems SQLite, PyTorch JSON)."),
        QStringLiteral("[FILES...]"));

    ShellOptions options;
    // Qt names the program after argv[0], unknown before the QApplication exists: say it here.
    const QString qtHelp = parser.helpText();
    options.helpText = QStringLiteral("Usage: sightline-ui [options] [FILES...]")
        + qtHelp.mid(qtHelp.indexOf(QLatin1Char('\n')))
        + QStringLiteral("\nExamples:\n  sightline-ui run1.rep other.sqlite\n"
                         "  sightline-ui --screenshot shot.png --size 1920x1080 --range 1.2s:1.25s run1.rep\n"
                         "  sightline-ui --screenshot events.png --view events run1.rep\n");
    if (!parser.parse(arguments)) {
        QString error = parser.errorText().trimmed();
        if (error.endsWith(QLatin1Char('.'))) error.chop(1);
        return Result<ShellOptions>::failure(QString(error + usageHint()).toStdString());
    }
    options.showHelp = parser.isSet(help);
    options.showVersion = parser.isSet(version);
    options.files = parser.positionalArguments();
    const QString budgetText = parser.isSet(budget)
        ? parser.value(budget)
        : QString::fromLocal8Bit(qgetenv("SIGHTLINE_MEMORY_BUDGET"));
    if (!budgetText.isEmpty()) {
        const Result<uint64_t> bytes = parseMemorySize(budgetText,
            parser.isSet(budget) ? QStringLiteral("--memory-budget")
                                 : QStringLiteral("SIGHTLINE_MEMORY_BUDGET"));
        if (!bytes) return Result<ShellOptions>::failure(bytes.error());
        options.memoryBudget = bytes.value();
    }
    if (Status read = readScreenshotOptions(parser, screenshot, size, range, view, overview, options); !read)
        return Result<ShellOptions>::failure(read.error());
    return options;
}

} // namespace sightline::ui
