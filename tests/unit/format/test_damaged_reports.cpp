#include "../../test_paths.h"
#include "../support/file_bytes.h"
#include "../support/random_trace.h"
#include "model/format/container.h"
#include "model/format/frame_index.h"
#include "model/format/report_io.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>

using namespace sightline;

TEST_CASE("a report cut at random offsets opens with the recovered prefix and a diagnostic")
{
    const auto dir = test::scratchDir("truncated");
    const Trace original = test::randomTrace({});
    const std::string full = (dir / "full.rep").string();
    WriteOptions w;
    w.eventsPerChunk = 300; // many frames, so cuts land between and inside them
    REQUIRE(writeReport(original, full, w).ok());
    const std::string bytes = test::readFileBytes(full);
    test::Rng rng(2024);
    int opened = 0, lostSome = 0;
    for (int i = 0; i < 10; ++i) {
        const size_t cut = 200 + rng.below(bytes.size() - 210);
        const std::string path = (dir / ("cut" + std::to_string(i) + ".rep")).string();
        test::writeFileBytes(path, bytes.substr(0, cut));
        auto loaded = readReport(path);
        INFO("cut at " << cut << " of " << bytes.size());
        if (!loaded) {
            // Only a cut before the track list may leave nothing to show, and it says so.
            CHECK_THAT(loaded.error(), Catch::Contains(path));
            continue;
        }
        ++opened;
        const Trace& t = loaded.value();
        REQUIRE_FALSE(t.diagnostics.empty());
        CHECK_THAT(t.diagnostics.back().text, Catch::Contains("cut short"));
        CHECK(t.eventCount() <= original.eventCount()); // a cut inside the footer loses no event
        if (t.eventCount() < original.eventCount()) ++lostSome;
        // Every recovered lane is a prefix of the original lane.
        for (size_t k = 0; k < t.tracks.size(); ++k) {
            const Track& got = t.tracks[k];
            const Track& want = original.tracks[k];
            REQUIRE(got.laneCount() == want.laneCount());
            for (uint32_t l = 0; l < got.laneCount(); ++l) {
                const IndexRange g = got.lane(l), o = want.lane(l);
                REQUIRE(g.size() <= o.size());
                for (uint32_t e = 0; e < g.size(); ++e) {
                    REQUIRE(got.events.start[g.begin + e] == want.events.start[o.begin + e]);
                    REQUIRE(got.events.name[g.begin + e] == want.events.name[o.begin + e]);
                }
            }
        }
    }
    CHECK(opened >= 8);
    CHECK(lostSome >= 5);
}

TEST_CASE("bad files give one clear sentence each")
{
    const auto dir = test::scratchDir("bad_files");
    const std::string empty = (dir / "empty.rep").string();
    test::writeFileBytes(empty, "");
    auto r = readReport(empty);
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error(), Catch::Contains("is empty") && Catch::Contains(empty));

    const std::string noise = (dir / "noise.rep").string();
    test::Rng rng(5);
    std::string random(4096, '\0');
    for (auto& c : random)
        c = char(rng.below(256));
    test::writeFileBytes(noise, random);
    r = readReport(noise);
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error(), Catch::Contains("not a Sightline report"));

    r = readReport((dir / "missing.rep").string());
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error(), Catch::Contains("Cannot open") && Catch::Contains("No such file"));

    r = readReport(dir.string());
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error(), Catch::Contains("folder"));
}

TEST_CASE("a newer major version and a corrupt chunk are refused")
{
    const auto dir = test::scratchDir("refused");
    const std::string good = (dir / "good.rep").string();
    WriteOptions w;
    w.eventsPerChunk = 1000;
    REQUIRE(writeReport(test::randomTrace({}), good, w).ok());
    std::string bytes = test::readFileBytes(good);

    std::string newer = bytes;
    newer[8] = 9; // format major, little endian
    test::writeFileBytes((dir / "newer.rep").string(), newer);
    auto r = readReport((dir / "newer.rep").string());
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error(), Catch::Contains("newer") && Catch::Contains("update Sightline"));

    std::string corrupt = bytes;
    corrupt[corrupt.size() / 2] ^= 0x5a; // inside some event batch
    corrupt[corrupt.size() / 2 + 1] ^= 0x33;
    test::writeFileBytes((dir / "corrupt.rep").string(), corrupt);
    r = readReport((dir / "corrupt.rep").string());
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error(), Catch::Contains("damaged"));
}

TEST_CASE("a report cut inside its counter samples keeps each timeline's prefix")
{
    const auto dir = test::scratchDir("truncated-counters");
    const Trace original = test::randomTrace({});
    const std::string full = (dir / "full.rep").string();
    WriteOptions w;
    w.eventsPerChunk = 300; // several counter batches per timeline
    REQUIRE(writeReport(original, full, w).ok());
    const std::string bytes = test::readFileBytes(full);
    const auto file = std::span(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    const Result<rep::FrameIndex> index = rep::indexFrames(file, full);
    REQUIRE(index);
    std::vector<uint64_t> batches;
    for (const rep::FrameRef& frame : index->frames)
        if (frame.header.kind == rep::ChunkKind::CounterBatch) batches.push_back(frame.offset);
    REQUIRE(batches.size() >= 4);
    // Inside the third counter batch: the first two arrived whole.
    const std::string path = (dir / "cut.rep").string();
    test::writeFileBytes(path, bytes.substr(0, batches[2] + 20));
    const Result<Trace> loaded = readReport(path);
    INFO(loaded.error());
    REQUIRE(loaded);
    REQUIRE(loaded->counterSeries.size() == original.counterSeries.size());
    const CounterSeries& got = loaded->counterSeries[0];
    const CounterSeries& want = original.counterSeries[0];
    // Two batches of 300 samples, less the last, whose end is not known.
    REQUIRE(got.values.size() == 599);
    const auto& gotStarts = loaded->timelineOf(got).starts;
    const auto& wantStarts = original.timelineOf(want).starts;
    CHECK(std::equal(gotStarts.begin(), gotStarts.end(), wantStarts.begin()));
    CHECK(loaded->timelineOf(got).end == wantStarts[599]);
    for (size_t i = 0; i < got.values.size(); ++i)
        REQUIRE(
            (got.values[i] == want.values[i] || (std::isnan(got.values[i]) && std::isnan(want.values[i]))));
    REQUIRE_FALSE(loaded->diagnostics.empty());
    CHECK_THAT(loaded->diagnostics.back().text, Catch::Contains("counter samples after it are lost too"));
}
