// NVTX ranges projected onto the GPUs (model/derived/nvtx_projection.h) and nvtx_gpu_proj_sum, on a
// trace whose projections follow by construction: nested and overlapping ranges, calls inside
// and outside them, a driver call nested in its runtime call, work on two GPUs and streams.
#include "model/derived/nvtx_projection.h"
#include "model/stats/nvtx_projection_sum.h"
#include "stats_fixtures.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace sightline;
using namespace sightline::test;

namespace {

constexpr Tid kMain {1};
constexpr Tid kWorker {2};

void addCall(TraceBuilder& b, Tid tid, Timestamp start, uint32_t correlation)
{
    b.add(b.hostTrack(TrackKind::CudaApi, kPid, tid),
        ApiCall {start, start + 5, b.intern("cudaLaunchKernel"), CorrelationId(correlation), {}});
}

void addKernelOn(
    TraceBuilder& b, uint32_t device, uint32_t stream, Timestamp start, Timestamp end, uint32_t correlation)
{
    const TrackId track
        = b.gpuTrack(TrackKind::Kernels, kPid, DeviceId(device), ContextId(1), StreamId(stream));
    b.add(track, KernelEvent {start, end, b.intern("k"), CorrelationId(correlation), {}});
}

void addCopyOn(
    TraceBuilder& b, uint32_t device, uint32_t stream, Timestamp start, Timestamp end, uint32_t correlation)
{
    const TrackId track
        = b.gpuTrack(TrackKind::Memory, kPid, DeviceId(device), ContextId(1), StreamId(stream));
    b.add(track,
        MemoryEvent {start, end, CorrelationId(correlation),
            copyOp(CopyKind::HtoD, MemoryKind::Pinned, MemoryKind::Device), 64});
}

void addRange(TraceBuilder& b, Tid tid, std::string_view name, Timestamp start, Timestamp end,
    NvtxStyle style = NvtxStyle::PushPop, DomainId domain = {}, Tid endThread = {})
{
    NvtxAttributes attributes;
    attributes.style = style;
    attributes.domain = domain;
    attributes.endThread = endThread.value != 0 ? endThread : tid;
    b.add(
        b.hostTrack(TrackKind::Nvtx, kPid, tid, domain), NvtxEvent {start, end, b.intern(name), attributes});
}

// The trace; what each range projects to is worked out beside it.
Trace projectionTrace()
{
    TraceBuilder b;
    const DomainId app = b.addDomain("app");
    // Main thread. "outer" [100, 1000) holds "inner" [200, 400) and the start/end range
    // app:async [150, 260), which overlaps "inner" without nesting in it.
    addRange(b, kMain, "outer", 100, 1000);
    addRange(b, kMain, "inner", 200, 400);
    addRange(b, kMain, "async", 150, 260, NvtxStyle::StartEnd, app);
    addRange(b, kMain, "mark", 250, 250, NvtxStyle::Mark); // marks project nothing
    addRange(b, kMain, "handoff", 240, 320, NvtxStyle::StartEnd, {}, kWorker); // ended elsewhere: left out
    addCall(b, kMain, 250, 1); // in outer, inner, async: a kernel on GPU 0 [500, 600)
    addKernelOn(b, 0, 7, 500, 600, 1);
    addCall(b, kMain, 300, 2); // in outer, inner: a copy on GPU 0 [450, 700)
    addCopyOn(b, 0, 8, 450, 700, 2);
    // The driver call inside the runtime call carries its id: the copy counts once.
    b.add(b.hostTrack(TrackKind::CudaApi, kPid, kMain),
        ApiCall {301, 303, b.intern("cuMemcpyAsync"), CorrelationId(2), {}});
    addCall(b, kMain, 500, 3); // in outer: two kernels (a graph) on GPU 1 [800, 900) and [910, 990)
    addKernelOn(b, 1, 7, 800, 900, 3);
    addKernelOn(b, 1, 7, 910, 990, 3);
    addCall(b, kMain, 999, 4); // the last nanosecond of outer: a kernel on GPU 0 [1200, 1300)
    addKernelOn(b, 0, 7, 1200, 1300, 4);
    addCall(b, kMain, 1000, 5); // where outer ends: in no range
    addKernelOn(b, 0, 7, 1400, 1500, 5);
    addRange(b, kMain, "inner", 1100, 1200); // a second "inner", outermost this time
    addCall(b, kMain, 1150, 6);
    addKernelOn(b, 0, 8, 1600, 1700, 6);
    addRange(b, kMain, "idle", 2000, 2100); // no calls: no projection

    // Worker thread: its call at 260 lies in the main thread's ranges' time but is its own.
    addRange(b, kWorker, "worker", 0, 5000);
    addCall(b, kWorker, 260, 7);
    addKernelOn(b, 0, 7, 2000, 2100, 7);
    addCall(b, kWorker, 4000, 8);
    addKernelOn(b, 1, 8, 4100, 4200, 8);

    // An NVTX row without a thread (ranges an importer put on a stream) is not projected.
    NvtxAttributes onStream;
    b.add(b.gpuTrack(TrackKind::Nvtx, kPid, DeviceId(0), ContextId(1), StreamId(7)),
        NvtxEvent {0, 6000, b.intern("annotation"), onStream});
    return b.build(1);
}

std::string rangeText(const Trace& trace, const ProjectedRange& p)
{
    return std::string(trace.strings[trace.track(p.range.track).events.name[p.range.index]]);
}

struct Expected
{
    std::string range;
    uint32_t device;
    TimeRange span;
    uint64_t operations;
    uint32_t level, children;
};

const std::vector<StatsCell>& rowOf(const StatsTable& table, std::string_view range)
{
    for (const auto& row : table.rows)
        if (std::get<std::string>(row[0]) == range) return row;
    FAIL("no row " << range);
    return table.rows.front();
}

} // namespace

