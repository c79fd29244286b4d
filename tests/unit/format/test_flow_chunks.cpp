// Flow links in a .rep file (the Flows chunk): they survive a write and a read, equal traces
// still give equal bytes, a read of only some tracks leaves them out, a report without flows
// has no such chunk, and a chunk whose links point at no event is refused as damage.
#include "../../test_paths.h"
#include "../support/file_bytes.h"
#include "../support/random_trace.h"
#include "../support/report_chunks.h"
#include "model/format/container.h"
#include "model/format/report_io.h"

#include <catch2/catch.hpp>

using namespace sightline;
using rep::ChunkKind;

namespace {

// A random trace with links between the first events of its first tracks, and one from the
// last event of the last track holding any back to the first event of the first.
Trace traceWithFlows()
{
    Trace trace = test::randomTrace({.eventsPerTrack = 200});
    std::vector<FlowLink> links;
    const StringId name = trace.strings.intern("handoff");
    for (uint32_t t = 0; t + 1 < trace.tracks.size() && links.size() < 5; ++t)
        if (trace.tracks[t].size() > 0 && trace.tracks[t + 1].size() > 3)
            links.push_back({{TrackId(t), 0}, {TrackId(t + 1), 3}, name});
    uint32_t last = uint32_t(trace.tracks.size() - 1);
    while (last > 0 && trace.tracks[last].size() == 0)
        --last;
    links.push_back({{TrackId(last), uint32_t(trace.tracks[last].size() - 1)}, {TrackId(0), 0}, StringId()});
    trace.setFlows(std::move(links));
    return trace;
}

std::string write(const Trace& trace, const std::filesystem::path& path)
{
    WriteOptions options;
    options.eventsPerChunk = 100;
    REQUIRE(writeReport(trace, path.string(), options).ok());
    return test::readFileBytes(path.string());
}

bool hasChunk(const test::ReportChunks& report, ChunkKind kind)
{
    for (const auto& [k, chunk] : report.chunks)
        if (k == kind) return true;
    return false;
}

} // namespace

TEST_CASE("Flow links survive a report's write and read, and equal traces give equal bytes")
{
    const auto dir = test::scratchDir("flow-chunks-round-trip");
    const Trace trace = traceWithFlows();
    REQUIRE(trace.flows.size() >= 2);
    const std::string bytes = write(trace, dir / "a.rep");
    CHECK(write(traceWithFlows(), dir / "b.rep") == bytes);
    CHECK(hasChunk(test::splitReport(bytes), ChunkKind::Flows));

    const Result<Trace> read = readReport((dir / "a.rep").string());
    REQUIRE(read);
    CHECK(read->flows == trace.flows);
    const FlowLink& first = trace.flows.front();
    CHECK(read->flowPartners(first.to) == trace.flowPartners(first.to));
    CHECK(std::find(read->flowPartners(first.from).begin(), read->flowPartners(first.from).end(), first.to)
        != read->flowPartners(first.from).end());
    // Written again from what was read: the same bytes.
    CHECK(write(read.value(), dir / "c.rep") == bytes);
}

TEST_CASE("A report without flows has no Flows chunk, and a partial read drops flows")
{
    const auto dir = test::scratchDir("flow-chunks-partial");
    const std::string plain = write(test::randomTrace({.eventsPerTrack = 200}), dir / "plain.rep");
    CHECK_FALSE(hasChunk(test::splitReport(plain), ChunkKind::Flows));

    write(traceWithFlows(), dir / "flows.rep");
    ReadOptions options;
    options.select.trackKinds = 1u << unsigned(TrackKind::Kernels);
    const Result<Trace> part = readReport((dir / "flows.rep").string(), options);
    REQUIRE(part);
    CHECK(part->flows.empty());
}

TEST_CASE("A Flows chunk that links events that do not exist is refused as damage")
{
    const auto dir = test::scratchDir("flow-chunks-damaged");
    const Trace trace = traceWithFlows();
    const test::ReportChunks good = test::splitReport(write(trace, dir / "good.rep"));

    test::ReportChunks pastTheEvents = good;
    auto* flows = test::firstChunk(pastTheEvents, ChunkKind::Flows).mutable_flows();
    const uint32_t track = flows->to_track(0);
    flows->set_to_index(0, uint32_t(trace.tracks[track].size()));
    CHECK_THAT(test::refusal(dir, "past.rep", test::joinReport(pastTheEvents)),
        Catch::Contains("is damaged") && Catch::Contains("a flow links an event that does not exist"));

    test::ReportChunks missingTrack = good;
    test::firstChunk(missingTrack, ChunkKind::Flows).mutable_flows()->set_from_track(0, 100000);
    CHECK_THAT(test::refusal(dir, "track.rep", test::joinReport(missingTrack)),
        Catch::Contains("a flow links an event that does not exist"));

    test::ReportChunks ragged = good;
    test::firstChunk(ragged, ChunkKind::Flows).mutable_flows()->add_name(0);
    CHECK_THAT(test::refusal(dir, "ragged.rep", test::joinReport(ragged)),
        Catch::Contains("its flow columns differ in length"));
}
