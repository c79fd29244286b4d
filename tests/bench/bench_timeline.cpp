// bench_timeline: the timeline's frame time. For generated reports (default 1M, 10M and 100M
// events, generated in memory, never written), a TimelineView of 1920x1080 on the offscreen
// platform with compact rows, all expanded (about 100 lanes on screen) is drawn fully zoomed out, at 1/1000
// and at 1/10^6 of the span. Each frame shows a different window (the view pans 3 pixels
// right, then 1.5 back, as a drag does): the canvas moves the last frame and lays out and
// paints only the columns the pan exposes (--no-scroll: every frame whole, from the model's
// queries; the cost of a zoom step). Prints
// layout, paint and frame (layout + paint) p50/p99 against the 120 Hz target, the whole-window
// render time, resident memory and the 100M/1M frame time ratio. Asserts nothing.
#include "bench_support.h"
#include "generate.h"
#include "timeline_frames.h"
#include "views/timeline/interaction/timeline_state.h"
#include "views/timeline/widgets/timeline_canvas.h"
#include "views/timeline/widgets/timeline_view.h"

#include <QApplication>
#include <QImage>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace sightline;
using namespace sightline::bench;

constexpr int kWidth = 1920;
constexpr int kHeight = 1080;
constexpr int kLaneHeight = 10;
constexpr double kFrameTargetMs = 8.3;

constexpr const char* kUsage
    = R"(Usage: bench_timeline [--events N[,N...]] [--serial] [--no-tiles] [--no-scroll] [--zoom whole|1e-3|1e-6]

Prints the timeline's frame time (layout + paint) at 1920x1080 for generated reports of the
given sizes (default 1M,10M,100M; suffixes k and M), fully zoomed out, at 1/1000 and at 1/10^6
of the span. --serial lays lanes out on one thread instead of the thread pool; --no-tiles
queries the model for every dense lane in every frame instead of reusing cached tiles;
--no-scroll lays out and paints every frame whole instead of moving the last one;
--zoom measures one zoom level only (for profiling).
)";

struct Settings
{
    std::vector<uint64_t> sizes {1000000, 10000000, 100000000};
    bool serial = false;
    bool tiles = true;
    bool scroll = true;
    std::optional<int> onlyZoom; // index into kZoomLevels
};

bool parseArguments(int argc, char** argv, Settings& settings)
{
    for (int i = 1; i < argc; ++i) {
        const std::string name = argv[i];
        if (name == "-h" || name == "--help") {
            std::fputs(kUsage, stdout);
            std::exit(0);
        } else if (name == "--serial") {
            settings.serial = true;
        } else if (name == "--no-tiles") {
            settings.tiles = false;
        } else if (name == "--no-scroll") {
            settings.scroll = false;
        } else if (name == "--zoom" && i + 1 < argc) {
            const std::string level = argv[++i];
            settings.onlyZoom = level == "whole" ? 0 : level == "1e-3" ? 1 : level == "1e-6" ? 2 : -1;
            if (*settings.onlyZoom < 0) {
                std::fprintf(stderr, "bench_timeline: the zoom level must be whole, 1e-3 or 1e-6.\n");
                return false;
            }
        } else if (name == "--events" && i + 1 < argc) {
            settings.sizes.clear();
            std::string list = argv[++i];
            for (size_t from = 0; from <= list.size();) {
                const size_t comma = std::min(list.find(',', from), list.size());
                const auto count = gen::parseEventCount(list.substr(from, comma - from));
                if (!count || *count == 0) {
                    std::fprintf(stderr, "bench_timeline: '%s' is not an event count; use e.g. 1M,10M.\n",
                        list.c_str());
                    return false;
                }
                settings.sizes.push_back(*count);
                from = comma + 1;
            }
        } else {
            std::fprintf(stderr, "bench_timeline: unknown option %s; see --help.\n", name.c_str());
            return false;
        }
    }
    return true;
}

std::string ms(double ns)
{
    return format("%.2f", ns / 1e6);
}

} // namespace