TEST_CASE("NVTX ranges project onto each GPU the work their thread's calls launched inside them")
{
    const Trace trace = projectionTrace();
    const std::vector<ProjectedRange> projected = projectNvtxRanges(trace);

    const std::vector<Expected> expected {
        {"outer", 0, {450, 1300}, 3, 0, 2}, // the kernel, the copy (once) and the kernel at 999
        {"outer", 1, {800, 990}, 2, 0, 2}, // both kernels of call 3
        {"inner", 0, {450, 700}, 2, 1, 0},
        {"async", 0, {500, 600}, 1, 1, 0},
        {"inner", 0, {1600, 1700}, 1, 0, 0},
        {"worker", 0, {2000, 2100}, 1, 0, 0},
        {"worker", 1, {4100, 4200}, 1, 0, 0},
    };
    REQUIRE(projected.size() == expected.size());
    for (const Expected& e : expected) {
        INFO(e.range << " on GPU " << e.device << " from " << e.span.start);
        const auto found = std::find_if(projected.begin(), projected.end(), [&](const ProjectedRange& p) {
            return rangeText(trace, p) == e.range && p.device.value == e.device
                && p.span.start == e.span.start;
        });
        REQUIRE(found != projected.end());
        CHECK(found->span == e.span);
        CHECK(found->operations == e.operations);
        CHECK(found->level == e.level);
        CHECK(found->children == e.children);
    }
    // Ordered by range, then device: a range's projections are neighbours.
    CHECK(std::is_sorted(
        projected.begin(), projected.end(), [](const ProjectedRange& a, const ProjectedRange& b) {
            return a.range != b.range ? a.range < b.range : a.device < b.device;
        }));
}

