// bench_first_paint: the time from opening a report to the first complete frame of its whole
// timeline, the figure issue #20 asks to be independent of the report's size. For each report
// given (write them first, e.g. `sightline-gen --events 100M -o big.rep`), with the file cold
// (its pages dropped from the page cache by posix_fadvise) and warm, it times:
//   overview: readReportOverview, a TimelineView of 1920x1080 over it, one layout and paint;
//   full (with --full): readReport whole (what the viewer waited for before the overview), the
//   same view and frame.
// Prints the median of each, the ratio of every report's figure to the first report's, the
// resident memory and the overview's stand-in count. With --frames, the frame time of panning
// the overview at three zoom levels (what the viewer shows of a report over its memory budget);
// with --zoom-curve, the resident memory along a scripted zoom of the last report from its whole
// span to 1 us and back, reading a range of events wherever it fits the budget (--budget SIZE in
// MiB, default 8192), as Load Range does. Asserts nothing.
#include "bench_support.h"
#include "model/derived/projected_nvtx_tracks.h"
#include "model/format/report_io.h"
#include "model/format/report_overview.h"
#include "model/text/time_text.h"
#include "timeline_frames.h"
#include "views/timeline/interaction/timeline_state.h"
#include "views/timeline/widgets/timeline_canvas.h"
#include "views/timeline/widgets/timeline_view.h"

#include <QApplication>
#include <cstdlib>
#include <fcntl.h>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using namespace sightline;
using namespace sightline::bench;

constexpr int kWidth = 1920;
constexpr int kHeight = 1080;
constexpr int kColdRuns = 3;
constexpr int kWarmRuns = 5;

constexpr const char* kUsage
    = R"(Usage: bench_first_paint [--full] [--frames] [--zoom-curve [--budget MIB]] REPORT.rep...

Prints the time from opening each report to the first complete frame of its whole timeline at
1920x1080 (offscreen), with the file cold in the page cache and warm: from the report's stored
overview (format 1.2), and with --full from the whole report decoded first. Ratios are to the
first report given. Write the reports first, e.g. sightline-gen --events 1M -o small.rep.
--frames adds the frame time of panning each overview at three zoom levels; --zoom-curve prints
the resident memory along a zoom of the last report from its whole span to 1 us and back,
reading the events of the window wherever they fit the budget (MiB, default 8192).
)";

// Drops the file's pages from the page cache (they are clean, so the kernel lets them go).
bool dropFromPageCache(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) return false;
    const bool dropped = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
    ::close(fd);
    return dropped;
}

// Shows `trace` in a view and draws its first frame, zoomed out.
void paintFirstFrame(std::shared_ptr<const Trace> trace)
{
    views::TimelineView view(std::move(trace));
    view.resize(kWidth, kHeight);
    view.setAllRowsExpanded(true);
    view.show();
    QApplication::processEvents();
    view.canvas()->layOut();
    view.canvas()->paintFrame();
}

struct Opened
{
    std::shared_ptr<const Trace> trace;
    uint64_t events = 0;
    double readSeconds = 0; // of the whole run, reading the report
};

// One run: open, view, first frame. Returns the seconds, or a negative value on failure.
double timeFirstPaint(const std::string& path, bool full, Opened& opened)
{
    Stopwatch clock;
    if (full) {
        Result<Trace> read = readReport(path);
        if (!read) {
            std::fprintf(stderr, "bench_first_paint: %s\n", read.error().c_str());
            return -1;
        }
        addProjectedNvtxTracks(read.value());
        opened.events = read->eventCount();
        opened.trace = std::make_shared<const Trace>(std::move(read.value()));
    } else {
        Result<std::optional<ReportOverview>> read = readReportOverview(path);
        if (!read || !read->has_value()) {
            std::fprintf(stderr, "bench_first_paint: %s\n",
                read ? ("'" + path + "' stores no overview; rewrite it with 'sightline import'.").c_str()
                     : read.error().c_str());
            return -1;
        }
        opened.events = read.value()->events;
        opened.trace = std::make_shared<const Trace>(std::move(read.value()->trace));
    }
    opened.readSeconds = clock.seconds();
    paintFirstFrame(opened.trace);
    return clock.seconds();
}

