// bench_track_events: the Events View of a report's largest track listed from the file
// (views/pagedevents), what a report over the memory budget offers and issue #20 asks of a
// 1-billion-event report: "Events View sort by duration of its 200M largest-track rows finishes
// with the UI live". For each report given, on the offscreen platform, it times opening the
// track's pager, listing the track by start, sorting it by duration (longest first) until the
// first screen's events are shown, and jumping to the middle of the sorted list; while each
// order is computed, a 10 ms timer on the GUI thread repaints the table and records how late it
// fires (the UI stays live when it keeps firing on time) and the resident memory. With
// --key-sort, it also sorts as many random duration-like keys on all cores and on one, side by
// side (parallel_key_sort.h). Asserts nothing.
#include "bench_support.h"
#include "model/events/parallel_key_sort.h"
#include "model/format/paging/track_pager.h"
#include "model/format/report_outline.h"
#include "views/pagedevents/paged_events_view.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTableView>
#include <QTimer>
#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace sightline;
using namespace sightline::bench;

constexpr int kTickMs = 10;
constexpr qint64 kLimitMs = 30 * 60 * 1000;

constexpr const char* kUsage = R"(Usage: bench_track_events [--budget MIB] [--key-sort] REPORT.rep...

Lists each report's largest track from the file as the viewer's Events View does over its memory
budget (default budget 8192 MiB), sorts it by duration, longest first, and prints the time to the
first screen of rows, the GUI thread's responsiveness meanwhile (how late a 10 ms timer that
repaints the table fires) and the resident memory. Write the reports first, e.g.
sightline-gen --events 100M -o big.rep. --key-sort adds the time to sort as many packed keys
on all cores and on one.
)";

// How the GUI thread kept up while something ran in the background.
struct Liveness
{
    double seconds = 0;
    Percentiles lateMs; // how late each 10 ms tick fired
    size_t ticks = 0;
    uint64_t peakResident = 0;
};

// Runs the event loop until `done` holds, ticking every 10 ms: each tick repaints the table and
// records its lateness and the resident memory.
Liveness runLive(QTableView& table, const std::function<bool()>& done)
{
    Liveness live;
    std::vector<int64_t> lateNs;
    QElapsedTimer clock;
    clock.start();
    qint64 expected = clock.nsecsElapsed() + qint64(kTickMs) * 1000000;
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    tick.setInterval(kTickMs);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        lateNs.push_back(std::max<qint64>(0, now - expected));
        expected = now + qint64(kTickMs) * 1000000;
        table.viewport()->repaint();
        live.peakResident = std::max(live.peakResident, residentSetBytes());
    });
    tick.start();
    const Stopwatch watch;
    while (!done() && clock.elapsed() < kLimitMs)
        QApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
    live.seconds = watch.seconds();
    live.ticks = lateNs.size();
    live.lateMs = percentiles(lateNs);
    live.lateMs = {live.lateMs.p50 / 1e6, live.lateMs.p99 / 1e6, live.lateMs.max / 1e6};
    return live;
}

std::string mib(uint64_t bytes)
{
    return format("%.0f MiB", double(bytes) / double(1 << 20));
}

// Sorts `count` keys shaped like the Duration order's (a duration of up to a few ms above a
// stored index) on all cores, then on one.
void benchKeySort(size_t count)
{
    std::mt19937_64 random(5);
    std::vector<uint64_t> keys(count);
    for (size_t i = 0; i < count; ++i)
        keys[i] = ((random() % 4000000) << 32) | i;
    for (unsigned threads : {0u, 1u}) {
        std::vector<uint64_t> copy = keys;
        const Stopwatch watch;
        sortKeysInParallel(copy, nullptr, threads);
        std::printf("  sort %s packed keys on %-9s %8.3f s\n", shortCount(count).c_str(),
            threads == 0 ? "all cores" : "one core", watch.seconds());
    }
}

void benchReport(const std::string& path, uint64_t budget, bool keySort)
{
    const Result<std::optional<ReportOutline>> read = readReportOutline(path);
    if (!read || !read->has_value()) {
        std::fprintf(stderr, "%s\n",
            read ? ("'" + path + "' lists no tracks in its structure (older or cut short)").c_str()
                 : read.error().c_str());
        return;
    }
    const std::optional<ReportOutline>& outline = read.value();
    uint32_t largest = 0;
    for (uint32_t t = 0; t < outline->tracks.size(); ++t)
        if (outline->tracks[t].events > outline->tracks[largest].events) largest = t;
    const uint64_t events = outline->tracks[largest].events;
    std::printf("\n%s: largest track %u, %s events\n", path.c_str(), largest, shortCount(events).c_str());

    releaseFreeMemory();
    const uint64_t before = residentSetBytes();
    const Stopwatch opening;
    Result<OpenedTrack> opened = TrackPager::open(path, largest);
    if (!opened) {
        std::fprintf(stderr, "%s\n", opened.error().c_str());
        return;
    }
    std::printf("  open the track's pager           %8.3f s  (%zu batches; resident +%s)\n",
        opening.seconds(), opened.value().pager->batchCount(), mib(residentSetBytes() - before).c_str());

    views::PagedEventsView view(std::move(opened.value()), budget);
    view.resize(1920, 600);
    view.show();
    QTableView& table = *view.table();
    const auto report = [&](const char* what, const Liveness& live) {
        std::printf(
            "  %-32s %8.3f s  (%.1f M events/s; UI tick late p50 %.1f ms, p99 %.1f ms, max %.1f ms over %zu "
            "ticks; peak resident %s)\n",
            what, live.seconds, double(events) / live.seconds / 1e6, live.lateMs.p50, live.lateMs.p99,
            live.lateMs.max, live.ticks, mib(live.peakResident).c_str());
    };
    report("list by start, first screen",
        runLive(table, [&] { return !view.isBusy() && view.listedCount() > 0 && view.showsPage(); }));
    view.sortBy(views::EventColumn::Duration, Qt::DescendingOrder);
    report(
        "sort by duration, first screen", runLive(table, [&] { return !view.isBusy() && view.showsPage(); }));
    std::printf("  status: %s\n", view.statusText().toStdString().c_str());
    const Stopwatch jump;
    view.scrollToPosition(view.listedCount() / 2);
    const Liveness middle = runLive(table, [&] { return view.showsPage(); });
    std::printf("  jump to the middle, its screen   %8.3f s\n", jump.seconds());
    (void)middle;
    releaseFreeMemory();
    std::printf("  resident after sorting           %s (the rows: %s)\n", mib(residentSetBytes()).c_str(),
        mib(view.residentBytes()).c_str());
    if (keySort) benchKeySort(size_t(events));
}

} // namespace

int main(int argc, char** argv)
{
    if (!std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QApplication app(argc, argv);
    uint64_t budget = uint64_t(8192) << 20;
    bool keySort = false;
    std::vector<std::string> reports;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--key-sort") {
            keySort = true;
        } else if (arg == "--budget" && i + 1 < argc) {
            budget = std::strtoull(argv[++i], nullptr, 10) << 20;
        } else if (arg == "-h" || arg == "--help" || arg.starts_with("-")) {
            std::fputs(kUsage, arg.starts_with("-h") || arg == "--help" ? stdout : stderr);
            return arg == "-h" || arg == "--help" ? 0 : 2;
        } else {
            reports.push_back(arg);
        }
    }
    if (reports.empty()) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    for (const std::string& report : reports)
        benchReport(report, budget, keySort);
    return 0;
}
