// Reading part of a report: the outline of a format 1.1 report from its small chunks alone
// (what `sightline info` prints), and a read that decodes only some kinds (what `sightline
// stats` asks for), whose other batches are skipped unread. Reports written before 1.1 still
// open whole.
#include "../../test_paths.h"
#include "../support/file_bytes.h"
#include "../support/random_trace.h"
#include "../support/report_chunks.h"
#include "generate.h"
#include "model/format/frame_index.h"
#include "model/format/report_io.h"
#include "model/format/report_outline.h"
#include "model/index/lane_query.h"

#include <catch2/catch.hpp>
#include <functional>

using namespace sightline;

namespace {

std::string writeTestReport(const std::filesystem::path& dir, Trace trace, uint32_t eventsPerChunk = 500)
{
    const std::string path = (dir / "report.rep").string();
    WriteOptions options;
    options.eventsPerChunk = eventsPerChunk;
    REQUIRE(writeReport(trace, path, options).ok());
    return path;
}

// A generated trace with GPU metrics and a CPU profile, so every kind of batch is present.
Trace generatedWithEverything(uint64_t events)
{
    Trace trace = gen::generateTrace({.events = events});
    gen::addGeneratedGpuMetrics(trace, 20000);
    gen::addGeneratedCpuSamples(trace, 1000, 3);
    return trace;
}

DecodeSelection only(TrackKind kind)
{
    DecodeSelection select = DecodeSelection::nothing();
    select.trackKinds = 1u << unsigned(kind);
    return select;
}

} // namespace

TEST_CASE("a 1.1 report outlines from its small chunks as the whole read does")
{
    const auto dir = test::scratchDir("partial-1");
    const std::string path = writeTestReport(dir, generatedWithEverything(30000));

    const Result<std::optional<ReportOutline>> read = readReportOutline(path);
    REQUIRE(read);
    REQUIRE(read.value().has_value());
    const ReportOutline& outline = *read.value();
    Result<Trace> full = readReport(path);
    REQUIRE(full);
    const TimeRange fullSpan = full->span;
    const ReportOutline expected = outlineOf(std::move(full.value()));

    CHECK(outline.base.storedFormat.minor == rep::kFormatMinor);
    REQUIRE(outline.span.has_value());
    CHECK(*outline.span == fullSpan);
    CHECK(*expected.span == fullSpan);
    CHECK(outline.eventCount() == 30000);
    for (int k = 0; k < kTrackKindCount; ++k)
        CHECK(outline.eventCount(TrackKind(k)) == expected.eventCount(TrackKind(k)));
    REQUIRE(outline.tracks.size() == expected.tracks.size());
    for (size_t t = 0; t < outline.tracks.size(); ++t) {
        CHECK(outline.tracks[t].key == expected.tracks[t].key);
        CHECK(outline.tracks[t].events == expected.tracks[t].events);
        CHECK(outline.tracks[t].lanes == expected.tracks[t].lanes);
    }
    REQUIRE(!outline.counters.empty());
    REQUIRE(outline.counters.size() == expected.counters.size());
    for (size_t c = 0; c < outline.counters.size(); ++c) {
        CHECK(outline.counters[c].series.name == expected.counters[c].series.name);
        CHECK(outline.counters[c].series.device == expected.counters[c].series.device);
        CHECK(outline.counters[c].samples == expected.counters[c].samples);
        CHECK(outline.counters[c].span == expected.counters[c].span);
    }
    CHECK(outline.cpuSamples > 0);
    CHECK(outline.cpuSamples == expected.cpuSamples);
    CHECK(outline.threadStates == expected.threadStates);
    CHECK(outline.base.threads.size() == expected.base.threads.size());
    CHECK(outline.base.gpus.size() == expected.base.gpus.size());
}