TEST_CASE("nvtx_gpu_proj_sum joins each range's GPUs and sums per name and style")
{
    const Trace trace = projectionTrace();
    const StatsTable table = nvtxGpuProjectionSum(trace);
    CHECK(table.name == "nvtx_gpu_proj_sum");
    REQUIRE(table.columns.size() == 14);
    CHECK(table.columns[2].header == "Total Proj Time (ns)");
    CHECK(table.columns[13].header == "Avg Num Child");

    // By total projected time: worker [2000, 4200) across both GPUs, outer [450, 1300), the
    // two "inner" (250 and 100), app:async.
    REQUIRE(table.rows.size() == 4);
    CHECK(std::get<std::string>(table.rows[0][0]) == "worker");
    CHECK(std::get<std::string>(table.rows[1][0]) == "outer");
    CHECK(std::get<std::string>(table.rows[2][0]) == "inner");
    CHECK(std::get<std::string>(table.rows[3][0]) == "app:async");

    const auto& worker = rowOf(table, "worker");
    CHECK(std::get<int64_t>(worker[2]) == 2200);
    CHECK(std::get<int64_t>(worker[3]) == 5000);
    CHECK(std::get<int64_t>(worker[10]) == 2);

    const auto& outer = rowOf(table, "outer");
    CHECK(std::get<std::string>(outer[1]) == "PushPop");
    CHECK(std::get<int64_t>(outer[2]) == 850);
    CHECK(std::get<int64_t>(outer[3]) == 900);
    CHECK(std::get<int64_t>(outer[4]) == 1);
    CHECK(std::get<int64_t>(outer[10]) == 5);
    CHECK(std::get<double>(outer[12]) == 0.0);
    CHECK(std::get<double>(outer[13]) == 2.0);

    const auto& inner = rowOf(table, "inner");
    CHECK(std::get<int64_t>(inner[2]) == 350); // Total Proj Time
    CHECK(std::get<int64_t>(inner[3]) == 300); // Total Range Time: 200 + 100
    CHECK(std::get<int64_t>(inner[4]) == 2); // Range Instances
    CHECK(std::get<double>(inner[5]) == Approx(175.0)); // Proj Avg
    CHECK(std::get<double>(inner[6]) == Approx(175.0)); // Proj Med
    CHECK(std::get<int64_t>(inner[7]) == 100); // Proj Min
    CHECK(std::get<int64_t>(inner[8]) == 250); // Proj Max
    CHECK(std::get<double>(inner[9]) == Approx(std::sqrt(2 * 75.0 * 75.0))); // Proj StdDev (n - 1)
    CHECK(std::get<int64_t>(inner[10]) == 3); // Total GPU Ops
    CHECK(std::get<double>(inner[11]) == Approx(1.5)); // Avg GPU Ops
    CHECK(std::get<double>(inner[12]) == Approx(0.5)); // Avg Range Lvl: 1 and 0
    CHECK(std::get<double>(inner[13]) == 0.0);

    const auto& async = rowOf(table, "app:async");
    CHECK(std::get<std::string>(async[1]) == "StartEnd");
    CHECK(std::get<int64_t>(async[2]) == 100);
    CHECK(std::get<int64_t>(async[3]) == 110);
    CHECK(std::get<double>(async[12]) == 1.0);
}

TEST_CASE("nvtx_gpu_proj_sum over a range counts the ranges starting in it")
{
    const Trace trace = projectionTrace();
    // Only the second "inner" starts in [1000, 6000); the worker's range started at 0.
    const StatsTable table = nvtxGpuProjectionSum(trace, TimeRange {1000, 6000});
    REQUIRE(table.rows.size() == 1);
    CHECK(std::get<std::string>(table.rows[0][0]) == "inner");
    CHECK(std::get<int64_t>(table.rows[0][2]) == 100);
    CHECK(std::get<int64_t>(table.rows[0][4]) == 1);

    CHECK(nvtxGpuProjectionSum(trace, TimeRange {6000, 7000}).rows.empty());
}

TEST_CASE("a trace without NVTX ranges or without GPU work projects nothing")
{
    TraceBuilder calls;
    addCall(calls, kMain, 10, 1);
    addKernelOn(calls, 0, 7, 20, 30, 1);
    CHECK(projectNvtxRanges(calls.build(1)).empty());

    TraceBuilder ranges;
    addRange(ranges, kMain, "r", 0, 100);
    addCall(ranges, kMain, 10, 1); // a call whose work was not recorded
    const Trace trace = ranges.build(1);
    CHECK(projectNvtxRanges(trace).empty());
    CHECK(nvtxGpuProjectionSum(trace).rows.empty());
}
