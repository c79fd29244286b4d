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
#include "model/format/report_outline.h"

#include <catch2/catch.hpp>
#include <chrono>
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

void appendVarint(std::string& out, uint64_t value)
{
    for (; value >= 0x80; value >>= 7)
        out.push_back(char(0x80 | (value & 0x7f)));
    out.push_back(char(value));
}

void appendLe(std::string& out, uint64_t value, int bytes)
{
    for (int i = 0; i < bytes; ++i)
        out.push_back(char((value >> (8 * i)) & 0xff));
}

// A zstd frame, made by hand, of `prefix` followed by `zeros` zero bytes: a raw block, then
// RLE blocks of 128 KiB of zeros at 4 bytes each, so a few kilobytes claim hundreds of
// megabytes, as a hostile file can. No checksum: zstd does not require one. A single-segment
// frame's window is its whole content; otherwise it is 128 KiB.
std::string zstdFrameOfZeros(const std::string& prefix, uint64_t zeros, bool singleSegment)
{
    REQUIRE(prefix.size() < (128u << 10));
    std::string frame;
    appendLe(frame, 0xFD2FB528u, 4); // magic
    // An 8-byte content size, no checksum; without a single segment, a window of 2^(10 + 7).
    frame.push_back(char(singleSegment ? 0xE0 : 0xC0));
    if (!singleSegment) frame.push_back(char(7 << 3));
    appendLe(frame, prefix.size() + zeros, 8);
    const auto block = [&](bool last, uint32_t type, uint64_t size) {
        appendLe(frame, uint64_t(last) | type << 1 | size << 3, 3);
    };
    block(zeros == 0, 0, prefix.size());
    frame += prefix;
    for (uint64_t left = zeros; left > 0;) {
        const uint64_t size = std::min<uint64_t>(left, 128u << 10);
        left -= size;
        block(left == 0, 1, size);
        frame.push_back('\0');
    }
    return frame;
}

// The seconds and the peak resident kilobytes `open` adds.
template <class Open> std::pair<double, long> cost(Open open)
{
    const long before = test::peakResidentKilobytes();
    const auto start = std::chrono::steady_clock::now();
    open();
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    return {seconds.count(), test::peakResidentKilobytes() - before};
}

// The outline `sightline info` prints must refuse `bytes` too; its sentence is returned.
std::string outlineRefusal(
    const std::filesystem::path& dir, const std::string& name, const std::string& bytes)
{
    const std::string path = (dir / name).string();
    test::writeFileBytes(path, bytes);
    const Result<std::optional<ReportOutline>> outline = readReportOutline(path);
    REQUIRE_FALSE(outline);
    CHECK_THAT(outline.error(), Catch::Contains(path));
    return outline.error();
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

TEST_CASE("a descriptor table claiming 2^28 entries before its first is refused without allocating them")
{
    const auto dir = test::scratchDir("crafted-8");
    Chunks report = splitReport(goodReport(dir));
    firstChunk(report, ChunkKind::Descriptors).mutable_descriptors()->set_sync_ops_first(1u << 28);
    const std::string bytes = joinReport(report);
    const auto [seconds, kilobytes] = cost([&] {
        CHECK_THAT(refusal(dir, "descriptors.rep", bytes), Catch::Contains("descriptor table"));
        CHECK_THAT(outlineRefusal(dir, "descriptors-info.rep", bytes), Catch::Contains("descriptor table"));
    });
    INFO(seconds << " s, " << kilobytes << " KB more at the peak");
    CHECK(seconds < 1.0);
    CHECK(kilobytes < 256 * 1024);
}

TEST_CASE("a track list of 2*10^8 empty lanes in a few kilobytes is refused before it is decompressed")
{
    const auto dir = test::scratchDir("crafted-9");
    Chunks report = splitReport(goodReport(dir));
    // The track list as written, and one more track of 2*10^8 lanes of size 0 (packed zeros).
    constexpr uint64_t kLanes = 200'000'000;
    size_t index = 0;
    while (report.chunks[index].first != ChunkKind::Tracks)
        ++index;
    const size_t goodBytes = joinReport(report).size();
    std::string tracks = report.chunks[index].second.tracks().SerializeAsString();
    std::string lanes; // the descriptor up to its lane sizes
    lanes.push_back(char(rep::TrackDescriptor::kLaneSizesFieldNumber << 3 | 2));
    appendVarint(lanes, kLanes);
    tracks.push_back(char(rep::Tracks::kTracksFieldNumber << 3 | 2));
    appendVarint(tracks, lanes.size() + kLanes);
    tracks += lanes;
    std::string prefix(1, char(rep::Chunk::kTracksFieldNumber << 3 | 2));
    appendVarint(prefix, tracks.size() + kLanes);
    prefix += tracks;
    // As a writer's zstd frames are (a small window), the lanes are counted and refused; as one
    // segment, whose window is all 200 MB, the frame is refused unread.
    for (const bool singleSegment : {false, true}) {
        const std::string payload = zstdFrameOfZeros(prefix, kLanes, singleSegment);
        report.rawFrames[index] = rep::encodeFrameHeader({uint32_t(payload.size()),
                                      uint32_t(prefix.size() + kLanes), ChunkKind::Tracks})
            + payload;
        const std::string bytes = joinReport(report);
        CHECK(bytes.size() < goodBytes + 8 * 1024); // 200 MB of lane sizes in 8 KB
        const std::string why = singleSegment ? "more memory to decompress" : "claims 200000";
        const auto [seconds, kilobytes] = cost([&] {
            CHECK_THAT(refusal(dir, "lanes.rep", bytes), Catch::Contains(why));
            CHECK_THAT(outlineRefusal(dir, "lanes-info.rep", bytes), Catch::Contains(why));
        });
        INFO((singleSegment ? "one segment: " : "windowed: ")
            << seconds << " s, " << kilobytes << " KB more at the peak");
        CHECK(seconds < 1.0);
        CHECK(kilobytes < 256 * 1024);
    }
}
