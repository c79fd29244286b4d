// The NVTX ranges projected onto the GPUs as derived tracks (model/derived/projected_nvtx_tracks.h):
// their "NVTX (projected)" rows under each GPU, drawn, hit and described like any other event, and
// invisible to everything that walks the stored tracks.
#include "model/construct/trace_builder.h"
#include "model/derived/projected_nvtx_tracks.h"
#include "model/index/lod.h"
#include "views/timeline/frame/draw_list_builder.h"
#include "views/timeline/interaction/event_geometry.h"
#include "views/timeline/interaction/timeline_state.h"
#include "views/timeline/rows/row_layout.h"
#include "views/timeline/rows/row_tree.h"
#include "views/timeline/tooltips/event_tooltip.h"

#include <catch2/catch.hpp>

using namespace sightline;
using namespace sightline::views;

namespace {

constexpr Pid kPid {10};
constexpr Tid kTid {11};

// "step" [0, 1000) holds "fwd" [100, 400). Calls at 150 and 450 launch kernels on GPU 0
// ([500, 700) and [700, 900)); the call at 600 a kernel and a copy on GPU 1 ([1000, 1500),
// [1600, 1700)). So on GPU 0 "step" projects to [500, 900) with 2 operations and "fwd" to
// [500, 700) with 1; on GPU 1 "step" to [1000, 1700) with 2.
Trace projectedTrace()
{
    TraceBuilder b;
    NvtxAttributes pushPop;
    pushPop.endThread = kTid;
    const TrackId nvtx = b.hostTrack(TrackKind::Nvtx, kPid, kTid);
    b.add(nvtx, NvtxEvent {0, 1000, b.intern("step"), pushPop});
    b.add(nvtx, NvtxEvent {100, 400, b.intern("fwd"), pushPop});
    const TrackId api = b.hostTrack(TrackKind::CudaApi, kPid, kTid);
    const StringId launch = b.intern("cudaLaunchKernel");
    for (const auto& [start, correlation] : {std::pair {150, 1}, {450, 2}, {600, 3}})
        b.add(api, ApiCall {start, start + 10, launch, CorrelationId(uint32_t(correlation)), {}});
    auto kernels = [&](uint32_t device) {
        return b.gpuTrack(TrackKind::Kernels, kPid, DeviceId(device), ContextId(1), StreamId(7));
    };
    b.add(kernels(0), KernelEvent {500, 700, b.intern("k"), CorrelationId(1), {}});
    b.add(kernels(0), KernelEvent {700, 900, b.intern("k"), CorrelationId(2), {}});
    b.add(kernels(1), KernelEvent {1000, 1500, b.intern("k"), CorrelationId(3), {}});
    MemoryOp copy;
    copy.kind = MemoryOpKind::Memcpy;
    b.add(b.gpuTrack(TrackKind::Memory, kPid, DeviceId(1), ContextId(1), StreamId(8)),
        MemoryEvent {1600, 1700, CorrelationId(3), copy, 64});
    Trace trace = b.build(1);
    addProjectedNvtxTracks(trace);
    return trace;
}

// The projected event of `name` starting at `start`.
EventRef projectedEvent(const Trace& trace, std::string_view name, Timestamp start)
{
    for (size_t k = 0; k < trace.derivedTracks().size(); ++k) {
        const TrackId id = trace.derivedTrackId(k);
        const Track& track = trace.track(id);
        for (uint32_t i = 0; i < track.size(); ++i)
            if (trace.strings[track.events.name[i]] == name && track.events.start[i] == start) return {id, i};
    }
    FAIL("no projection of " << name << " at " << start);
    return {};
}

} // namespace

TEST_CASE("Projected NVTX tracks are derived: one per GPU and thread, beside the stored tracks")
{
    const Trace trace = projectedTrace();
    CHECK(trace.tracks.size() == 5); // NVTX, CUDA API, two kernel rows, one memory row
    CHECK(trace.eventCount(TrackKind::Nvtx) == 2);
    REQUIRE(trace.derivedTracks().size() == 2);
    CHECK(trace.trackCount() == 7);
    for (size_t k = 0; k < 2; ++k) {
        const TrackId id = trace.derivedTrackId(k);
        CHECK(isProjectedNvtxTrack(trace, id));
        CHECK(trace.track(id).key.device == DeviceId(uint32_t(k)));
        CHECK(trace.track(id).key.tid == kTid);
    }
    CHECK_FALSE(isProjectedNvtxTrack(trace, TrackId(0)));

    // GPU 0: "fwd" nests in "step", lane 1 under lane 0.
    const Track& gpu0 = trace.track(trace.derivedTrackId(0));
    REQUIRE(gpu0.laneCount() == 2);
    const EventRef step = projectedEvent(trace, "step", 500);
    const EventRef fwd = projectedEvent(trace, "fwd", 500);
    CHECK(gpu0.laneOf(step.index) == 0);
    CHECK(gpu0.laneOf(fwd.index) == 1);
    CHECK(gpu0.events.end[step.index] == 900);
    CHECK(gpu0.events.value[step.index] == 2);
    CHECK(gpu0.events.end[fwd.index] == 700);
    CHECK(gpu0.events.value[fwd.index] == 1);
    const EventRef onGpu1 = projectedEvent(trace, "step", 1000);
    CHECK(trace.track(onGpu1.track).events.end[onGpu1.index] == 1700);
    // The lane queries and the levels of detail serve derived tracks too.
    CHECK(trace.windowEvents(step.track, 0, {850, 860}).size() == 1);
    CHECK(trace.windowEvents(step.track, 1, {850, 860}).empty());
    std::vector<LodColumn> columns(2);
    trace.laneLod(step.track, 0, {0, 1000}, columns);
    CHECK(columns[0].busy == Approx(0.0));
    CHECK(columns[1].busy == Approx(0.8)); // [500, 900) of [500, 1000)
    CHECK(columns[1].longest == step.index);
}