TEST_CASE("a read of some kinds holds exactly their tracks and skips the other batches unread")
{
    const auto dir = test::scratchDir("partial-2");
    const std::string path = writeTestReport(dir, test::randomTrace({}));
    const Result<Trace> full = readReport(path);
    REQUIRE(full);

    ReadOptions kernelsOnly;
    kernelsOnly.select = only(TrackKind::Kernels);
    const Result<Trace> kernels = readReport(path, kernelsOnly);
    REQUIRE(kernels);
    std::vector<const Track*> expected;
    for (const Track& track : full->tracks)
        if (track.key.kind == TrackKind::Kernels) expected.push_back(&track);
    REQUIRE(!expected.empty());
    REQUIRE(kernels->tracks.size() == expected.size());
    for (size_t t = 0; t < expected.size(); ++t) {
        CHECK(kernels->tracks[t].key == expected[t]->key);
        CHECK(kernels->tracks[t].laneBegin == expected[t]->laneBegin);
        CHECK(kernels->tracks[t].events == expected[t]->events);
    }
    CHECK(kernels->span == full->span); // the whole report's, as the file stores it
    CHECK(kernels->counterSeries.empty());
    CHECK(!full->counterSeries.empty());
    CHECK(kernels->eventCount(TrackKind::CudaApi) == 0);

    // Damage one NVTX batch: the whole read refuses the file, the kernels-only read never
    // decompresses that batch, so it still opens with the same kernels.
    const std::string damaged = test::withDamagedBatch(
        path, dir, rep::ChunkKind::Events, [&](const rep::FrameRef& frame) {
            return frame.track < full->tracks.size() && full->tracks[frame.track].key.kind == TrackKind::Nvtx;
        });
    const Result<Trace> refused = readReport(damaged);
    REQUIRE(!refused);
    CHECK_THAT(refused.error(), Catch::Contains("damaged"));
    const Result<Trace> stillKernels = readReport(damaged, kernelsOnly);
    REQUIRE(stillKernels);
    CHECK(stillKernels->eventCount() == kernels->eventCount());
    ReadOptions nvtxOnly;
    nvtxOnly.select = only(TrackKind::Nvtx);
    CHECK(!readReport(damaged, nvtxOnly));
}

TEST_CASE("counters and the CPU profile are read only when selected")
{
    const auto dir = test::scratchDir("partial-3");
    const std::string path = writeTestReport(dir, generatedWithEverything(20000));
    ReadOptions options;
    options.select = DecodeSelection::nothing();
    const Result<Trace> nothing = readReport(path, options);
    REQUIRE(nothing);
    CHECK(nothing->tracks.empty());
    CHECK(nothing->counterSeries.empty());
    CHECK(nothing->cpu.empty());
    CHECK(!nothing->threads.empty());
    options.select.counters = true;
    options.select.cpu = true;
    const Result<Trace> both = readReport(path, options);
    const Result<Trace> full = readReport(path);
    REQUIRE(both);
    REQUIRE(full);
    CHECK(both->counterSeries == full->counterSeries);
    CHECK(both->cpu.sameContent(full->cpu));
    CHECK(both->tracks.empty());
    CHECK(both->span == full->span);
}

TEST_CASE("a report written before format 1.1 has no outline and opens whole as before")
{
    const std::filesystem::path old
        = std::filesystem::path(SIGHTLINE_SOURCE_DIR) / "tests/data/captures/compute-bound.rep";
    const Result<std::optional<ReportOutline>> outline = readReportOutline(old.string());
    REQUIRE(outline);
    CHECK(!outline.value().has_value());
    const Result<Trace> trace = readReport(old.string());
    REQUIRE(trace);
    CHECK(trace->storedFormat.major == 1);
    CHECK(trace->storedFormat.minor == 0);
    CHECK(trace->eventCount() > 0);
    ReadOptions kernelsOnly;
    kernelsOnly.select = only(TrackKind::Kernels);
    const Result<Trace> kernels = readReport(old.string(), kernelsOnly);
    REQUIRE(kernels);
    CHECK(kernels->eventCount() == trace->eventCount(TrackKind::Kernels));
}

