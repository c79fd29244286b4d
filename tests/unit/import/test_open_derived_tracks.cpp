// The derived tracks openTrace makes when asked (ReadOptions::deriveTracks): the NVTX ranges
// projected onto the GPUs (model/derived/projected_nvtx_tracks.h), from a report whole or in
// part and from an Nsight Systems export, the same as projecting the trace that was written; and
// never stored, so they cost a reader that does not ask nothing.
#include "../../test_paths.h"
#include "../support/file_bytes.h"
#include "generate.h"
#include "model/derived/projected_nvtx_tracks.h"
#include "model/export/exporters.h"
#include "model/import/open_trace.h"

#include <catch2/catch.hpp>

using namespace sightline;

namespace {

Trace generated()
{
    return gen::generateTrace({.events = 20000});
}

std::string writeTestReport(const std::filesystem::path& path, const Trace& trace)
{
    WriteOptions options;
    options.eventsPerChunk = 512; // batches small enough for a time range to leave most out
    REQUIRE(writeReport(trace, path.string(), options).ok());
    return path.string();
}

Result<Trace> openDerived(const std::string& path, std::optional<TimeRange> startsIn = {})
{
    ReadOptions options;
    options.deriveTracks = true;
    options.select.startsIn = startsIn;
    return openTrace(path, options);
}

size_t eventCount(const std::vector<Track>& tracks)
{
    size_t events = 0;
    for (const Track& track : tracks)
        events += track.size();
    return events;
}

// Whether every projected event stands for a range of its thread's NVTX row: the same text and
// attributes, started no later than the work it launched, and at least one GPU operation.
bool projectionsFollowTheirRanges(const Trace& trace)
{
    for (size_t k = 0; k < trace.derivedTracks().size(); ++k) {
        const TrackId id = trace.derivedTrackId(k);
        if (!isProjectedNvtxTrack(trace, id)) return false;
        const Track& projected = trace.track(id);
        for (uint32_t i = 0; i < projected.size(); ++i) {
            if (projected.events.value[i] < 1) return false;
            bool found = false;
            for (const Track& row : trace.tracks) {
                if (row.key.kind != TrackKind::Nvtx || row.key.pid != projected.key.pid
                    || row.key.tid != projected.key.tid)
                    continue;
                for (uint32_t r = 0; r < row.size() && !found; ++r)
                    found = row.events.name[r] == projected.events.name[i]
                        && row.events.detail[r] == projected.events.detail[i]
                        && row.events.start[r] <= projected.events.start[i];
            }
            if (!found) return false;
        }
    }
    return true;
}

} // namespace

TEST_CASE("openTrace projects a report's NVTX ranges onto the GPUs when asked, whole or in part")
{
    const Trace trace = generated();
    const std::vector<Track> expected = projectedNvtxTracks(trace);
    REQUIRE(expected.size() >= 2);
    const std::string path = writeTestReport(test::scratchDir("open-derived-1") / "report.rep", trace);

    const Result<Trace> plain = openTrace(path);
    REQUIRE(plain);
    CHECK(plain->derivedTracks().empty());

    const Result<Trace> whole = openDerived(path);
    REQUIRE(whole);
    CHECK(whole->tracks.size() == trace.tracks.size());
    REQUIRE(whole->derivedTracks().size() == expected.size());
    for (size_t k = 0; k < expected.size(); ++k) {
        INFO("derived track " << k);
        CHECK(whole->derivedTracks()[k].key == expected[k].key);
        CHECK(whole->derivedTracks()[k].laneBegin == expected[k].laneBegin);
        CHECK(whole->derivedTracks()[k].events == expected[k].events);
    }
    CHECK(projectionsFollowTheirRanges(whole.value()));

    // A time range of it: the ranges read there, fewer than all.
    const TimeRange span = trace.span;
    const Result<Trace> window
        = openDerived(path, TimeRange {span.start + span.duration() / 3, span.start + span.duration() / 2});
    REQUIRE(window);
    CHECK(eventCount(window->derivedTracks()) > 0);
    CHECK(eventCount(window->derivedTracks()) < eventCount(expected));
    CHECK(projectionsFollowTheirRanges(window.value()));

    // Without the CUDA API calls no range launched anything.
    ReadOptions noCalls;
    noCalls.deriveTracks = true;
    noCalls.select.trackKinds &= ~(1u << unsigned(TrackKind::CudaApi));
    const Result<Trace> withoutCalls = openTrace(path, noCalls);
    REQUIRE(withoutCalls);
    CHECK(withoutCalls->eventCount(TrackKind::Nvtx) == trace.eventCount(TrackKind::Nvtx));
    CHECK(withoutCalls->derivedTracks().empty());
}

TEST_CASE("openTrace projects the NVTX ranges of an Nsight Systems export too")
{
    const Trace trace = generated();
    const size_t expected = eventCount(projectedNvtxTracks(trace));
    REQUIRE(expected > 0);
    const std::string path = (test::scratchDir("open-derived-2") / "export.sqlite").string();
    REQUIRE(exportSqlite(trace, path).ok());
    const Result<Trace> opened = openDerived(path);
    REQUIRE(opened);
    CHECK(eventCount(opened->derivedTracks()) == expected);
    CHECK(projectionsFollowTheirRanges(opened.value()));
}

TEST_CASE("derived tracks are never stored: a trace writes the same report with or without them")
{
    Trace trace = generated();
    const auto dir = test::scratchDir("open-derived-3");
    const std::string without = writeTestReport(dir / "without.rep", trace);
    addProjectedNvtxTracks(trace);
    REQUIRE_FALSE(trace.derivedTracks().empty());
    const std::string with = writeTestReport(dir / "with.rep", trace);
    CHECK(test::readFileBytes(with) == test::readFileBytes(without));
}
