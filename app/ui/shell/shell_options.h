// The command line of sightline-ui: the reports to open, and the --screenshot mode that loads
// one report, lays out the main window and renders it to a PNG without showing it. Parsing
// never exits the process: a malformed command line yields one error sentence for the caller.
#pragma once

#include "model/common/result.h"
#include "model/core/time.h"

#include <QSize>
#include <QString>
#include <QStringList>
#include <optional>

namespace sightline::ui {

// What --screenshot shows: the timeline; the timeline with the Events View listing every
// kernel and memory operation, longest first; the Analysis Summary; the Expert pane under
// the timeline with its first finding chosen (the timeline zoomed to its evidence, the Events
// View listing it); or the Call Stacks pane under the timeline, its hottest leaf function's
// callers opened.
enum class ScreenshotView : uint8_t { Timeline, Events, Summary, Expert, CallStacks };

struct ScreenshotOptions
{
    QString outputPath;
    QString reportPath;
    QSize size {1600, 1000}; // logical pixels; the PNG has exactly this size
    // The visible range (the whole trace when absent); the Events View lists the events
    // overlapping it, and the Analysis Summary's statistics and the Expert view's findings cover
    // the events starting in it.
    std::optional<TimeRange> range;
    QString rangeText; // as typed, for messages
    ScreenshotView view = ScreenshotView::Timeline;
    // Shows the report's overview (format 1.2, model/format/report_overview.h) as the viewer
    // paints it while the report's events load, instead of the report (timeline only).
    bool overview = false;
};

struct ShellOptions
{
    QStringList files; // reports to open in tabs, in order
    // --memory-budget, else SIGHTLINE_MEMORY_BUDGET (app/ui/common/memory_budget.h).
    std::optional<uint64_t> memoryBudget;
    std::optional<ScreenshotOptions> screenshot;
    bool showHelp = false;
    bool showVersion = false;
    QString helpText;
};

// Parses `arguments` (arguments[0] is the program name); fails with one sentence when the
// command line is unusable. Needs no QApplication, so main() can answer --help and errors
// without a display and pick the offscreen platform for --screenshot. Qt's own options (-platform NAME,
// -style NAME, ...) are accepted and ignored here; QApplication applies them.
Result<ShellOptions> parseShellOptions(const QStringList& arguments);

} // namespace sightline::ui
