// The CPU profile on the timeline: a CPU Utilization counter row per process (not under a GPU),
// a thread-state strip and sample ticks in each thread row with CPU data (a row even without
// events), tooltips naming states, stacks and backtraces, highlighted sample ticks, and the
// per-column summary the rows are drawn from checked against a brute-force count.
#include "model/construct/trace_builder.h"
#include "timeline_widget_fixture.h"
#include "views/timeline/frame/event_style.h"
#include "views/timeline/frame/thread_cpu_columns.h"
#include "views/timeline/interaction/thread_cpu_hit.h"
#include "views/timeline/tooltips/event_tooltip.h"

#include <catch2/catch.hpp>

using namespace sightline;
using namespace sightline::testing;

namespace {

constexpr Timestamp kMs = 1'000'000;
constexpr Pid kTrainer {100}, kLoader {200};
constexpr Tid kMainThread {100}, kWorker {101}, kLoaderThread {200};

struct CpuTrace
{
    std::shared_ptr<const Trace> trace;
    uint32_t computeStack = 0; // compute_dot < worker_loop < main
    uint32_t loopStack = 0; // worker_loop < main
    uint32_t sleepStack = 0; // clock_nanosleep < worker_loop < main
    uint32_t launchStack = 0; // cudaLaunchKernel < main
};

// Two processes over one second. The trainer's main thread runs throughout and makes one CUDA
// API call (100-300 ms) with a backtrace; its worker (CPU data only) runs 0-400 ms, sleeps in
// clock_nanosleep 400-700 ms and runs again to 1 s, sampled every millisecond while running,
// alternately in compute_dot and in worker_loop itself. The loader's thread runs 0-500 ms,
// waits for a CPU 500-600 ms and blocks 600-1000 ms (no samples).
CpuTrace cpuTrace()
{
    TraceBuilder builder;
    builder.addProcess({kTrainer, "trainer", {}});
    builder.addProcess({kLoader, "loader", {}});
    builder.addThread({kTrainer, kMainThread, "trainer"});
    builder.addThread({kTrainer, kWorker, "worker"});
    builder.addThread({kLoader, kLoaderThread, "loader"});

    auto frame = [&](const char* function, const char* module) {
        return builder.cpuFrame({builder.intern(function), builder.intern(module), 0x10, false});
    };
    const uint32_t main = frame("main", "trainer"), loop = frame("worker_loop", "libwork.so");
    const uint32_t compute = frame("compute_dot", "libwork.so");
    const uint32_t sleep = frame("clock_nanosleep", "libc.so.6");
    const uint32_t launch = frame("cudaLaunchKernel", "libcudart.so.12");
    CpuTrace out;
    out.computeStack = builder.cpuStack(std::vector<uint32_t> {compute, loop, main});
    out.loopStack = builder.cpuStack(std::vector<uint32_t> {loop, main});
    out.sleepStack = builder.cpuStack(std::vector<uint32_t> {sleep, loop, main});
    out.launchStack = builder.cpuStack(std::vector<uint32_t> {launch, main});
    builder.setSamplingPeriod(kMs);

    const TrackId api = builder.hostTrack(TrackKind::CudaApi, kTrainer, kMainThread);
    builder.add(
        api, ApiCall {100 * kMs, 300 * kMs, builder.intern("cudaLaunchKernel"), CorrelationId(1), {}});
    builder.addEventStack({kMainThread, 100 * kMs, out.launchStack});
    builder.addThreadState({0, 1000 * kMs, kMainThread, ThreadState::Running, kNoCallStack});

    builder.addThreadState({0, 400 * kMs, kWorker, ThreadState::Running, kNoCallStack});
    builder.addThreadState({400 * kMs, 700 * kMs, kWorker, ThreadState::Sleeping, out.sleepStack});
    builder.addThreadState({700 * kMs, 1000 * kMs, kWorker, ThreadState::Running, kNoCallStack});
    for (Timestamp t = 0; t < 1000 * kMs; t += kMs)
        if (t < 400 * kMs || t >= 700 * kMs)
            builder.addCpuSample(
                {t + kMs / 2, kWorker, (t / kMs) % 2 == 0 ? out.computeStack : out.loopStack, 3});

    builder.addThreadState({0, 500 * kMs, kLoaderThread, ThreadState::Running, kNoCallStack});
    builder.addThreadState({500 * kMs, 600 * kMs, kLoaderThread, ThreadState::Runnable, kNoCallStack});
    builder.addThreadState({600 * kMs, 1000 * kMs, kLoaderThread, ThreadState::Blocked, out.sleepStack});
    out.trace = std::make_shared<const Trace>(builder.build());
    return out;
}

// A TimelineView showing the whole second of cpuTrace() over 1000 canvas pixels.
struct ShownCpuTimeline
{
    CpuTrace data = cpuTrace();
    views::TimelineView view {data.trace};

