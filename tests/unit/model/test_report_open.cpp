// Opening a report (model/open): the source identity that keeps two reports' GPU 0 and pid 1234
// apart without changing a byte of either, and the one rule of how much of a report to hold.
#include "../../test_paths.h"
#include "../support/file_bytes.h"
#include "generate.h"
#include "model/construct/trace_builder.h"
#include "model/format/report_io.h"
#include "model/format/report_overview.h"
#include "model/import/open_trace.h"
#include "model/open/report_hold.h"
#include "model/open/source_identity.h"

#include <catch2/catch.hpp>
#include <set>

using namespace sightline;

namespace {

// One host thread of pid 1234 launching a kernel onto GPU 0, recorded on `host`.
Trace pid1234OnGpu0(const std::string& host)
{
    TraceBuilder builder;
    builder.metadata().hostname = host;
    builder.metadata().startTimeUtcNs = 1700000000000000000;
    builder.addProcess(Process {Pid(1234), "train.py", {}});
    builder.addGpu(Gpu {.device = DeviceId(0), .name = "NVIDIA H100"});
    const TrackId api = builder.hostTrack(TrackKind::CudaApi, Pid(1234), Tid(1234));
    const TrackId kernels
        = builder.gpuTrack(TrackKind::Kernels, Pid(1234), DeviceId(0), ContextId(1), StreamId(7));
    builder.add(api, ApiCall {100, 200, builder.intern("cudaLaunchKernel"), CorrelationId(1), {}});
    builder.add(kernels, KernelEvent {300, 900, builder.intern("gemm"), CorrelationId(1), {}});
    return builder.build();
}

Trace openIdentified(const std::string& path)
{
    Result<Trace> opened = openTrace(path);
    REQUIRE(opened);
    identifySource(opened.value(), path);
    return std::move(opened.value());
}

std::set<TrackKey> keysOf(const Trace& trace)
{
    std::set<TrackKey> keys;
    for (const Track& track : trace.tracks)
        keys.insert(track.key);
    return keys;
}

} // namespace

TEST_CASE("two reports that both have GPU 0 and pid 1234 give distinct keys, processes and GPUs")
{
    const auto dir = test::scratchDir("model-report-open-two-nodes");
    const std::string nodeA = (dir / "node-a.rep").string();
    const std::string nodeB = (dir / "node-b.rep").string();
    REQUIRE(writeReport(pid1234OnGpu0("node-a"), nodeA).ok());
    REQUIRE(writeReport(pid1234OnGpu0("node-b"), nodeB).ok());

    const Trace a = openIdentified(nodeA);
    const Trace b = openIdentified(nodeB);
    REQUIRE(a.tracks.size() == 2);
    REQUIRE(b.tracks.size() == 2);
    // The same pid, tid, device, context and stream, from two sources: no key in common.
    for (const Track& track : a.tracks) {
        CHECK(track.key.source != SourceId());
        CHECK((track.key.kind == TrackKind::Kernels ? track.key.device : DeviceId(0)) == DeviceId(0));
    }
    std::set<TrackKey> both = keysOf(a);
    both.merge(keysOf(b));
    CHECK(both.size() == 4);
    REQUIRE(a.processes.size() == 1);
    REQUIRE(b.processes.size() == 1);
    CHECK(a.processes[0].pid == b.processes[0].pid);
    CHECK_FALSE(a.processes[0] == b.processes[0]);
    REQUIRE(a.gpus.size() == 1);
    REQUIRE(b.gpus.size() == 1);
    CHECK(a.gpus[0].device == b.gpus[0].device);
    CHECK_FALSE(a.gpus[0] == b.gpus[0]);

    // One report opened again, by another spelling of its path, is the same source.
    const Trace again = openIdentified((dir / "." / "node-a.rep").string());
    CHECK(keysOf(again) == keysOf(a));
    // A copy of one node's report elsewhere is another report.
    const std::string copy = (dir / "copy-of-a.rep").string();
    test::writeFileBytes(copy, test::readFileBytes(nodeA));
    std::set<TrackKey> withCopy = keysOf(a);
    withCopy.merge(keysOf(openIdentified(copy)));
    CHECK(withCopy.size() == 4);
}

