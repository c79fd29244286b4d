#include "../../test_paths.h"
#include "../support/random_trace.h"
#include "../support/trace_compare.h"
#include "generate.h"
#include "model/format/report_io.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

using namespace sightline;

TEST_CASE("a written report reads back with every field of every event")
{
    const auto dir = test::scratchDir("round_trip");
    for (uint32_t chunk : {1u << 16, 97u}) {
        test::RandomTraceOptions o;
        o.seed = chunk;
        const Trace original = test::randomTrace(o);
        const std::string path = (dir / ("r" + std::to_string(chunk) + ".rep")).string();
        WriteOptions w;
        w.eventsPerChunk = chunk;
        REQUIRE(writeReport(original, path, w).ok());
        REQUIRE(looksLikeReport(path));
        auto loaded = readReport(path);
        REQUIRE(loaded);
        CHECK(test::firstDifference(original, loaded.value()) == "");
        CHECK(loaded->span == original.span);
        CHECK(loaded->diagnostics == original.diagnostics);
    }
}

TEST_CASE("writing the same trace twice gives identical files")
{
    const auto dir = test::scratchDir("deterministic");
    const Trace trace = test::randomTrace({});
    REQUIRE(writeReport(trace, (dir / "a.rep").string()).ok());
    REQUIRE(writeReport(trace, (dir / "b.rep").string()).ok());
    CHECK(std::filesystem::file_size(dir / "a.rep") == std::filesystem::file_size(dir / "b.rep"));
    std::ifstream a(dir / "a.rep", std::ios::binary), b(dir / "b.rep", std::ios::binary);
    CHECK(std::string(std::istreambuf_iterator<char>(a), {})
        == std::string(std::istreambuf_iterator<char>(b), {}));
}

TEST_CASE("reading reports progress and honours cancellation")
{
    const auto dir = test::scratchDir("progress");
    const std::string path = (dir / "p.rep").string();
    WriteOptions w;
    w.eventsPerChunk = 500;
    REQUIRE(writeReport(test::randomTrace({}), path, w).ok());

    std::atomic<uint64_t> last {0}, total {0};
    ReadOptions r;
    r.progress = [&](uint64_t done, uint64_t all) {
        last = std::max<uint64_t>(last, done);
        total = all;
    };
    REQUIRE(readReport(path, r));
    CHECK(total > 0);
    CHECK(last == total);

    std::atomic<bool> cancel {true};
    ReadOptions c;
    c.cancel = &cancel;
    auto cancelled = readReport(path, c);
    REQUIRE_FALSE(cancelled);
    CHECK_THAT(cancelled.error(), Catch::Contains("cancelled"));
}

TEST_CASE("a write into a missing folder fails with one sentence")
{
    const std::string error = writeReport(test::randomTrace({}), "/nonexistent-folder/x.rep").error();
    CHECK_THAT(error, Catch::Contains("/nonexistent-folder/x.rep"));
}

TEST_CASE("a generated training-loop report reads back with every field of every event")
{
    gen::GeneratorOptions g;
    g.events = 300000;
    g.seed = 3;
    const Trace original = gen::generateTrace(g);
    REQUIRE(original.eventCount() == 300000);
    const auto dir = test::scratchDir("generated_round_trip");
    const std::string path = (dir / "gen.rep").string();
    REQUIRE(writeReport(original, path).ok());
    auto loaded = readReport(path);
    REQUIRE(loaded);
    CHECK(test::firstDifference(original, loaded.value()) == "");
    // Every kind of event is present, so every column kind was exercised.
    for (int k = 0; k < kTrackKindCount; ++k)
        CHECK(loaded->eventCount(TrackKind(k)) > 0);
}