    ShownCpuTimeline()
    {
        view.resize(1300, 700);
        view.show();
        REQUIRE(QTest::qWaitForWindowExposed(&view));
        view.state().setVisible({0, 1000 * kMs}, views::HistoryMode::Record);
        settle();
    }
    views::TimelineState& state() { return view.state(); }
    views::TimelineCanvas& canvas() { return *view.canvas(); }
    void settle()
    {
        QApplication::processEvents();
        canvas().repaint();
    }
    views::EventStyle style() const
    {
        return views::EventStyle(*data.trace, views::canvasColors(view.canvas()->palette()).dark);
    }
    // The shown row of a thread's CPU profile.
    views::VisibleRow threadRow(Tid tid)
    {
        const views::RowTree& rows = state().rows();
        for (size_t n = 0; n < rows.size(); ++n) {
            const views::RowNode& node = rows.node(int(n));
            if (node.kind == views::RowKind::Thread && node.thread == tid) {
                const int row = state().layout().rowOfNode(int(n));
                REQUIRE(row >= 0);
                return state().layout().rows()[size_t(row)];
            }
        }
        FAIL("no row for thread " << tid.value);
        return {};
    }
    // The canvas y of the middle of a band [low, high) of `row` (pixels above its bottom edge).
    int bandY(const views::VisibleRow& row, int low, int high)
    {
        const int bottom = row.top + row.height - 1 - state().scrollY();
        return bottom - 1 - (low + high - 1) / 2;
    }
    int xOf(Timestamp t) { return int(state().scale().timeToX(t)); }
};

int pixelsOfColor(const QImage& image, int y, int x0, int x1, QRgb color)
{
    int n = 0;
    for (int x = x0; x < x1; ++x)
        n += (image.pixel(x, y) & 0xffffff) == (color & 0xffffff) ? 1 : 0;
    return n;
}

} // namespace

TEST_CASE("Each process gets a CPU Utilization row of its own and each thread with CPU data a CPU row")
{
    const CpuTrace data = cpuTrace();
    const Trace& trace = *data.trace;
    const views::RowTree rows = views::RowTree::build(trace);

    // No GPU row: the derived series belong to processes, not to GPU 0.
    for (const views::RowNode& node : rows.nodes())
        CHECK(node.kind != views::RowKind::Gpu);

    int processes = 0;
    for (size_t n = 0; n < rows.size(); ++n) {
        const views::RowNode& process = rows.node(int(n));
        if (process.kind != views::RowKind::Process) continue;
        ++processes;
        REQUIRE_FALSE(process.children.empty());
        const views::RowNode& first = rows.node(process.children.front());
        CHECK(first.kind == views::RowKind::Counter);
        CHECK(first.label == QStringLiteral("CPU Utilization [%]"));
        REQUIRE(first.counter < trace.counterSeries.size());
        const CounterSeries& series = trace.counterSeries[first.counter];
        CHECK(series.source == CounterSource::CpuUtilization);
        CHECK(process.label.endsWith(QStringLiteral("[%1]").arg(series.pid.value)));
        // Collapsed, the process row shows its CPU utilization.
        CHECK(process.whenCollapsed == views::RowContent::Counter);
        CHECK(process.counter == first.counter);
    }
    CHECK(processes == 2);

    // The worker has no events, yet has its row under the trainer, drawing its CPU profile.
    const int worker = rows.find(QStringLiteral("worker [101]"));
    REQUIRE(worker >= 0);
    CHECK(rows.node(rows.node(worker).parent).label == QStringLiteral("trainer [100]"));
    CHECK_FALSE(rows.node(worker).isGroup());
    CHECK(rows.node(worker).content() == views::RowContent::ThreadCpu);
    CHECK(rows.node(worker).thread == kWorker);
    // The main thread keeps its CUDA API row and draws its CPU profile expanded and collapsed.
    int mainThreadRow = -1;
    for (size_t n = 0; n < rows.size(); ++n)
        if (rows.node(int(n)).kind == views::RowKind::Thread && rows.node(int(n)).thread == kMainThread)
            mainThreadRow = int(n);
    REQUIRE(mainThreadRow >= 0);
    CHECK(rows.node(mainThreadRow).isGroup());
    CHECK(rows.node(mainThreadRow).whenExpanded == views::RowContent::ThreadCpu);
    CHECK(rows.node(mainThreadRow).whenCollapsed == views::RowContent::ThreadCpu);
}