TEST_CASE("a source identity never reaches the report's bytes")
{
    const auto dir = test::scratchDir("model-report-open-bytes");
    const std::string original = (dir / "original.rep").string();
    REQUIRE(writeReport(pid1234OnGpu0("node-a"), original).ok());
    const Trace opened = openIdentified(original);
    REQUIRE(opened.tracks.front().key.source != SourceId());
    const std::string rewritten = (dir / "rewritten.rep").string();
    REQUIRE(writeReport(opened, rewritten).ok());
    CHECK(test::readFileBytes(rewritten) == test::readFileBytes(original));
}

TEST_CASE("how much of a report to hold: whole within the budget, else its overview and the ranges that fit")
{
    const auto dir = test::scratchDir("model-report-open-hold");
    const std::string path = (dir / "report.rep").string();
    WriteOptions write;
    write.overviewFromEvents = 0;
    write.eventsPerChunk = 1024; // ranges are counted by whole batches
    REQUIRE(writeReport(gen::generateTrace({.events = 60000}), path, write).ok());
    Result<std::optional<ReportOverview>> read = readReportOverview(path);
    REQUIRE(read);
    REQUIRE(read.value());
    const ReportOverview& overview = *read.value();
    const uint64_t events = overview.events;
    REQUIRE(events == 60000);
    const ReportSize size {events, &overview, overview.trace.span};
    const uint64_t whole = events * kResidentBytesPerEvent;

    // Within the budget: whole, whatever the view.
    CHECK(decideHold(size, std::nullopt, whole, RangeMargin::Around).kind == HoldKind::Whole);
    CHECK(decideHold(size, overview.trace.span, whole, RangeMargin::Exact).kind == HoldKind::Whole);
    // A size not known (no outline): read whole.
    CHECK(decideHold(ReportSize {}, std::nullopt, 0, RangeMargin::Around).kind == HoldKind::Whole);
    // Over it: the overview, or refused without one.
    const Hold opened = decideHold(size, std::nullopt, whole - 1, RangeMargin::Around);
    CHECK(opened.kind == HoldKind::Overview);
    CHECK(opened.events == events);
    CHECK(decideHold({events, nullptr}, std::nullopt, whole - 1, RangeMargin::Around).kind
        == HoldKind::Refused);

    // A view a hundredth of the span wide, in the middle: three times it where that fits.
    const TimeRange span = overview.trace.span;
    const Duration width = span.duration() / 100;
    const TimeRange view {span.start + span.duration() / 2, span.start + span.duration() / 2 + width};
    const TimeRange around {view.start - width, view.end + width};
    const uint64_t inAround = overview.eventsStartingIn(around);
    const uint64_t inView = overview.eventsStartingIn(view);
    REQUIRE(inView < inAround);
    REQUIRE(inAround < events);
    const Hold followed = decideHold(size, view, inAround * kResidentBytesPerEvent, RangeMargin::Around);
    CHECK(followed.kind == HoldKind::Range);
    CHECK(followed.range == around);
    CHECK(followed.events == inAround);
    // Room for the view alone: the view.
    const Hold narrow = decideHold(size, view, inView * kResidentBytesPerEvent, RangeMargin::Around);
    CHECK(narrow.kind == HoldKind::Range);
    CHECK(narrow.range == view);
    // A range the user chose is read as chosen, never widened.
    const Hold chosen = decideHold(size, view, inAround * kResidentBytesPerEvent, RangeMargin::Exact);
    CHECK(chosen.kind == HoldKind::Range);
    CHECK(chosen.range == view);
    // Not even the view fits: the overview, with what the view would have needed.
    const Hold tooWide = decideHold(size, view, inView * kResidentBytesPerEvent - 1, RangeMargin::Around);
    CHECK(tooWide.kind == HoldKind::Overview);
    CHECK(tooWide.events == inView);
    // At the span's edge the margin stops at the span.
    const TimeRange atStart {span.start, span.start + width};
    const Hold edge = decideHold(size, atStart, whole - 1, RangeMargin::Around);
    REQUIRE(edge.kind == HoldKind::Range);
    CHECK(edge.range.start == span.start);
    CHECK(edge.range.end == atStart.end + width);
}