TEST_CASE("a 1.1 report cut short has no outline: it opens whole and says what was recovered")
{
    const auto dir = test::scratchDir("partial-4");
    const std::string path = writeTestReport(dir, test::randomTrace({}));
    const std::string cut = test::writeCutCopy(path, 0.9, (dir / "cut.rep").string());
    const Result<std::optional<ReportOutline>> outline = readReportOutline(cut);
    REQUIRE(outline);
    CHECK(!outline.value().has_value());
    const Result<Trace> opened = readReport(cut);
    REQUIRE(opened);
    CHECK(opened->eventCount() <= test::randomTrace({}).eventCount()); // the cut may fall after them
    bool said = false;
    for (const Diagnostic& d : opened->diagnostics)
        said = said || d.text.find("cut short") != std::string::npos;
    CHECK(said);
}

TEST_CASE("a read of the events starting in a range keeps every one of them and skips batches outside it")
{
    const auto dir = test::scratchDir("partial-5");
    const std::string path = writeTestReport(dir, test::randomTrace({.eventsPerTrack = 20000}), 32);
    const Result<Trace> full = readReport(path);
    REQUIRE(full);
    // From the start of the 40% point to that of the 50% point of the busiest kernel lane.
    const Track* kernels = nullptr;
    for (const Track& track : full->tracks)
        if (track.key.kind == TrackKind::Kernels && (!kernels || track.size() > kernels->size()))
            kernels = &track;
    REQUIRE(kernels);
    const IndexRange lane0 = kernels->lane(0);
    const TimeRange range {kernels->events.start[lane0.begin + lane0.size() * 2 / 5],
        kernels->events.start[lane0.begin + lane0.size() / 2]};
    ReadOptions options;
    options.select = only(TrackKind::Kernels);
    options.select.startsIn = range;
    const Result<Trace> part = readReport(path, options);
    REQUIRE(part);
    CHECK(part->span == full->span);
    size_t kept = 0, inRange = 0;
    size_t t = 0;
    for (const Track& track : full->tracks) {
        if (track.key.kind != TrackKind::Kernels) continue;
        const Track& mine = part->tracks[t];
        REQUIRE(mine.key == track.key);
        for (uint32_t l = 0; l < track.laneCount(); ++l) {
            const IndexRange want = laneStartingIn(track, l, range);
            const IndexRange got = laneStartingIn(mine, l, range);
            REQUIRE(got.size() == want.size());
            for (uint32_t k = 0; k < want.size(); ++k) {
                CHECK(mine.events.start[got.begin + k] == track.events.start[want.begin + k]);
                CHECK(mine.events.end[got.begin + k] == track.events.end[want.begin + k]);
                CHECK(mine.events.name[got.begin + k] == track.events.name[want.begin + k]);
                CHECK(mine.events.detail[got.begin + k] == track.events.detail[want.begin + k]);
            }
            inRange += want.size();
        }
        kept += mine.size();
        ++t;
    }
    CHECK(t == part->tracks.size());
    CHECK(inRange > 0);
    // Batches of 32 events: what is kept is the range's events and at most a batch on each side
    // per lane, far from the whole.
    CHECK(kept < full->eventCount(TrackKind::Kernels) / 2);
    CHECK(kept >= inRange);

    // A damaged batch outside the range is never read.
    const std::string damaged
        = test::withDamagedBatch(path, dir, rep::ChunkKind::Events, [&](const rep::FrameRef& frame) {
              return frame.starts && frame.starts->end < range.start
                  && full->tracks[frame.track].key.kind == TrackKind::Kernels;
          });
    CHECK(!readReport(damaged));
    const Result<Trace> stillRead = readReport(damaged, options);
    REQUIRE(stillRead);
    CHECK(stillRead->eventCount() == part->eventCount());
}