TEST_CASE("A thread's CPU row paints its states in their colours and its samples as ticks")
{
    ShownCpuTimeline shown;
    const views::EventStyle style = shown.style();
    const views::VisibleRow worker = shown.threadRow(kWorker);
    const views::ThreadCpuBands bands = views::threadCpuBands(worker.height);
    const QImage canvas = shown.canvas().grab().toImage();
    const int strip = shown.bandY(worker, bands.stripLow, bands.stripHigh);

    const QRgb running = style.threadStateColor(ThreadState::Running);
    const QRgb sleeping = style.threadStateColor(ThreadState::Sleeping);
    CHECK((canvas.pixel(shown.xOf(200 * kMs), strip) & 0xffffff) == (running & 0xffffff));
    CHECK((canvas.pixel(shown.xOf(550 * kMs), strip) & 0xffffff) == (sleeping & 0xffffff));
    CHECK((canvas.pixel(shown.xOf(850 * kMs), strip) & 0xffffff) == (running & 0xffffff));
    // The strip is thin: the tick band above it is not painted in the state's colour.
    const int ticks = shown.bandY(worker, bands.tickLow, bands.tickHigh);
    CHECK((canvas.pixel(shown.xOf(550 * kMs), ticks) & 0xffffff) != (sleeping & 0xffffff));

    // One sample per millisecond while running, none while sleeping: ticks cover the running
    // stretches and leave the sleeping one empty.
    const QRgb tick = style.sampleTickColor(false);
    const int runningTicks = pixelsOfColor(canvas, ticks, shown.xOf(20 * kMs), shown.xOf(380 * kMs), tick);
    CHECK(runningTicks > (shown.xOf(380 * kMs) - shown.xOf(20 * kMs)) / 2);
    CHECK(pixelsOfColor(canvas, ticks, shown.xOf(420 * kMs), shown.xOf(680 * kMs), tick) == 0);

    // The loader's thread: Running, then Runnable, then Blocked.
    const views::VisibleRow loader = shown.threadRow(kLoaderThread);
    const int loaderStrip = shown.bandY(loader, bands.stripLow, bands.stripHigh);
    CHECK((canvas.pixel(shown.xOf(550 * kMs), loaderStrip) & 0xffffff)
        == (style.threadStateColor(ThreadState::Runnable) & 0xffffff));
    CHECK((canvas.pixel(shown.xOf(800 * kMs), loaderStrip) & 0xffffff)
        == (style.threadStateColor(ThreadState::Blocked) & 0xffffff));
}

