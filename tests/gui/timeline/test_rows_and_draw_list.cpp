// The row tree built from a generated report, its vertical layout, and the draw list: every
// event in the window is drawn somewhere (never invisible), whatever the zoom.
#include "model/construct/trace_builder.h"
#include "model/events/track_labels.h"
#include "model/index/lane_query.h"
#include "timeline_fixture.h"
#include "views/timeline/frame/draw_list_builder.h"
#include "views/timeline/interaction/timeline_state.h"
#include "views/timeline/rows/row_layout.h"
#include "views/timeline/rows/row_tree.h"

#include <catch2/catch.hpp>
#include <map>
#include <random>

using namespace sightline;
using namespace sightline::views;

namespace {

std::string utf8(const QString& s)
{
    return s.toStdString();
}

} // namespace

TEST_CASE("Every non-empty track has exactly one lane row, under the right parents")
{
    const auto trace = testing::generatedTrace();
    const RowTree tree = RowTree::build(*trace);
    std::map<uint32_t, int> leaves;
    for (size_t n = 0; n < tree.size(); ++n) {
        const RowNode& node = tree.node(int(n));
        if (node.whenCollapsed != RowContent::Lanes) continue;
        REQUIRE(node.tracks.size() == 1);
        CHECK(leaves.emplace(node.tracks.front().value, int(n)).second);
        CHECK(tree.leafOf(node.tracks.front()) == int(n));
    }
    size_t nonEmpty = 0;
    for (const Track& track : trace->tracks)
        nonEmpty += track.size() > 0 ? 1 : 0;
    CHECK(leaves.size() == nonEmpty);

    for (const auto& [track, leaf] : leaves) {
        const TrackKey& key = trace->tracks[track].key;
        const RowNode& node = tree.node(leaf);
        const RowNode& parent = tree.node(node.parent);
        INFO(utf8(node.label) << " under " << utf8(parent.label));
        if (isGpuKind(key.kind)) {
            CHECK(parent.kind == RowKind::Stream);
            CHECK(parent.label.endsWith(QString::fromStdString(streamName(*trace, key))));
            CHECK(tree.node(parent.parent).kind == RowKind::Context);
            CHECK(tree.node(tree.node(parent.parent).parent).label.startsWith(QStringLiteral("CUDA HW (")));
        } else {
            CHECK(parent.kind == RowKind::Thread);
            CHECK(parent.label.endsWith(QStringLiteral("[%1]").arg(key.tid.value)));
            CHECK(tree.node(parent.parent).label.endsWith(QStringLiteral("[%1]").arg(key.pid.value)));
        }
        if (key.kind == TrackKind::CudaApi) CHECK(node.label == QStringLiteral("CUDA API"));
        if (key.kind == TrackKind::OsRuntime) CHECK(node.label == QStringLiteral("OS runtime libraries"));
        if (key.kind == TrackKind::Nvtx) CHECK(node.label.startsWith(QStringLiteral("NVTX")));
        if (key.kind == TrackKind::Kernels) CHECK(node.label.endsWith(QStringLiteral("% Kernels")));
    }
}

TEST_CASE("GPUs come first, each with [All Streams], and stream shares add up to the context")
{
    const auto trace = testing::generatedTrace();
    const RowTree tree = RowTree::build(*trace);
    REQUIRE(tree.roots().size() == trace->gpus.size() + 1);
    CHECK(tree.node(tree.roots().back()).label
        == QStringLiteral("Processes (%1)").arg(trace->processes.size()));
    for (size_t r = 0; r + 1 < tree.roots().size(); ++r) {
        const RowNode& gpu = tree.node(tree.roots()[r]);
        CHECK(gpu.kind == RowKind::Gpu);
        CHECK(gpu.expanded);
        REQUIRE(gpu.children.size() == 2);
        CHECK(tree.node(gpu.children[0]).label == QStringLiteral("[All Streams]"));
        const RowNode& context = tree.node(gpu.children[1]);
        CHECK(context.label.startsWith(QStringLiteral("Context ")));
        double total = 0;
        for (int stream : context.children) {
            const QString label = tree.node(stream).label;
            total += label.left(label.indexOf(QLatin1Char('%'))).toDouble();
        }
        CHECK(total == Approx(100).margin(0.05 * double(context.children.size()) + 0.01));
    }
}

TEST_CASE("Collapsing a row removes its descendants from the layout and nothing else")
{
    const auto trace = testing::generatedTrace();
    RowTree tree = RowTree::build(*trace);
    RowLayout layout;
    layout.rebuild(tree, *trace, 20);
    const size_t before = layout.rows().size();
    int thread = -1;
    for (size_t n = 0; n < tree.size() && thread < 0; ++n)
        if (tree.node(int(n)).kind == RowKind::Thread && tree.node(int(n)).expanded) thread = int(n);
    REQUIRE(thread >= 0);
    const size_t children = tree.node(thread).children.size();
    for (int child : tree.node(thread).children)
        CHECK(layout.rowOfNode(child) >= 0);
    tree.setExpanded(thread, false);
    layout.rebuild(tree, *trace, 20);
    CHECK(layout.rows().size() == before - children);
    for (int child : tree.node(thread).children)
        CHECK(layout.rowOfNode(child) == -1);
    CHECK(layout.rowOfNode(thread) >= 0);
    // Rows tile the content without gaps, and hit testing finds each one.
    int top = 0;
    for (size_t r = 0; r < layout.rows().size(); ++r) {
        CHECK(layout.rows()[r].top == top);
        CHECK(layout.rowAt(top) == int(r));
        top = layout.rows()[r].bottom();
    }
    CHECK(layout.totalHeight() == top);
}