TEST_CASE("Each GPU shows its projected ranges first, drawn and hit like other events")
{
    const auto trace = std::make_shared<const Trace>(projectedTrace());
    const RowTree tree = RowTree::build(*trace);
    for (int gpu : {tree.roots()[0], tree.roots()[1]}) {
        const RowNode& node = tree.node(gpu);
        REQUIRE(node.kind == RowKind::Gpu);
        const int row = node.children.front();
        CHECK(tree.node(row).kind == RowKind::NvtxProjection);
        CHECK(tree.node(row).label == QStringLiteral("NVTX (projected)"));
        REQUIRE(tree.node(row).tracks.size() == 1);
        CHECK(tree.leafOf(tree.node(row).tracks.front()) == row);
        CHECK(isProjectedNvtxTrack(*trace, tree.node(row).tracks.front()));
        // The Events View lists stored events only.
        CHECK(tree.tracksBelow(row).empty());
        for (TrackId id : tree.tracksBelow(gpu))
            CHECK_FALSE(trace->isDerived(id));
    }

    // Drawn: over the whole trace each projected range is a box in its lane.
    const EventRef step = projectedEvent(*trace, "step", 500);
    const EventRef fwd = projectedEvent(*trace, "fwd", 500);
    RowLayout layout;
    layout.rebuild(tree, *trace, 20);
    const EventStyle style(*trace, false);
    DrawListBuilder builder(*trace, style);
    builder.setParallel(false);
    DrawList list;
    const TimeScale scale({0, 2000}, 1000);
    builder.build(tree, layout, scale, 0, layout.totalHeight(), list);
    auto boxOf = [&](EventRef event) -> const DrawBox* {
        for (size_t l = 0; l < list.laneCount; ++l)
            for (const DrawBox& box : list.lanes[l].boxes)
                if (box.event == event) return &box;
        return nullptr;
    };
    const DrawBox* stepBox = boxOf(step);
    REQUIRE(stepBox);
    CHECK(stepBox->x0 == Approx(scale.timeToX(500)));
    CHECK(stepBox->x1 == Approx(scale.timeToX(900)));
    CHECK(boxOf(fwd));

    // Hit: the point over "fwd" in the second lane of GPU 0's projected row finds it.
    TimelineState state(trace);
    state.setCanvasWidth(1000);
    state.setVisible({0, 2000}, HistoryMode::Skip);
    const int row = state.layout().rowOfNode(tree.node(tree.roots()[0]).children.front());
    REQUIRE(row >= 0);
    const int y = state.layout().rows()[size_t(row)].top + state.laneHeight() + 2;
    CHECK(eventAt(state, QPointF(state.scale().timeToX(600), y - state.scrollY())) == fwd);
    CHECK_FALSE(placementsOf(state, fwd).empty());
}

TEST_CASE("A projected range's tooltip gives its name, its GPU span and its operation count")
{
    const Trace trace = projectedTrace();
    const EventTooltip tip = describeEvent(trace, projectedEvent(trace, "step", 500));
    CHECK(tip.title == QStringLiteral("step"));
    CHECK(tip.kind == QStringLiteral("NVTX range projected onto the GPU"));
    CHECK(tip.value(QStringLiteral("GPU operations")) == QStringLiteral("2"));
    CHECK(tip.value(QStringLiteral("Duration")) == QStringLiteral("400 ns"));
    CHECK(tip.value(QStringLiteral("Domain")) == QStringLiteral("default"));
    CHECK(tip.value(QStringLiteral("Launched from thread")).endsWith(QStringLiteral("[11]")));
}

// A launcher (torchrun) and its ranks: the ranks, which put work on the GPUs, come first under
// Processes, then the launcher, each group by pid.
TEST_CASE("Processes with GPU work are listed before the others")
{
    TraceBuilder b;
    const Pid launcher {5}, rank0 {30}, rank1 {20};
    for (Pid pid : {launcher, rank0, rank1}) {
        const Tid tid(pid.value);
        b.addProcess({pid, pid == launcher ? "torchrun" : "python", {}});
        b.addThread({pid, tid, "main"});
        b.add(b.hostTrack(TrackKind::OsRuntime, pid, tid), OsCall {0, 100, b.intern("poll"), 0});
    }
    b.add(b.gpuTrack(TrackKind::Kernels, rank0, DeviceId(0), ContextId(1), StreamId(7)),
        KernelEvent {200, 300, b.intern("k"), CorrelationId(1), {}});
    b.add(b.gpuTrack(TrackKind::Kernels, rank1, DeviceId(1), ContextId(1), StreamId(7)),
        KernelEvent {200, 300, b.intern("k"), CorrelationId(1), {}});
    const Trace trace = b.build();
    const RowTree rows = RowTree::build(trace);
    std::vector<QString> order;
    for (size_t n = 0; n < rows.size(); ++n)
        if (rows.node(int(n)).kind == RowKind::Process) order.push_back(rows.node(int(n)).label);
    REQUIRE(order.size() == 3);
    CHECK(order[0] == QStringLiteral("python [20]"));
    CHECK(order[1] == QStringLiteral("python [30]"));
    CHECK(order[2] == QStringLiteral("torchrun [5]"));
}
