// bench_events: the Events View and the Analysis Summary on big reports. For generated reports
// (default 1M and 10M events, in memory), prints: listing every event in start order, sorting
// all rows by duration (longest first) and by name, substring and regex filters over all rows,
// the six stats reports over the whole trace and a selection, the Events View's first paint
// after "Show in Events View" on every row, the time until the sorted list is shown, the
// longest the GUI thread is held meanwhile, and the Analysis Summary's full refresh.
// Each timing is the best of three runs. Prints figures against their targets; asserts nothing.
#include "bench_support.h"
#include "generate.h"
#include "model/events/event_rows.h"
#include "model/stats/stats_engine.h"
#include "model/stats/stats_table.h"
#include "views/events/event_query.h"
#include "views/events/events_view.h"
#include "views/summary/analysis_summary.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QTimer>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace sightline;
using namespace sightline::bench;

constexpr const char* kUsage = R"(Usage: bench_events [--events N[,N...]]

Prints the Events View's listing, sort and filter times, the summary stats time, the Events
View's first paint and the Analysis Summary's refresh for generated reports of the given sizes
(default 1M,10M; suffixes k and M).
)";

std::vector<uint64_t> parseSizes(int argc, char** argv)
{
    std::vector<uint64_t> sizes {1000000, 10000000};
    for (int i = 1; i < argc; ++i) {
        const std::string name = argv[i];
        if (name == "-h" || name == "--help") {
            std::fputs(kUsage, stdout);
            std::exit(0);
        }
        if (name != "--events" || i + 1 >= argc) {
            std::fprintf(stderr, "bench_events: unknown option %s; see --help.\n", name.c_str());
            std::exit(2);
        }
        sizes.clear();
        const std::string list = argv[++i];
        for (size_t from = 0; from <= list.size();) {
            const size_t comma = std::min(list.find(',', from), list.size());
            std::string item = list.substr(from, comma - from);
            uint64_t scale = 1;
            if (!item.empty() && (item.back() == 'k' || item.back() == 'M')) {
                scale = item.back() == 'k' ? 1000 : 1000000;
                item.pop_back();
            }
            if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos) {
                std::fprintf(
                    stderr, "bench_events: '%s' is not an event count; use e.g. 1M,10M.\n", list.c_str());
                std::exit(2);
            }
            sizes.push_back(std::stoull(item) * scale);
            from = comma + 1;
        }
    }
    return sizes;
}

// The best of three runs of `work`, in milliseconds.
double bestMs(const std::function<void()>& work)
{
    double best = 1e300;
    for (int run = 0; run < 3; ++run) {
        Stopwatch clock;
        work();
        best = std::min(best, clock.seconds() * 1e3);
    }
    return best;
}

std::string msText(double ms)
{
    return format("%.1f ms", ms);
}

// Runs the event loop until `done`, measuring the longest gap between 1 ms timer ticks: how
// long the GUI thread was held at a stretch.
double longestGuiStallMs(const std::function<bool()>& done)
{
    QElapsedTimer clock;
    clock.start();
    qint64 last = clock.nsecsElapsed(), longest = 0;
    QTimer tick;
    tick.setInterval(1);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        longest = std::max(longest, now - last);
        last = now;
    });
    tick.start();
    while (!done())
        QApplication::processEvents(QEventLoop::AllEvents, 5);
    longest = std::max(longest, clock.nsecsElapsed() - last);
    return double(longest) / 1e6;
}

std::vector<TrackId> allTracks(const Trace& trace)
{
    std::vector<TrackId> tracks;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t)
        tracks.push_back(TrackId(t));
    return tracks;
}

void measureQueries(FigureTable& table, size_t column, const std::shared_ptr<const Trace>& trace)
{
    const EventCells cells(*trace);
    const EventSource source {allTracks(*trace), {}, {}};
    std::vector<EventRef> rows;
    const double listMs = bestMs([&] { rows = collectRows(*trace, source); });
    table.set("list every event in start order", "-", column, infoCell(msText(listMs)));
    table.set("rows listed", "-", column, infoCell(shortCount(rows.size())));

    auto query = [&](views::EventQuery q) {
        size_t kept = 0;
        const double ms = bestMs([&] { kept = views::runEventQuery(cells, rows, q).rows.size(); });
        return std::make_pair(ms, kept);
    };
    const auto byDuration = query({{}, EventColumn::Duration, Qt::DescendingOrder});
    table.set("sort all rows by duration, longest first", "<= 1 s at 10M", column,
        atMost(byDuration.first, 1000.0, msText(byDuration.first)));
    const auto byName = query({{}, EventColumn::Name, Qt::AscendingOrder});
    table.set("sort all rows by name", "-", column, infoCell(msText(byName.first)));
    const auto substring = query({{QStringLiteral("gemm"), false}, EventColumn::Start, Qt::AscendingOrder});
    table.set("substring filter \"gemm\" over all rows", "<= 0.5 s at 10M", column,
        atMost(substring.first, 500.0,
            msText(substring.first) + format(" (%s kept)", shortCount(substring.second).c_str())));
    const auto regex
        = query({{QStringLiteral("^cuda(Memcpy|Launch)"), true}, EventColumn::Start, Qt::AscendingOrder});
    table.set("regex filter over all rows", "-", column, infoCell(msText(regex.first)));
    const auto both = query({{QStringLiteral("gemm"), false}, EventColumn::Duration, Qt::DescendingOrder});
    table.set("filter \"gemm\" then sort by duration", "-", column, infoCell(msText(both.first)));
}

