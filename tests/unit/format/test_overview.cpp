// The overview a 1.2 report stores after its track list (model/derived/overview_tracks.h,
// model/format/report_overview.h): it draws each lane as its events do at a whole-span zoom,
// its size does not grow with the lane's, it is read from the small chunks alone, and a report
// without one (older, or cut short) has none. Damage in it is refused like damage anywhere.
#include "../../test_paths.h"
#include "../support/file_bytes.h"
#include "../support/report_chunks.h"
#include "generate.h"
#include "model/construct/trace_builder.h"
#include "model/derived/overview_tracks.h"
#include "model/format/frame_index.h"
#include "model/format/report_io.h"
#include "model/format/report_overview.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace sightline;

namespace {

std::string writeTestReport(
    const std::filesystem::path& dir, const Trace& trace, uint32_t eventsPerChunk = 4096)
{
    const std::string path = (dir / "report.rep").string();
    WriteOptions options;
    options.eventsPerChunk = eventsPerChunk;
    options.overviewFromEvents = 0;
    REQUIRE(writeReport(trace, path, options).ok());
    return path;
}

// One stream of `count` kernels of `duration` ns every `period` ns, alternating two names, with
// a long kernel (many overview widths) in the middle.
Trace denseKernels(uint32_t count, Duration duration, Duration period)
{
    TraceBuilder builder;
    const TrackId track
        = builder.gpuTrack(TrackKind::Kernels, Pid(1), DeviceId(0), ContextId(1), StreamId(7));
    const StringId names[2] = {builder.intern("gemm"), builder.intern("relu")};
    for (uint32_t i = 0; i < count; ++i) {
        KernelEvent k;
        k.start = Timestamp(i) * period;
        k.end = k.start + (i == count / 2 ? period * 5000 : duration);
        k.name = names[i % 2];
        k.correlation = CorrelationId(i + 1);
        builder.add(track, k);
        if (i == count / 2) i += 5000;
    }
    return builder.build();
}

Duration busyOf(const Track& track, IndexRange lane)
{
    Duration busy = 0;
    for (uint32_t i = lane.begin; i < lane.end; ++i)
        busy += track.duration(i);
    return busy;
}

} // namespace

TEST_CASE("a lane's overview keeps its busy time, stays within its bound and draws the same columns")
{
    const Trace trace = denseKernels(400000, 300, 1000);
    const Track& full = trace.tracks[0];
    const TimeRange span = trace.span;
    const Duration width = overviewWidth(span);
    const Track overview = overviewTrack(full, width);
    REQUIRE(overview.laneCount() == full.laneCount());
    CHECK(overview.key == full.key);
    CHECK(overview.size() <= size_t(3 * kOverviewColumns + 1));
    CHECK(overview.size() < full.size() / 10);
    CHECK(busyOf(overview, overview.lane(0)) == busyOf(full, full.lane(0)));
    // The long kernel stands for itself.
    bool longKept = false;
    for (uint32_t i = 0; i < overview.size(); ++i)
        longKept = longKept || overview.duration(i) == 1000 * 5000;
    CHECK(longKept);

    // Drawn over 400 columns (each about 20 overview widths), every column's busy fraction is
    // within two overview widths of the lane's own, and the same columns hold events.
    Trace drawn;
    drawn.tracks.push_back(overview);
    drawn.buildIndexes();
    constexpr size_t kColumns = 400;
    std::vector<LodColumn> fromEvents(kColumns), fromOverview(kColumns);
    trace.laneLod(TrackId(0), 0, span, fromEvents);
    drawn.laneLod(TrackId(0), 0, span, fromOverview);
    const double allowed = 2.0 * double(width) / (double(span.duration()) / kColumns) + 0.01;
    for (size_t c = 0; c < kColumns; ++c) {
        INFO("column " << c);
        CHECK(std::abs(fromEvents[c].busy - fromOverview[c].busy) <= allowed);
        CHECK((fromEvents[c].count > 0) == (fromOverview[c].count > 0));
    }
}

TEST_CASE("the overview's size does not grow with the report's event count")
{
    const Trace small = denseKernels(40000, 300, 10000);
    const Trace large = denseKernels(400000, 30, 1000); // ten times the events, the same span
    const Track a = overviewTrack(small.tracks[0], overviewWidth(small.span));
    const Track b = overviewTrack(large.tracks[0], overviewWidth(large.span));
    CHECK(b.size() <= a.size() * 3 / 2);
    CHECK(large.eventCount() >= 9 * small.eventCount());
}

