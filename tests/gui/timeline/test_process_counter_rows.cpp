// A process's own counters (CounterSource::Process, a trace's "C" events) on the timeline: one
// counter row per series under the process, after its CPU Utilization and before its threads,
// drawn as an area graph like every counter row; a process with counters only still gets its row.
#include "model/construct/trace_builder.h"
#include "views/timeline/frame/draw_list_builder.h"
#include "views/timeline/frame/event_style.h"
#include "views/timeline/rows/row_layout.h"
#include "views/timeline/rows/row_tree.h"

#include <catch2/catch.hpp>

using namespace sightline;
using namespace sightline::views;

namespace {

constexpr Timestamp kMs = 1'000'000;
constexpr Pid kTrainer {7}, kServer {9};
constexpr Tid kMain {8};

void addProcessCounter(
    TraceBuilder& b, Pid pid, uint32_t timeline, std::string name, std::vector<double> values)
{
    CounterSeries series;
    series.source = CounterSource::Process;
    series.pid = pid;
    series.timeline = timeline;
    series.name = std::move(name);
    series.values = std::move(values);
    b.addCounterSeries(std::move(series));
}

// Over one second: the trainer's main thread runs (sampled every millisecond) and makes an OS
// call; the trainer's "mem" counter is used 100 / free 900 until 500 ms, then 300 / 700. The
// server has no threads, only its "load" counter.
Trace countersTrace()
{
    TraceBuilder b;
    b.addProcess({kTrainer, "trainer", {}});
    b.addThread({kTrainer, kMain, "main"});
    b.add(b.hostTrack(TrackKind::OsRuntime, kTrainer, kMain), OsCall {0, 100 * kMs, b.intern("read"), 0});
    b.setSamplingPeriod(kMs);
    for (Timestamp t = 0; t < 1000 * kMs; t += kMs)
        b.addCpuSample({t, kMain});
    const uint32_t mem = b.addCounterTimeline({{0, 500 * kMs}, 1000 * kMs});
    addProcessCounter(b, kTrainer, mem, "mem used", {100, 300});
    addProcessCounter(b, kTrainer, mem, "mem free", {900, 700});
    const uint32_t load = b.addCounterTimeline({{0}, 1000 * kMs});
    addProcessCounter(b, kServer, load, "load", {2});
    return b.build(1);
}

uint32_t seriesNamed(const Trace& trace, const std::string& name)
{
    for (uint32_t c = 0; c < trace.counterSeries.size(); ++c)
        if (trace.counterSeries[c].name == name) return c;
    FAIL("no series " << name);
    return 0;
}

} // namespace

TEST_CASE("A process's own counters are rows under the process, after its CPU Utilization")
{
    const Trace trace = countersTrace();
    const RowTree rows = RowTree::build(trace);

    const int trainer = rows.find(QStringLiteral("trainer [7]"));
    REQUIRE(trainer >= 0);
    const std::vector<int>& children = rows.node(trainer).children;
    REQUIRE(children.size() == 4);
    CHECK(rows.node(children[0]).label == QStringLiteral("CPU Utilization [%]"));
    CHECK(trace.counterSeries[rows.node(children[0]).counter].source == CounterSource::CpuUtilization);
    for (const auto& [child, name] : {std::pair {1, "mem used"}, {2, "mem free"}}) {
        const RowNode& row = rows.node(children[size_t(child)]);
        CHECK(row.kind == RowKind::Counter);
        CHECK(row.label == QString::fromLatin1(name)); // no unit: no brackets
        CHECK(row.counter == seriesNamed(trace, name));
        CHECK(row.content() == RowContent::Counter);
    }
    CHECK(rows.node(children[3]).label == QStringLiteral("main [8]"));
    // Collapsed, the process row still shows its CPU utilization.
    CHECK(rows.node(trainer).counter == rows.node(children[0]).counter);

    const int server = rows.find(QStringLiteral("Process [9]"));
    REQUIRE(server >= 0);
    CHECK(rows.node(rows.node(server).parent).kind == RowKind::Processes);
    REQUIRE(rows.node(server).children.size() == 1);
    const RowNode& load = rows.node(rows.node(server).children.front());
    CHECK(load.label == QStringLiteral("load"));
    CHECK(load.counter == seriesNamed(trace, "load"));
}

TEST_CASE("A process counter row is drawn as the area graph of its values")
{
    const Trace trace = countersTrace();
    const RowTree tree = RowTree::build(trace);
    RowLayout layout;
    layout.rebuild(tree, trace, 20);
    const EventStyle style(trace, false);
    DrawListBuilder builder(trace, style);
    builder.setParallel(false);
    DrawList list;
    const TimeScale scale({0, 1000 * kMs}, 1000);
    builder.build(tree, layout, scale, 0, layout.totalHeight(), list);

    const uint32_t used = seriesNamed(trace, "mem used");
    const LaneDraw* lane = nullptr;
    for (size_t l = 0; l < list.laneCount; ++l)
        if (list.lanes[l].counter == used) lane = &list.lanes[l];
    REQUIRE(lane);
    const int row = layout.rowOfNode(tree.find(QStringLiteral("mem used")));
    REQUIRE(row >= 0);
    CHECK(lane->top == layout.rows()[size_t(row)].top);
    // The lane's top is the largest value (300): 100 fills a third of it, 300 all of it.
    auto heightAt = [&](int x) {
        for (const DrawBar& bar : lane->bars)
            if (x >= bar.x && x < bar.x + bar.width) return int(bar.height);
        return 0;
    };
    REQUIRE(lane->height > 0);
    CHECK(heightAt(250) == Approx(lane->height / 3.0).margin(2));
    CHECK(heightAt(750) == Approx(lane->height).margin(2));
    CHECK(lane->bars.front().fill == EventStyle::counterColor(trace.counterSeries[used]));
}
