// GPU memory usage records in a .rep file (the MemoryUsage chunk): they survive a write and a
// read with their bytes-in-use series, a report without them has no such chunk, a read that
// leaves counters out leaves them out too, and a chunk that is ragged, goes back in time or
// names an unknown memory kind is refused as damage.
#include "../../test_paths.h"
#include "../support/file_bytes.h"
#include "../support/report_chunks.h"
#include "model/construct/memory_usage_series.h"
#include "model/format/container.h"
#include "model/format/report_io.h"

#include <catch2/catch.hpp>

using namespace sightline;
using rep::ChunkKind;

namespace {

// Two processes allocating and releasing on two GPUs, with an API call of each allocation.
Trace traceWithMemoryUsage()
{
    TraceBuilder builder;
    for (uint32_t d : {0u, 1u})
        builder.addGpu({DeviceId(d), "GPU", "GPU-" + std::to_string(d), "", 9, 0, 132, 1, 0, 0});
    std::vector<MemoryUsageEvent> events;
    for (uint32_t i = 0; i < 40; ++i) {
        MemoryUsageEvent e;
        e.time = 1000 + Timestamp(i / 2) * 500; // two at each time
        e.pid = Pid(100 + i % 2);
        e.device = DeviceId(i % 2);
        e.context = ContextId(1 + i % 2);
        e.address = 0x7f0000000000ull + (i / 4) * 0x100000;
        e.bytes = (1ull << 20) * (1 + i % 5);
        e.kind = i % 7 == 0 ? MemoryKind::Managed : MemoryKind::Device;
        e.release = (i / 2) % 3 == 2;
        e.correlation = CorrelationId(i + 1);
        events.push_back(e);
    }
    addMemoryUsage(builder, std::move(events), 100000);
    return builder.build();
}

std::string write(const Trace& trace, const std::filesystem::path& path)
{
    REQUIRE(writeReport(trace, path.string()).ok());
    return test::readFileBytes(path.string());
}

bool hasChunk(const std::string& bytes, ChunkKind kind)
{
    for (const auto& [k, chunk] : test::splitReport(bytes).chunks)
        if (k == kind) return true;
    return false;
}

} // namespace

TEST_CASE("GPU memory usage records survive a report's write and read")
{
    const auto dir = test::scratchDir("memory-usage-chunk-round-trip");
    const Trace trace = traceWithMemoryUsage();
    REQUIRE(trace.memoryUsage.size() == 40);
    REQUIRE(std::is_sorted(trace.memoryUsage.begin(), trace.memoryUsage.end(),
        [](const MemoryUsageEvent& a, const MemoryUsageEvent& b) { return a.time < b.time; }));
    const std::string bytes = write(trace, dir / "a.rep");
    CHECK(hasChunk(bytes, ChunkKind::MemoryUsage));

    const Result<Trace> read = readReport((dir / "a.rep").string());
    INFO(read.error());
    REQUIRE(read);
    CHECK(read->memoryUsage == trace.memoryUsage);
    CHECK(read->counterSeries == trace.counterSeries);
    CHECK(write(read.value(), dir / "b.rep") == bytes);

    ReadOptions noCounters;
    noCounters.select.counters = false;
    const Result<Trace> part = readReport((dir / "a.rep").string(), noCounters);
    REQUIRE(part);
    CHECK(part->memoryUsage.empty());
}

TEST_CASE("A report without memory usage records has no MemoryUsage chunk")
{
    const auto dir = test::scratchDir("memory-usage-chunk-none");
    TraceBuilder builder;
    builder.addGpu({DeviceId(0), "GPU", "GPU-0", "", 9, 0, 132, 1, 0, 0});
    CHECK_FALSE(hasChunk(write(builder.build(), dir / "plain.rep"), ChunkKind::MemoryUsage));
}

TEST_CASE("A MemoryUsage chunk that is ragged, goes back in time or names an unknown kind is refused")
{
    const auto dir = test::scratchDir("memory-usage-chunk-damaged");
    const test::ReportChunks good = test::splitReport(write(traceWithMemoryUsage(), dir / "good.rep"));

    test::ReportChunks ragged = good;
    test::firstChunk(ragged, ChunkKind::MemoryUsage).mutable_memory_usage()->add_address(1);
    CHECK_THAT(test::refusal(dir, "ragged.rep", test::joinReport(ragged)),
        Catch::Contains("is damaged") && Catch::Contains("its memory usage columns differ in length"));

    test::ReportChunks backwards = good;
    test::firstChunk(backwards, ChunkKind::MemoryUsage).mutable_memory_usage()->set_time(3, -1);
    CHECK_THAT(test::refusal(dir, "back.rep", test::joinReport(backwards)),
        Catch::Contains("its memory usage records go back in time"));

    test::ReportChunks overflow = good;
    test::firstChunk(overflow, ChunkKind::MemoryUsage).mutable_memory_usage()->set_time(3, INT64_MAX);
    CHECK_THAT(test::refusal(dir, "overflow.rep", test::joinReport(overflow)),
        Catch::Contains("its memory usage records go back in time"));

    test::ReportChunks unknownKind = good;
    test::firstChunk(unknownKind, ChunkKind::MemoryUsage)
        .mutable_memory_usage()
        ->set_kind_and_release(0, uint32_t(kMemoryKindCount) * 2);
    CHECK_THAT(test::refusal(dir, "kind.rep", test::joinReport(unknownKind)),
        Catch::Contains("a memory usage record has an unknown memory kind"));
}