TEST_CASE("Hovering a wait names the function the thread left the CPU from; a sample shows its stack")
{
    ShownCpuTimeline shown;
    const views::VisibleRow worker = shown.threadRow(kWorker);
    const views::ThreadCpuBands bands = views::threadCpuBands(worker.height);
    const int strip = shown.bandY(worker, bands.stripLow, bands.stripHigh);
    const int ticks = shown.bandY(worker, bands.tickLow, bands.tickHigh);

    const QString sleepTip = shown.canvas().toolTipAt(QPoint(shown.xOf(550 * kMs), strip));
    CHECK(sleepTip.contains(QStringLiteral("Sleeping")));
    CHECK(sleepTip.contains(QStringLiteral("300.000 ms")));
    CHECK(sleepTip.contains(QStringLiteral("clock_nanosleep \u2014 libc.so.6")));
    CHECK(sleepTip.contains(QStringLiteral("worker_loop")));

    // A running state has no stack to show.
    const QString runTip = shown.canvas().toolTipAt(QPoint(shown.xOf(200 * kMs), strip));
    CHECK(runTip.contains(QStringLiteral("Running")));
    CHECK_FALSE(runTip.contains(QStringLiteral("Left the CPU from")));

    // Above the strip: the nearest sample, with its stack leaf first.
    const auto hit = views::threadCpuHitAt(shown.state(), QPointF(shown.xOf(200 * kMs) + 0.5, ticks + 0.5));
    REQUIRE(hit);
    REQUIRE(hit->kind == views::ThreadCpuHit::Kind::Sample);
    const CpuSample& sample = shown.data.trace->cpu.samples[hit->index];
    CHECK(sample.tid == kWorker);
    CHECK(std::abs(sample.time - 200 * kMs) <= 2 * kMs);
    const QString sampleTip = shown.canvas().toolTipAt(QPoint(shown.xOf(200 * kMs), ticks));
    CHECK(sampleTip.contains(QStringLiteral("CPU sample")));
    CHECK(sampleTip.contains(QStringLiteral("Call stack")));
    CHECK(sampleTip.contains(QStringLiteral("worker_loop \u2014 libwork.so")));
    CHECK(
        sampleTip.indexOf(QStringLiteral("worker_loop")) < sampleTip.indexOf(QStringLiteral("main \u2014")));

    // The CUDA API call with a recorded stack shows it as its backtrace.
    const auto call = findEvent(*shown.data.trace, TrackKind::CudaApi);
    REQUIRE(call);
    const views::EventTooltip callTip = views::describeEvent(*shown.data.trace, *call);
    CHECK(callTip.listTitle == QStringLiteral("Backtrace"));
    REQUIRE(callTip.list.size() == 2);
    CHECK(callTip.list[0] == QStringLiteral("cudaLaunchKernel \u2014 libcudart.so.12"));
    CHECK(callTip.list[1] == QStringLiteral("main \u2014 trainer"));
    CHECK(callTip.html().contains(QStringLiteral("Backtrace:")));
}

TEST_CASE("Highlighted stacks paint their sample ticks in the highlight colour")
{
    ShownCpuTimeline shown;
    const views::EventStyle style = shown.style();
    const views::VisibleRow worker = shown.threadRow(kWorker);
    const views::ThreadCpuBands bands = views::threadCpuBands(worker.height);
    const int ticks = shown.bandY(worker, bands.tickLow, bands.tickHigh);
    const int x0 = shown.xOf(20 * kMs), x1 = shown.xOf(380 * kMs);
    const QRgb highlight = style.sampleTickColor(true);
    const QRgb tick = style.sampleTickColor(false);

    CHECK(pixelsOfColor(shown.canvas().grab().toImage(), ticks, x0, x1, highlight) == 0);
    shown.view.setHighlightedStacks(
        std::make_shared<const std::vector<uint32_t>>(1, shown.data.computeStack));
    shown.settle();
    const QImage marked = shown.canvas().grab().toImage();
    // Every other sample is in compute_dot: about half the columns turn.
    const int highlighted = pixelsOfColor(marked, ticks, x0, x1, highlight);
    CHECK(highlighted > (x1 - x0) / 4);
    CHECK(pixelsOfColor(marked, ticks, x0, x1, tick) > 0);
    // Where no samples were taken, nothing is highlighted.
    CHECK(pixelsOfColor(marked, ticks, shown.xOf(420 * kMs), shown.xOf(680 * kMs), highlight) == 0);

    // Zoomed into one sample of compute_dot, its tick is highlighted whole.
    shown.state().setVisible({198 * kMs, 202 * kMs}, views::HistoryMode::Record);
    shown.settle();
    const QImage zoomed = shown.canvas().grab().toImage();
    const int sampleX = shown.xOf(200 * kMs + kMs / 2);
    CHECK((zoomed.pixel(sampleX, ticks) & 0xffffff) == (highlight & 0xffffff));
    CHECK((zoomed.pixel(shown.xOf(201 * kMs + kMs / 2), ticks) & 0xffffff) == (tick & 0xffffff));

    shown.view.setHighlightedStacks(nullptr);
    shown.settle();
    CHECK(pixelsOfColor(shown.canvas().grab().toImage(), ticks, 0, shown.canvas().width(), highlight) == 0);
}