TEST_CASE("a 1.2 report's overview reads back with the report's tracks, span and event count")
{
    const auto dir = test::scratchDir("overview-1");
    const Trace trace = gen::generateTrace({.events = 60000});
    const std::string path = writeTestReport(dir, trace);
    const Result<std::optional<ReportOverview>> read = readReportOverview(path);
    REQUIRE(read);
    REQUIRE(read->has_value());
    const ReportOverview& overview = read.value().value();
    CHECK(overview.events == trace.eventCount());
    CHECK(overview.trace.span == trace.span);
    CHECK(overview.trace.storedFormat.minor >= 2);
    REQUIRE(overview.trace.tracks.size() == trace.tracks.size());
    const Overview expected = buildOverview(trace);
    for (size_t t = 0; t < trace.tracks.size(); ++t) {
        INFO("track " << t);
        CHECK(overview.trace.tracks[t].key == trace.tracks[t].key);
        CHECK(overview.trace.tracks[t].laneBegin == expected.tracks[t].laneBegin);
        CHECK(overview.trace.tracks[t].events == expected.tracks[t].events);
    }
    CHECK(overview.trace.strings.size() == trace.strings.size());
    // Its own descriptor tables: those the stand-ins use, fewer than the report's where the
    // report's grow with its events.
    CHECK(overview.trace.kernelLaunches == expected.descriptors.kernelLaunches);
    CHECK(overview.trace.nvtxAttributes == expected.descriptors.nvtxAttributes);
    CHECK(overview.trace.syncOps == expected.descriptors.syncOps);
    CHECK(overview.trace.nvtxAttributes.size() < trace.nvtxAttributes.size());
    for (const Track& track : overview.trace.tracks)
        for (uint32_t i = 0; i < track.size(); ++i)
            if (track.key.kind == TrackKind::Kernels) {
                INFO("stand-in " << i);
                REQUIRE(track.events.detail[i] < overview.trace.kernelLaunches.size());
            }
    // The full read is what it was: the overview chunks are skipped.
    const Result<Trace> whole = readReport(path);
    REQUIRE(whole);
    CHECK(whole->eventCount() == trace.eventCount());
}

TEST_CASE("a report under the overview's threshold stores none and opens whole")
{
    const auto dir = test::scratchDir("overview-4");
    const std::string path = (dir / "small.rep").string();
    const Trace trace = gen::generateTrace({.events = 20000});
    REQUIRE(writeReport(trace, path).ok()); // the default threshold: a million events
    const Result<std::optional<ReportOverview>> read = readReportOverview(path);
    REQUIRE(read);
    CHECK(!read->has_value());
    const Result<Trace> whole = readReport(path);
    REQUIRE(whole);
    CHECK(whole->eventCount() == trace.eventCount());
}

TEST_CASE("older reports and reports cut short have no overview")
{
    const std::filesystem::path old
        = std::filesystem::path(SIGHTLINE_SOURCE_DIR) / "tests/data/captures/compute-bound.rep";
    const Result<std::optional<ReportOverview>> fromOld = readReportOverview(old.string());
    REQUIRE(fromOld);
    CHECK(!fromOld->has_value());

    const auto dir = test::scratchDir("overview-2");
    const std::string path = writeTestReport(dir, gen::generateTrace({.events = 20000}));
    const std::string cut = test::writeCutCopy(path, 0.9, (dir / "cut.rep").string());
    const Result<std::optional<ReportOverview>> fromCut = readReportOverview(cut);
    REQUIRE(fromCut);
    CHECK(!fromCut->has_value());

    const Result<std::optional<ReportOverview>> missing = readReportOverview((dir / "missing.rep").string());
    CHECK(!missing);
}

TEST_CASE("a damaged overview batch is refused with a sentence naming the file")
{
    const auto dir = test::scratchDir("overview-3");
    const std::string path = writeTestReport(dir, gen::generateTrace({.events = 20000}));
    const std::string damaged = test::withDamagedBatch(
        path, dir, rep::ChunkKind::Overview, [](const rep::FrameRef&) { return true; });
    const Result<std::optional<ReportOverview>> read = readReportOverview(damaged);
    REQUIRE(!read);
    CHECK(read.error().find("damaged.rep") != std::string::npos);
    CHECK(read.error().find("damaged") != std::string::npos);
}

TEST_CASE("the overview says how many events a read of a range decodes, before it is read")
{
    const auto dir = test::scratchDir("overview-5");
    const Trace trace = gen::generateTrace({.events = 60000});
    const std::string path = writeTestReport(dir, trace, 256);
    const Result<std::optional<ReportOverview>> read = readReportOverview(path);
    REQUIRE(read);
    REQUIRE(read->has_value());
    const ReportOverview& overview = read.value().value();
    CHECK(overview.eventsStartingIn(trace.span) == trace.eventCount());
    const TimeRange tenth {trace.span.start + trace.span.duration() / 2,
        trace.span.start + trace.span.duration() / 2 + trace.span.duration() / 10};
    ReadOptions options;
    options.select.startsIn = tenth;
    const Result<Trace> part = readReport(path, options);
    REQUIRE(part);
    // The estimate is what the read decodes, and far less than the whole report.
    CHECK(overview.eventsStartingIn(tenth) == part->eventCount());
    CHECK(overview.eventsStartingIn(tenth) < trace.eventCount() / 2);
}