TEST_CASE("Every event in the window is drawn: a box or a bar covers its pixels, at any zoom")
{
    const auto trace = testing::generatedTrace(200000);
    RowTree tree = RowTree::build(*trace);
    tree.setAllExpanded(true);
    RowLayout layout;
    layout.rebuild(tree, *trace, 16);
    const EventStyle style(*trace, false);
    DrawListBuilder builder(*trace, style);
    builder.setParallel(false);
    DrawList list;
    std::mt19937_64 random(3);
    const int width = 800;
    for (int round = 0; round < 12; ++round) {
        // From the whole span down to a few microseconds.
        const Duration duration = std::max<Duration>(2000, trace->span.duration() >> (round * 2));
        const Timestamp start = trace->span.start
            + Timestamp(random() % uint64_t(std::max<Duration>(1, trace->span.duration() - duration)));
        const TimeScale scale({start, start + duration}, width);
        builder.build(tree, layout, scale, 0, layout.totalHeight(), list);
        INFO("window " << start << " + " << duration);
        size_t lane = 0;
        for (const DrawRow& row : list.rows) {
            const RowNode& node = tree.node(row.node);
            if (row.content != RowContent::Lanes) {
                lane += row.content == RowContent::Nothing ? 0 : 1;
                continue;
            }
            const Track& track = trace->track(node.tracks.front());
            for (uint32_t l = 0; l < track.laneCount(); ++l, ++lane) {
                REQUIRE(lane < list.laneCount);
                const LaneDraw& drawn = list.lanes[lane];
                std::vector<bool> covered(width, false);
                for (const DrawBar& bar : drawn.bars) {
                    CHECK(bar.height >= 1);
                    CHECK(bar.width >= 1);
                    for (int x = bar.x; x < bar.x + bar.width; ++x)
                        covered[size_t(x)] = true;
                }
                for (const DrawBox& box : drawn.boxes)
                    for (int x = std::max(0, int(std::floor(box.x0)));
                         x < std::min(width, int(std::ceil(box.x1))); ++x)
                        covered[size_t(x)] = true;
                const IndexRange events = laneWindow(track, l, scale.visible());
                for (uint32_t i = events.begin; i < events.end; ++i) {
                    const int x = std::clamp(int(std::floor(scale.timeToX(
                                                 std::max(track.events.start[i], scale.visible().start)))),
                        0, width - 1);
                    INFO(utf8(node.label) << " lane " << l << " event " << i << " at x " << x);
                    // The level of detail's integer column edges may place it one pixel right.
                    CHECK((covered[size_t(x)] || (x + 1 < width && covered[size_t(x + 1)])));
                }
            }
        }
    }
}

TEST_CASE("Zoomed out, dense lanes become bars; zoomed in, events become boxes")
{
    const auto trace = testing::generatedTrace(200000);
    const RowTree tree = RowTree::build(*trace);
    RowLayout layout;
    layout.rebuild(tree, *trace, 16);
    const EventStyle style(*trace, false);
    DrawListBuilder builder(*trace, style);
    builder.setParallel(false);
    DrawList whole, close;
    builder.build(tree, layout, TimeScale(trace->span, 1000), 0, layout.totalHeight(), whole);
    CHECK(whole.barCount() > 1000);
    // Frame one kernel: it must be a single box spanning most of the canvas.
    const auto kernel = testing::findEvent(
        *trace, TrackKind::Kernels, [](const Track& t, EventRef e) { return t.duration(e.index) > 5000; });
    REQUIRE(kernel);
    const TimeRange range {trace->track(kernel->track).events.start[kernel->index],
        trace->track(kernel->track).events.end[kernel->index]};
    builder.build(tree, layout, TimeScale(framing(range, 0.1), 1000), 0, layout.totalHeight(), close);
    bool found = false;
    for (size_t l = 0; l < close.laneCount; ++l)
        for (const DrawBox& box : close.lanes[l].boxes)
            if (box.event == *kernel) {
                found = true;
                CHECK(box.x1 - box.x0 == Approx(1000 / 1.2).margin(2));
            }
    CHECK(found);
    for (size_t l = 0; l < close.laneCount; ++l)
        if (!close.lanes[l].utilization) CHECK(close.lanes[l].bars.empty());
}

TEST_CASE("Showing the whole trace frames the events when they start long after session start")
{
    auto make = [](Timestamp first) {
        TraceBuilder builder;
        builder.addProcess(Process {Pid(10), "python", {}});
        builder.addThread(Thread {Pid(10), Tid(10), "python"});
        const TrackId api = builder.hostTrack(TrackKind::CudaApi, Pid(10), Tid(10));
        for (int i = 0; i < 100; ++i)
            builder.add(api,
                ApiCall {first + i * 10000000, first + i * 10000000 + 5000,
                    builder.intern("cudaLaunchKernel"), CorrelationId(uint32_t(i + 1)), {}});
        return std::make_shared<const Trace>(builder.build(1));
    };
    const auto late = make(150000000000); // events from 150 s, for one second
    views::TimelineState lateState(late);
    CHECK(lateState.bounds().start == 0);
    CHECK(lateState.visible() == lateState.home());
    CHECK(lateState.home().start < late->span.start);
    CHECK(lateState.home().start > late->span.start - late->span.duration() / 50);
    CHECK(lateState.home().end >= late->span.end);
    CHECK(
        lateState.home().end <= late->span.end + late->span.duration() / 50); // B1: no 1.5 s of empty margin
    lateState.setVisible({0, 1000}, views::HistoryMode::Record);
    lateState.zoomToAll();
    CHECK(lateState.visible() == lateState.home());

    const auto early = make(1000000); // events from 1 ms: the view starts at session start
    const views::TimelineState earlyState(early);
    CHECK(earlyState.home() == earlyState.bounds());
    CHECK(earlyState.home().start == 0);
}