void measureStats(FigureTable& table, size_t column, const Trace& trace)
{
    std::vector<StatsReport> reports;
    const double wholeMs = bestMs([&] { reports = computeAllReports(trace); });
    table.set("summary stats: six reports, whole trace", "<= 0.5 s at 10M", column,
        atMost(wholeMs, 500.0, msText(wholeMs)));
    const TimeRange quarter {
        trace.span.start + trace.span.duration() / 4, trace.span.start + trace.span.duration() / 2};
    const double rangeMs = bestMs([&] { computeAllReports(trace, quarter); });
    table.set("summary stats: six reports, 1/4 selection", "-", column, infoCell(msText(rangeMs)));
    const double tablesMs = bestMs([&] {
        for (const StatsReport& r : reports)
            toTable(r);
    });
    table.set("stats reports to tables", "-", column, infoCell(msText(tablesMs)));
}

void measureWidgets(FigureTable& table, size_t column, const std::shared_ptr<const Trace>& trace)
{
    views::EventsView view(trace);
    view.resize(1920, 420);
    view.show();
    QApplication::processEvents();
    QImage frame(view.size(), QImage::Format_ARGB32_Premultiplied);

    Stopwatch shown;
    view.showEvents(allTracks(*trace));
    view.render(&frame);
    const double firstPaintMs = shown.seconds() * 1e3;
    table.set("Events View first paint (all rows shown)", "<= 50 ms", column,
        atMost(firstPaintMs, 50.0, msText(firstPaintMs)));
    const double stall = longestGuiStallMs([&] { return !view.isBusy(); });
    table.set("  full list shown (listed + sorted off-thread)", "-", column,
        infoCell(msText(shown.seconds() * 1e3)));
    table.set("  longest GUI-thread stall while listing", "-", column, infoCell(msText(stall)));

    Stopwatch sorted;
    view.sortBy(EventColumn::Duration, Qt::DescendingOrder);
    const double sortStall = longestGuiStallMs([&] { return !view.isBusy(); });
    view.render(&frame);
    table.set("Events View: click Duration to painted result", "-", column,
        infoCell(msText(sorted.seconds() * 1e3)));
    table.set("  longest GUI-thread stall while sorting", "-", column, infoCell(msText(sortStall)));

    Stopwatch summaryClock;
    views::AnalysisSummary summary(trace);
    summary.resize(1600, 950);
    summary.show();
    const double summaryStall
        = longestGuiStallMs([&] { return !summary.isBusy() && !summary.reports().empty(); });
    QImage page(summary.size(), QImage::Format_ARGB32_Premultiplied);
    summary.render(&page);
    table.set("Analysis Summary: built, stats + charts painted", "-", column,
        infoCell(msText(summaryClock.seconds() * 1e3)));
    table.set("  longest GUI-thread stall while computing", "-", column, infoCell(msText(summaryStall)));
}

} // namespace

int main(int argc, char** argv)
{
    const std::vector<uint64_t> sizes = parseSizes(argc, argv);
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication::setAttribute(Qt::AA_Use96Dpi);
    QApplication app(argc, argv);

    std::vector<std::string> columns;
    for (uint64_t size : sizes)
        columns.push_back(shortCount(size) + " events");
    FigureTable table(columns);
    for (size_t column = 0; column < sizes.size(); ++column) {
        gen::GeneratorOptions options;
        options.events = sizes[column];
        std::fprintf(stderr, "bench_events: generating %s events...\n", shortCount(options.events).c_str());
        Stopwatch generation;
        auto trace = std::make_shared<const Trace>(gen::generateTrace(options));
        table.set("generate in memory", "-", column, infoCell(format("%.1f s", generation.seconds())));
        releaseFreeMemory();
        measureQueries(table, column, trace);
        measureStats(table, column, *trace);
        measureWidgets(table, column, trace);
        releaseFreeMemory();
    }
    std::printf("bench_events (%u hardware threads)\n", std::thread::hardware_concurrency());
    table.print(stdout);
    return 0;
}