TEST_CASE("A CPU row's columns hold the state covering most time and the samples, as counted one by one")
{
    // One thread with 20,000 intervals of random states, lengths and gaps, and samples at random.
    TraceBuilder builder;
    builder.addProcess({Pid(7), "p", {}});
    builder.addThread({Pid(7), Tid(7), "t"});
    const uint32_t leaf = builder.cpuFrame({builder.intern("f"), builder.intern("m"), 0, false});
    const uint32_t other = builder.cpuFrame({builder.intern("g"), builder.intern("m"), 0, false});
    const uint32_t marked = builder.cpuStack(std::vector<uint32_t> {leaf});
    const uint32_t unmarked = builder.cpuStack(std::vector<uint32_t> {other});
    uint64_t seed = 12345;
    auto next = [&](uint64_t below) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        return (seed >> 33) % below;
    };
    Timestamp t = 0;
    for (int i = 0; i < 20000; ++i) {
        t += Timestamp(next(3) == 0 ? next(50'000) : 0);
        const Timestamp end = t + 1 + Timestamp(next(200'000));
        builder.addThreadState({t, end, Tid(7), ThreadState(next(kThreadStateCount)), kNoCallStack});
        t = end;
    }
    for (int i = 0; i < 50000; ++i)
        builder.addCpuSample({Timestamp(next(uint64_t(t))), Tid(7), next(2) ? marked : unmarked, 0});
    builder.setSamplingPeriod(100'000);
    const Trace trace = builder.build();
    const CpuProfile& cpu = trace.cpu;
    const std::vector<uint32_t> markedStacks {marked};
    const views::SampleMarks marks(cpu, markedStacks);
    const views::ThreadCpuColumns index(cpu);

    for (const auto& [window, width] : std::vector<std::pair<TimeRange, int>> {{{0, t}, 1}, {{0, t}, 97},
             {{0, t}, 1500}, {{t / 3, t / 3 + 4'000'000}, 640}, {{t / 2, t / 2 + 90}, 30}}) {
        const views::TimeScale scale(window, width);
        std::vector<views::ThreadCpuColumn> columns(static_cast<size_t>(width));
        index.fill(Tid(7), scale, &marks, columns);
        for (int c = 0; c < width; ++c) {
            TimeRange column = scale.column(c);
            column.end = std::max(column.end, column.start + 1);
            std::array<Duration, kThreadStateCount> times {};
            bool any = false;
            for (const ThreadStateInterval& s : cpu.states) {
                const Timestamp a = std::max(s.start, column.start), b = std::min(s.end, column.end);
                if (s.start < column.end && effectiveEnd(s.start, s.end) > column.start) any = true;
                if (b > a) times[size_t(s.state)] += b - a;
            }
            uint32_t samples = 0, highlighted = 0;
            for (const CpuSample& s : cpu.samples)
                if (s.time >= column.start && s.time < column.end) {
                    ++samples;
                    highlighted += s.stack == marked ? 1 : 0;
                }
            INFO("window " << window.start << "-" << window.end << " over " << width << ", column " << c);
            const auto most = std::max_element(times.begin(), times.end());
            if (!any)
                CHECK(columns[size_t(c)].state == views::kNoThreadState);
            else if (*most > 0)
                CHECK(times[size_t(columns[size_t(c)].state)] == *most);
            CHECK(columns[size_t(c)].samples == samples);
            CHECK(columns[size_t(c)].highlighted == highlighted);
        }
    }
}

TEST_CASE("Panning moves CPU rows and counter graphs with the frame, as a frame painted whole shows them")
{
    ShownCpuTimeline panned;
    ShownCpuTimeline whole;
    whole.canvas().setScrollReuse(false);
    const Duration shown = 100 * kMs;
    const double nsPerPixel = double(shown) / panned.canvas().width();
    Timestamp start = 300 * kMs;
    int moved = 0;
    for (const double pixels : {7.0, -3.0, 12.0, 250.0, -41.0, 5.0, 5.0, -120.0}) {
        start += Timestamp(pixels * nsPerPixel);
        panned.state().setVisible({start, start + shown}, views::HistoryMode::Skip);
        panned.canvas().layOut();
        panned.canvas().paintFrame();
        moved += panned.canvas().lastFrameMoved() ? 1 : 0;
        whole.state().setVisible(panned.canvas().drawList().scale.visible(), views::HistoryMode::Skip);
        whole.canvas().layOut();
        whole.canvas().paintFrame();
        const QImage& a = panned.canvas().frame();
        const QImage& b = whole.canvas().frame();
        REQUIRE(a.size() == b.size());
        int differing = 0;
        for (int x = 0; x < a.width(); ++x) {
            bool same = true;
            for (int y = 0; y < a.height() && same; ++y)
                same = a.pixel(x, y) == b.pixel(x, y);
            differing += same ? 0 : 1;
        }
        INFO("pan by " << pixels << " px");
        // A sample on a column boundary may land one column over (each frame's origin is
        // rounded to a nanosecond).
        CHECK(differing <= 1);
    }
    CHECK(moved >= 4);
}
