#include "app/ui/shell/screenshot.h"

#include "app/ui/document/report_loader.h"
#include "app/ui/report/report_tab.h"
#include "app/ui/shell/main_window.h"
#include "app/ui/shell/status_summary.h"
#include "model/format/report_io.h"
#include "views/callstack/call_stack_view.h"
#include "views/events/events_table_model.h"
#include "views/events/events_view.h"
#include "views/expert/expert_view.h"
#include "views/pagedevents/paged_events_view.h"
#include "views/summary/analysis_summary.h"
#include "views/timeline/widgets/timeline_view.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLocale>
#include <QPainter>
#include <QTreeView>
#include <cstdio>
#include <functional>

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

// Runs the event loop until `busy` no longer holds (a view's background work has shown its
// result); false when it still holds after `limitMs`.
bool waitWhile(const std::function<bool()>& busy, qint64 limitMs)
{
    QElapsedTimer clock;
    clock.start();
    while (busy()) {
        if (clock.elapsed() > limitMs) return false;
        QApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    }
    return true;
}

constexpr qint64 kViewWorkLimitMs = 10 * 60 * 1000;

// The Events View under the timeline listing every kernel and memory operation (overlapping
// the range, when there is one), longest first, with the longest selected.
bool showLongestGpuWork(ReportTab& tab, const std::optional<TimeRange>& range)
{
    views::EventsView& events = *tab.eventsView();
    views::EventsRequest request;
    const Trace& trace = events.trace();
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
        const TrackKind kind = trace.tracks[t].key.kind;
        if (kind == TrackKind::Kernels || kind == TrackKind::Memory)
            request.source.tracks.push_back(TrackId(t));
    }
    request.source.range = range;
    events.sortBy(views::EventColumn::Duration, Qt::DescendingOrder);
    tab.showEventsRequest(request);
    if (!waitWhile([&] { return events.isBusy(); }, kViewWorkLimitMs)) return false;
    // Selected on the timeline without moving it (the row follows): the visible range stays put.
    if (events.listedCount() > 0) tab.timeline()->selectEvent(events.model()->eventAt(0), false);
    return true;
}

// Under the overview, the Events View of the largest kernel track read from the file (what a
// report over the memory budget lists), longest first, its first screen read.
bool showLongestKernelsFromFile(ReportTab& tab, const LoadOutcome& overview)
{
    const Trace& trace = tab.timeline()->trace();
    std::vector<TrackId> kernels;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t)
        if (trace.tracks[t].key.kind == TrackKind::Kernels) kernels.push_back(TrackId(t));
    if (kernels.empty() || !overview.batches) return true; // nothing to list: the timeline alone
    tab.showTrackEventsFromFile(kernels);
    if (!waitWhile([&] { return tab.isOpeningTrackEvents(); }, kViewWorkLimitMs)) return false;
    if (!tab.trackEventsView()) return true; // the line above the timeline says why
    views::PagedEventsView& events = *tab.trackEventsView();
    if (!waitWhile([&] { return events.isBusy(); }, kViewWorkLimitMs)) return false;
    events.sortBy(views::EventColumn::Duration, Qt::DescendingOrder);
    if (!waitWhile([&] { return events.isBusy(); }, kViewWorkLimitMs)) return false;
    settle();
    return waitWhile([&] { return !events.showsPage(); }, kViewWorkLimitMs);
}

// The Analysis Summary; with a range, its statistics cover the events starting in it.
bool showSummary(ReportTab& tab, const std::optional<TimeRange>& range)
{
    if (range) tab.timeline()->setSelection(*range);
    tab.setCurrentView(ReportView::Summary);
    views::AnalysisSummary& summary = *tab.summary();
    if (range) summary.setScope(views::AnalysisSummary::Scope::Selection);
    return waitWhile([&] { return summary.isBusy(); }, kViewWorkLimitMs);
}

