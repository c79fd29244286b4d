// Reports crafted as a corrupt disk or a hostile sender could make them: sizes, offsets and
// counts that lie. Each must be refused with one sentence, quickly and without allocating for
// the lie, never crash. The files are made here from a real report, chunk by chunk.
#include "../../test_paths.h"
#include "../support/file_bytes.h"
#include "../support/peak_memory.h"
#include "../support/random_trace.h"
#include "../support/report_chunks.h"
#include "model/format/container.h"
#include "model/format/frame_index.h"
#include "model/format/report.pb.h"
#include "model/format/report_io.h"

#include <catch2/catch.hpp>
#include <fstream>

using namespace sightline;
using rep::ChunkKind;

namespace {

using Chunks = test::ReportChunks;
using test::firstChunk;
using test::joinReport;
using test::refusal;
using test::splitReport;

// Each test case works in its own scratch folder: ctest runs them in parallel, and
// scratchDir() empties the folder it names.
std::string goodReport(const std::filesystem::path& dir)
{
    const std::string path = (dir / "good.rep").string();
    WriteOptions w;
    w.eventsPerChunk = 500;
    REQUIRE(writeReport(test::randomTrace({}), path, w).ok());
    return test::readFileBytes(path);
}

} // namespace

TEST_CASE("the chunk helpers give back a report that opens as before")
{
    const auto dir = test::scratchDir("crafted-1");
    const std::string bytes = goodReport(dir);
    const std::string path = (dir / "rejoined.rep").string();
    test::writeFileBytes(path, joinReport(splitReport(bytes)));
    const Result<Trace> opened = readReport(path);
    REQUIRE(opened);
    CHECK(opened->eventCount() == test::randomTrace({}).eventCount());
}

TEST_CASE("offsets near 2^64 in the trailer or the footer are damage, not a crash")
{
    const auto dir = test::scratchDir("crafted-2");
    const Chunks report = splitReport(goodReport(dir));
    std::string trailer = joinReport(report);
    for (int i = 0; i < 8; ++i) // the footer offset: 2^64 - 4
        trailer[trailer.size() - rep::kTrailerSize + size_t(i)] = char(i == 0 ? 0xfc : 0xff);
    CHECK_THAT(refusal(dir, "trailer.rep", trailer), Catch::Contains("is damaged"));

    const std::string entry
        = joinReport(report, [](rep::Footer& f) { f.mutable_chunks(1)->set_offset(~uint64_t(0) - 8); });
    CHECK_THAT(refusal(dir, "entry.rep", entry), Catch::Contains("is damaged"));
}

TEST_CASE("a frame claiming a huge raw size is refused before anything is allocated for it")
{
    const auto dir = test::scratchDir("crafted-3");
    std::string bytes = joinReport(splitReport(goodReport(dir)));
    // The first frame's raw size (bytes 4-7 of its header, after the preamble): 4 GB.
    for (size_t i = 0; i < 4; ++i)
        bytes[rep::kPreambleSize + 4 + i] = char(0xff);
    const long before = test::peakResidentKilobytes();
    CHECK_THAT(refusal(dir, "raw-size.rep", bytes), Catch::Contains("is damaged"));
    CHECK(test::peakResidentKilobytes() - before < 256 * 1024);
}

TEST_CASE("tracks claiming more events or lanes than the file holds are refused before allocating")
{
    const auto dir = test::scratchDir("crafted-4");
    const Chunks good = splitReport(goodReport(dir));
    const long before = test::peakResidentKilobytes();

    Chunks huge = good;
    firstChunk(huge, ChunkKind::Tracks).mutable_tracks()->mutable_tracks(0)->set_lane_sizes(0, 0xfffffff0u);
    CHECK_THAT(refusal(dir, "huge-lane.rep", joinReport(huge)), Catch::Contains("is damaged"));

    Chunks many = good;
    auto* track = firstChunk(many, ChunkKind::Tracks).mutable_tracks()->mutable_tracks(0);
    for (int i = 0; i < 3; ++i)
        track->add_lane_sizes(0x7fffffffu); // together past 2^32 in one track
    CHECK_THAT(refusal(dir, "many-events.rep", joinReport(many)), Catch::Contains("2^32"));

    Chunks empty = good;
    auto* lanes = firstChunk(empty, ChunkKind::Tracks).mutable_tracks()->mutable_tracks(0);
    for (int i = 0; i < 1'000'000; ++i)
        lanes->add_lane_sizes(0);
    CHECK_THAT(refusal(dir, "empty-lanes.rep", joinReport(empty)), Catch::Contains("lanes"));

    CHECK(test::peakResidentKilobytes() - before < 256 * 1024);
}