int main(int argc, char** argv)
{
    Settings settings;
    if (!parseArguments(argc, argv, settings)) return 2;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication::setAttribute(Qt::AA_Use96Dpi);
    QApplication app(argc, argv);

    std::vector<std::string> columns;
    for (uint64_t size : settings.sizes)
        columns.push_back(shortCount(size) + " events");
    FigureTable table(columns);
    std::map<std::string, double> frameP50ByZoom; // of the first size, for the growth ratio
    for (size_t column = 0; column < settings.sizes.size(); ++column) {
        gen::GeneratorOptions options;
        options.events = settings.sizes[column];
        options.processes = 4;
        options.threadsPerProcess = 4;
        options.gpus = 4;
        options.streamsPerGpu = 6;
        std::fprintf(stderr, "bench_timeline: generating %s events...\n", shortCount(options.events).c_str());
        Stopwatch generation;
        auto trace = std::make_shared<const Trace>(gen::generateTrace(options));
        table.set("generate in memory", "-", column, infoCell(format("%.1f s", generation.seconds())));
        releaseFreeMemory();

        views::TimelineView view(trace);
        view.resize(kWidth, kHeight);
        view.setLaneHeight(kLaneHeight);
        view.setAllRowsExpanded(true);
        view.show();
        QApplication::processEvents();
        view.canvas()->setParallelLayout(!settings.serial);
        view.canvas()->setTiledLayout(settings.tiles);
        view.canvas()->setScrollReuse(settings.scroll);
        const double gib = double(residentSetBytes()) / double(1ull << 30);
        table.set("resident memory with the view", "< 24 GB", column,
            atMost(gib, 24.0 / 1.073741824, format("%.2f GiB", gib)));

        for (size_t z = 0; z < std::size(kZoomLevels); ++z) {
            if (settings.onlyZoom && size_t(*settings.onlyZoom) != z) continue;
            const ZoomLevel& zoom = kZoomLevels[z];
            const FrameTimes times = measureFrames(view, *trace, zoom.fraction);
            const std::string level = zoom.name;
            table.set(level + ": lanes / rows on screen", "~100", column,
                infoCell(format("%zu / %zu", times.lanes, times.rows)));
            table.set(level + ": boxes / bars drawn", "-", column,
                infoCell(format("%zu / %zu", times.boxes, times.bars)));
            table.set(level + ": layout p50 / p99 (ms)", "-", column,
                infoCell(ms(times.layout.p50) + " / " + ms(times.layout.p99)));
            table.set(level + ": paint p50 / p99 (ms)", "-", column,
                infoCell(ms(times.paint.p50) + " / " + ms(times.paint.p99)));
            table.set(
                level + ": first frame, tiles computed (ms)", "-", column, infoCell(ms(times.firstFrameNs)));
            table.set(level + ": frame p50 / p99 (ms)", "p99 <= 8.3", column,
                atMost(times.frame.p99 / 1e6, kFrameTargetMs,
                    ms(times.frame.p50) + " / " + ms(times.frame.p99)));
            if (column == 0)
                frameP50ByZoom[level] = times.frame.p50;
            else
                table.set(level + ": frame p50 vs " + columns.front(), "<= 1.5x", column,
                    atMost(times.frame.p50 / frameP50ByZoom[level], 1.5,
                        format("%.2fx", times.frame.p50 / frameP50ByZoom[level])));
        }

        // The whole window as the user sees it: ruler, row headers, canvas, scroll bar.
        QImage window(view.size(), QImage::Format_ARGB32_Premultiplied);
        std::vector<int64_t> renders;
        const TimeRange all = view.state().bounds();
        for (int f = 0; f < 40; ++f) {
            view.state().setVisible({all.start + f * 1000, all.end - f * 1000}, views::HistoryMode::Skip);
            Stopwatch clock;
            view.render(&window);
            renders.push_back(clock.nanoseconds());
        }
        const Percentiles whole = percentiles(renders);
        table.set("whole window render, zoomed out, p50 / p99 (ms)", "-", column,
            infoCell(ms(whole.p50) + " / " + ms(whole.p99)));
    }
    std::printf("Timeline frame time at %dx%d, lane height %d px, %s layout, %s, %d frames per zoom level\n",
        kWidth, kHeight, kLaneHeight, settings.serial ? "serial" : "parallel",
        settings.scroll ? "pans move the last frame" : "every frame whole", kFrames);
    table.print(stdout);
    return 0;
}