// Pans the overview of `path` at three zoom levels, as bench_timeline pans a report, and adds
// each level's frame p50 / p99 to the table.
void addFrameTimes(const std::string& path, FigureTable& table, size_t column)
{
    Opened opened;
    if (timeFirstPaint(path, false, opened) < 0) return;
    views::TimelineView view(opened.trace);
    view.resize(kWidth, kHeight);
    view.setAllRowsExpanded(true);
    view.show();
    QApplication::processEvents();
    for (const ZoomLevel& zoom : kZoomLevels) {
        const FrameTimes times = measureFrames(view, *opened.trace, zoom.fraction);
        table.set(std::string("overview, ") + zoom.name + ": frame p50 / p99 (ms)", "p99 <= 8.3", column,
            atMost(times.frame.p99 / 1e6, 8.3,
                format("%.2f / %.2f", times.frame.p50 / 1e6, times.frame.p99 / 1e6)));
    }
}

// Zooms from the whole span of `path` to 1 us around a third of it and back, a decade a step.
// Wherever the window's events fit `budget` bytes (ReportOverview::eventsStartingIn times
// kResidentBytesPerEvent) it reads them (a startsIn read, what Load Range does) and shows them,
// else it shows the overview; prints each step's frame time and the resident memory.
int printZoomCurve(const std::string& path, uint64_t budget)
{
    Result<std::optional<ReportOverview>> read = readReportOverview(path);
    if (!read || !read->has_value()) {
        std::fprintf(stderr, "bench_first_paint: '%s' stores no overview.\n", path.c_str());
        return 1;
    }
    ReportOverview overview = std::move(*read.value());
    const auto pictured = std::make_shared<const Trace>(std::move(overview.trace));
    const TimeRange span = pictured->span;
    const Timestamp centre = span.start + span.duration() / 3;
    std::vector<Duration> widths;
    for (Duration width = span.duration(); width > 1000; width /= 10)
        widths.push_back(width);
    widths.push_back(1000);
    for (size_t i = widths.size() - 1; i-- > 0;)
        widths.push_back(widths[i]);

    std::printf(
        "\nResident memory along a zoom of %s from its whole span to 1 us and back (budget %.0f MiB):\n\n",
        path.c_str(), double(budget) / (1 << 20));
    std::printf("| %-14s | %-34s | %10s | %10s |\n", "Window", "Shown", "Frame", "Resident");
    std::printf("|%s|%s|%s|%s|\n", std::string(16, '-').c_str(), std::string(36, '-').c_str(),
        std::string(12, '-').c_str(), std::string(12, '-').c_str());
    std::shared_ptr<const Trace> range; // the events of the window read last, if any
    TimeRange rangeWindow; // where `range` was read
    std::unique_ptr<views::TimelineView> view;
    const Trace* shown = nullptr;
    for (const Duration width : widths) {
        const TimeRange window {
            std::max(span.start, centre - width / 2), std::max(span.start, centre - width / 2) + width};
        const uint64_t events = overview.eventsStartingIn(window);
        const bool fits = width < span.duration() && events <= budget / kResidentBytesPerEvent;
        Stopwatch clock;
        if (fits && !(range && rangeWindow.start <= window.start && window.end <= rangeWindow.end)) {
            ReadOptions options;
            options.select.startsIn = window;
            Result<Trace> decoded = readReport(path, options);
            if (!decoded) {
                std::fprintf(stderr, "bench_first_paint: %s\n", decoded.error().c_str());
                return 1;
            }
            view.reset();
            range = std::make_shared<const Trace>(std::move(decoded.value()));
            rangeWindow = window;
        } else if (!fits && range) {
            view.reset();
            range.reset();
        }
        const std::shared_ptr<const Trace>& source = range ? range : pictured;
        if (!view || shown != source.get()) {
            view = std::make_unique<views::TimelineView>(source);
            view->resize(kWidth, kHeight);
            view->setAllRowsExpanded(true);
            view->show();
            QApplication::processEvents();
            shown = source.get();
        }
        view->state().setVisible(window, views::HistoryMode::Skip);
        view->canvas()->layOut();
        view->canvas()->paintFrame();
        const double ms = clock.seconds() * 1e3;
        releaseFreeMemory();
        const std::string what = range ? "events read: " + shortCount(range->eventCount()) : "overview";
        std::printf("| %-14s | %-34s | %7.1f ms | %6.0f MiB |\n", formatDuration(width).c_str(), what.c_str(),
            ms, double(residentSetBytes()) / (1 << 20));
    }
    return 0;
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[values.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    bool full = false, frames = false, zoomCurve = false;
    uint64_t budget = uint64_t(8192) << 20;
    std::vector<std::string> reports;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "-h" || arg == "--help") {
            std::fputs(kUsage, stdout);
            return 0;
        }
        if (arg == "--full")
            full = true;
        else if (arg == "--frames")
            frames = true;
        else if (arg == "--zoom-curve")
            zoomCurve = true;
        else if (arg == "--budget" && i + 1 < argc)
            budget = uint64_t(std::max(1, std::atoi(argv[++i]))) << 20;
        else if (arg.starts_with("-")) {
            std::fprintf(stderr, "bench_first_paint: unknown option %s; see --help.\n", arg.c_str());
            return 2;
        } else
            reports.push_back(arg);
    }
    if (reports.empty()) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication::setAttribute(Qt::AA_Use96Dpi);
    QApplication app(argc, argv);

    std::vector<std::string> columns;
    for (const std::string& path : reports)
        columns.push_back(path.substr(path.find_last_of('/') + 1));
    FigureTable table(columns);
    std::vector<bool> modes {false};
    if (full) modes.push_back(true);
    std::vector<double> firstCold(2), firstWarm(2);
    for (size_t column = 0; column < reports.size(); ++column) {
        const std::string& path = reports[column];
        for (const bool whole : modes) {
            const std::string what = whole ? "full read" : "overview";
            std::vector<double> cold, warm, warmRead;
            Opened opened;
            uint64_t peak = 0;
            for (int run = 0; run < kColdRuns + kWarmRuns; ++run) {
                const bool isCold = run < kColdRuns;
                if (isCold && !dropFromPageCache(path))
                    std::fprintf(
                        stderr, "bench_first_paint: cannot drop '%s' from the page cache.\n", path.c_str());
                opened = {};
                releaseFreeMemory();
                const double seconds = timeFirstPaint(path, whole, opened);
                if (seconds < 0) return 1;
                peak = std::max(peak, residentSetBytes());
                (isCold ? cold : warm).push_back(seconds);
                if (!isCold) warmRead.push_back(opened.readSeconds);
            }
            const double c = median(cold), w = median(warm);
            table.set("events in the report", "-", column, infoCell(shortCount(opened.events)));
            if (!whole)
                table.set(
                    "overview: stand-ins", "-", column, infoCell(shortCount(opened.trace->eventCount())));
            table.set(what + ": first paint, cold (ms)", "-", column, infoCell(format("%.1f", c * 1e3)));
            table.set(what + ": first paint, warm (ms)", "-", column, infoCell(format("%.1f", w * 1e3)));
            table.set(what + ": of which reading, warm (ms)", "-", column,
                infoCell(format("%.1f", median(warmRead) * 1e3)));
            table.set(
                what + ": resident (MiB)", "-", column, infoCell(format("%.0f", double(peak) / (1 << 20))));
            if (column == 0) {
                firstCold[whole] = c;
                firstWarm[whole] = w;
            } else if (!whole) {
                table.set("overview: cold vs " + columns[0], "<= 2x", column,
                    atMost(c / firstCold[0], 2.0, format("%.2fx", c / firstCold[0])));
                table.set("overview: warm vs " + columns[0], "<= 2x", column,
                    atMost(w / firstWarm[0], 2.0, format("%.2fx", w / firstWarm[0])));
            } else {
                table.set("full read: warm vs " + columns[0], "-", column,
                    infoCell(format("%.2fx", w / firstWarm[1])));
            }
            opened = {};
        }
        if (frames) addFrameTimes(path, table, column);
    }
    std::printf(
        "Time to the first frame of the whole timeline at %dx%d (median of %d cold and %d warm runs)\n",
        kWidth, kHeight, kColdRuns, kWarmRuns);
    table.print(stdout);
    return zoomCurve ? printZoomCurve(reports.back(), budget) : 0;
}