// The Expert pane over the Events View under the timeline, its first finding chosen: the
// timeline zoomed to the finding's evidence, the Events View listing it. With a range, the
// analysis covers the events starting in it.
bool showExpert(ReportTab& tab, const std::optional<TimeRange>& range)
{
    if (range) tab.timeline()->setSelection(*range);
    tab.setEventsPaneShown(true);
    tab.setExpertPaneShown(true);
    views::ExpertView& expert = *tab.expert();
    if (!waitWhile([&] { return expert.isBusy() || !expert.result(); }, kViewWorkLimitMs)) return false;
    if (!expert.selectFinding(0)) return true; // nothing found: the verdict alone
    const views::EventsView& events = *tab.eventsView();
    return waitWhile([&] { return events.isBusy(); }, kViewWorkLimitMs);
}

// The Call Stacks pane under the timeline: the bottom-up tree of the samples (in the range, when
// there is one) with its first row, the hottest leaf function, opened along its hottest callers.
bool showCallStacks(ReportTab& tab, const std::optional<TimeRange>& range)
{
    constexpr int kOpenedCallers = 3;
    if (range) tab.timeline()->setSelection(*range);
    tab.setCallStacksPaneShown(true);
    views::CallStackView* callStacks = tab.callStacks();
    if (!callStacks) return true; // no CPU samples: the timeline alone
    if (!waitWhile([&] { return callStacks->isBusy() || !callStacks->trees(); }, kViewWorkLimitMs))
        return false;
    QTreeView* bottomUp = callStacks->treeView(views::CallStackView::Tab::BottomUp);
    QAbstractItemModel* model = bottomUp->model();
    QModelIndex row = model->index(0, 0);
    for (int depth = 0; depth < kOpenedCallers && model->hasChildren(row); ++depth) {
        if (model->canFetchMore(row)) model->fetchMore(row);
        bottomUp->expand(row);
        row = model->index(0, 0, row);
    }
    return true;
}

// The report, or with `overview` its overview; Failed with one sentence when neither can be shown.
LoadOutcome loadForScreenshot(const QString& path, bool overview)
{
    if (!overview) return loadTraceFile(path);
    if (std::optional<LoadOutcome> read = loadReportOverview(path)) return *read;
    LoadOutcome none;
    if (!looksLikeReport(path.toStdString())) {
        none.error
            = QStringLiteral("'%1' is not a Sightline report (.rep), so it stores no overview; leave out "
                             "--overview to open it.")
                  .arg(path);
        return none;
    }
    none.error
        = QStringLiteral("'%1' stores no overview (reports of format 1.2 store one from %2 events on; "
                         "older, smaller or cut reports open whole); leave out --overview, or rewrite a "
                         "large older report with 'sightline import %1 -o NEW.rep'.")
              .arg(path, QLocale().toString(qulonglong(WriteOptions {}.overviewFromEvents)));
    return none;
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

    LoadOutcome outcome = loadForScreenshot(options.reportPath, options.overview);
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
    ReportTab* tab = window.showLoadedReport(options.reportPath, outcome.trace);
    if (outcome.overview) tab->showOverview(outcome);
    window.show();
    window.resize(options.size);
    settle();
    if (options.range) tab->timeline()->setVisibleRange(*options.range);
    const bool ready = options.view == ScreenshotView::Events
        ? (outcome.overview ? showLongestKernelsFromFile(*tab, outcome)
                            : showLongestGpuWork(*tab, options.range))
        : options.view == ScreenshotView::Summary    ? showSummary(*tab, options.range)
        : options.view == ScreenshotView::Expert     ? showExpert(*tab, options.range)
        : options.view == ScreenshotView::CallStacks ? showCallStacks(*tab, options.range)
                                                     : true;
    if (!ready)
        return fail(QStringLiteral("The view of '%1' was still computing after %2 minutes; try a smaller "
                                   "--range or the timeline view.")
                        .arg(options.reportPath)
                        .arg(kViewWorkLimitMs / 60000));
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