TEST_CASE("damage inside a complete report is called damage, never a cut")
{
    const auto dir = test::scratchDir("crafted-5");
    // Every frame in turn claims to run past the end of the file.
    const std::string bytes = joinReport(splitReport(goodReport(dir)));
    const auto file = std::span(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    const Result<rep::FrameIndex> index = rep::indexFrames(file, "good");
    REQUIRE(index);
    for (size_t f = 0; f < index->frames.size(); f += 7) {
        std::string oversized = bytes;
        for (size_t i = 0; i < 4; ++i) // compressedSize: 0x7fffffff
            oversized[index->frames[f].offset + i] = char(i == 3 ? 0x7f : 0xff);
        CHECK_THAT(refusal(dir, "oversized.rep", oversized), Catch::Contains("is damaged"));
    }

    // Single-bit flips anywhere in the bundled sample: refused as damage (or as not a report),
    // or opened whole; never opened as a report that was cut short.
    const std::string sample
        = test::readFileBytes(std::string(SIGHTLINE_SOURCE_DIR) + "/resources/samples/sample.rep");
    const Result<Trace> original
        = readReport(std::string(SIGHTLINE_SOURCE_DIR) + "/resources/samples/sample.rep");
    REQUIRE(original);
    const std::string path = (dir / "flipped.rep").string();
    test::Rng rng(2000);
    int refused = 0;
    for (int flip = 0; flip < 2000; ++flip) {
        std::string flipped = sample;
        const size_t bit = rng.below(flipped.size() * 8);
        flipped[bit / 8] = char(flipped[bit / 8] ^ (1 << (bit % 8)));
        test::writeFileBytes(path, flipped);
        const Result<Trace> opened = readReport(path);
        INFO("bit " << bit << " of " << sample.size() * 8);
        if (!opened) {
            ++refused;
            CHECK_THAT(opened.error(),
                Catch::Contains("damaged") || Catch::Contains("not a Sightline report")
                    || Catch::Contains("newer"));
            continue;
        }
        CHECK(opened->eventCount() == original->eventCount());
        for (const Diagnostic& d : opened->diagnostics)
            CHECK_THAT(d.text, !Catch::Contains("cut short"));
    }
    CHECK(refused > 1500); // almost every bit is under a checksum
}

TEST_CASE("counter definitions claiming more samples than the file holds are refused before allocating")
{
    const auto dir = test::scratchDir("crafted-6");
    const Chunks good = splitReport(goodReport(dir));
    const long before = test::peakResidentKilobytes();

    Chunks huge = good;
    firstChunk(huge, ChunkKind::CounterDefinitions)
        .mutable_counter_definitions()
        ->mutable_timelines(0)
        ->set_samples(uint64_t(1) << 40);
    CHECK_THAT(refusal(dir, "huge-timeline.rep", joinReport(huge)), Catch::Contains("more samples"));

    Chunks orphan = good;
    firstChunk(orphan, ChunkKind::CounterDefinitions)
        .mutable_counter_definitions()
        ->mutable_series(0)
        ->set_timeline(7);
    CHECK_THAT(refusal(dir, "orphan-series.rep", joinReport(orphan)), Catch::Contains("missing timeline"));

    Chunks backwards = good;
    auto* starts
        = firstChunk(backwards, ChunkKind::CounterBatch).mutable_counter_batch()->mutable_start_delta();
    starts->Set(1, -5);
    CHECK_THAT(refusal(dir, "backwards.rep", joinReport(backwards)), Catch::Contains("out of time order"));

    Chunks missing = good;
    std::erase_if(missing.chunks, [](const auto& c) { return c.first == ChunkKind::CounterBatch; });
    CHECK_THAT(refusal(dir, "no-samples.rep", joinReport(missing)), Catch::Contains("more samples"));

    CHECK(test::peakResidentKilobytes() - before < 256 * 1024);
}

TEST_CASE("chunks of a kind added by a newer writer are skipped with a diagnostic")
{
    const auto dir = test::scratchDir("crafted-7");
    Chunks report = splitReport(goodReport(dir));
    rep::Chunk future;
    future.mutable_diagnostics()->add_items()->set_text("from the future");
    report.chunks.emplace_back(ChunkKind(rep::kLastKnownChunkKind + 3), future);
    const std::string path = (dir / "future.rep").string();
    test::writeFileBytes(path, joinReport(report));
    const Result<Trace> opened = readReport(path);
    REQUIRE(opened);
    CHECK(opened->eventCount() == test::randomTrace({}).eventCount());
    REQUIRE_FALSE(opened->diagnostics.empty());
    CHECK_THAT(opened->diagnostics.back().text, Catch::Contains("newer version"));
}
