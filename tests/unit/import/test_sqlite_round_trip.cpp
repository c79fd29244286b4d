// .rep -> `export --type sqlite` -> import gives the same report: every event of every track
// field for field (names compared as text, since the importer interns strings in its own
// order), and the metadata, entities and diagnostics.
#include "../../test_paths.h"
#include "../export/export_fixture.h"
#include "../support/memory_usage_change.h"
#include "generate.h"
#include "import_support.h"
#include "model/construct/memory_usage_series.h"
#include "model/export/exporters.h"
#include "model/import/importers.h"
#include "model/import/open_trace.h"
#include "model/text/utf8_repair.h"

#include <catch2/catch.hpp>

using namespace sightline;
using namespace sightline::test;

namespace {

// The report as SQLite holds it: TEXT is well-formed UTF-8, so names that are not come back
// repaired (model/text/utf8_repair.h).
Trace withRepairedStrings(const Trace& trace)
{
    Trace repaired = trace;
    StringTable strings;
    for (uint32_t i = 1; i < trace.strings.size(); ++i)
        strings.append(repairUtf8(trace.strings[StringId(i)]));
    repaired.strings = std::move(strings);
    return repaired;
}

void checkRoundTrip(const Trace& original, const std::string& name)
{
    const auto dir = scratchDir("import-round-trip-" + name);
    const std::string report = (dir / "original.rep").string();
    const std::string sqlite = (dir / "exported.sqlite").string();
    REQUIRE(writeReport(original, report).ok());
    Result<Trace> reloaded = readReport(report);
    REQUIRE(reloaded);
    ExportOptions options;
    options.sourcePath = report;
    REQUIRE(exportSqlite(reloaded.value(), sqlite, options).ok());

    Result<Trace> imported = openTrace(sqlite);
    INFO(imported.error());
    REQUIRE(imported);
    CHECK(imported->eventCount() == original.eventCount());
    CHECK(semanticDifference(withRepairedStrings(original), imported.value()) == "");
    CHECK(imported->span == original.span);
}

// The trace exported to SQLite (in a scratch folder named after `name`) and imported again.
Trace throughSqlite(const Trace& original, const std::string& name)
{
    const std::string sqlite = (scratchDir("import-round-trip-" + name) / "exported.sqlite").string();
    REQUIRE(exportSqlite(original, sqlite, {}).ok());
    Result<Trace> imported = openTrace(sqlite);
    INFO(imported.error());
    REQUIRE(imported);
    return std::move(imported.value());
}

} // namespace

TEST_CASE("A generated report survives export to SQLite and import, field for field")
{
    gen::GeneratorOptions options;
    options.events = 60000;
    options.processes = 2;
    options.gpus = 2;
    checkRoundTrip(gen::generateTrace(options), "generated");
}

TEST_CASE("A report with every event kind and attribute survives export to SQLite and import")
{
    // Payloads of every type, colours, categories, start/end ranges ending on another thread,
    // marks, an unused domain, names that need escaping and one that is not valid UTF-8.
    checkRoundTrip(makeEveryKindTrace(), "every-kind");
}

TEST_CASE("GPU metrics survive export to SQLite (GPU_METRICS, TARGET_INFO_GPU_METRICS) and import")
{
    gen::GeneratorOptions options;
    options.events = 20000;
    options.gpuMetricsHz = 10000;
    const Trace original = gen::generateTrace(options);
    REQUIRE(original.counterSeries.size() == 10);
    const Trace imported = throughSqlite(original, "gpu-metrics");
    REQUIRE(imported.counterSeries.size() == original.counterSeries.size());
    for (const CounterSeries& want : original.counterSeries) {
        const auto got = std::find_if(imported.counterSeries.begin(), imported.counterSeries.end(),
            [&](const CounterSeries& s) { return s.device == want.device && s.name == want.name; });
        REQUIRE(got != imported.counterSeries.end());
        INFO(want.name << " of device " << want.device.value);
        CHECK(got->unit == want.unit);
        CHECK(imported.timelineOf(*got) == original.timelineOf(want));
        REQUIRE(got->values.size() == want.values.size());
        for (size_t i = 0; i < want.values.size(); ++i)
            REQUIRE(got->values[i] == Approx(want.values[i]).margin(1e-6));
    }
}

TEST_CASE("GPU memory in use survives export to SQLite (CUDA_GPU_MEMORY_USAGE_EVENTS) and import")
{
    TraceBuilder builder;
    builder.addGpu({DeviceId(2), "GPU", "GPU-2", "", 9, 0, 132, 1, 0, 0});
    auto change = [](const MemoryChangeSpec& spec) {
        return memoryChange(Pid(4242), DeviceId(2), spec, ContextId(7));
    };
    const std::vector<MemoryUsageEvent> changes {change({1000, 1 << 20, false, 0x7f0000000000, 11}),
        change({2000, 3 << 20, false, 0x7f0000200000, 12}), change({2000, 1 << 10, false, 0x7f0000600000, 0}),
        change({5000, 1 << 20, true, 0x7f0000000000, 13}), change({9000, 3 << 20, true, 0x7f0000200000, 14})};
    REQUIRE(addMemoryUsage(builder, changes, 20000) == 0);
    const Trace original = builder.build();
    REQUIRE(original.counterSeries.size() == 1);
    REQUIRE(original.memoryUsage.size() == changes.size());
    const Trace imported = throughSqlite(original, "memory");
    REQUIRE(imported.counterSeries.size() == 1);
    const CounterSeries& got = imported.counterSeries[0];
    CHECK(got.source == CounterSource::GpuMemory);
    CHECK(got.device == DeviceId(2));
    CHECK(imported.timelineOf(got).starts == original.timelineOf(original.counterSeries[0]).starts);
    CHECK(got.values == original.counterSeries[0].values);
    CHECK(got.values == std::vector<double> {1 << 20, (4 << 20) + (1 << 10), (3 << 20) + (1 << 10), 1 << 10});
    // Each record comes back whole: process, context, address, kind and the API call's id.
    CHECK(imported.memoryUsage == original.memoryUsage);
}

TEST_CASE("A memory series without records (a report written before them) exports its steps")
{
    TraceBuilder builder;
    builder.addGpu({DeviceId(1), "GPU", "GPU-1", "", 9, 0, 132, 1, 0, 0});
    CounterTimeline timeline;
    timeline.starts = {100, 200, 300};
    timeline.end = 400;
    CounterSeries series;
    series.source = CounterSource::GpuMemory;
    series.device = DeviceId(1);
    series.timeline = builder.addCounterTimeline(std::move(timeline));
    series.name = "Memory";
    series.unit = "B";
    series.resolution = 1;
    series.values = {4096, 12288, 8192};
    builder.addCounterSeries(series);
    const Trace original = builder.build();
    REQUIRE(original.memoryUsage.empty());
    const Trace imported = throughSqlite(original, "memory-series");
    REQUIRE(imported.counterSeries.size() == 1);
    CHECK(imported.counterSeries[0].values == series.values);
    // The steps become records of what the series knows: sizes and directions.
    REQUIRE(imported.memoryUsage.size() == 3);
    CHECK(imported.memoryUsage[1].bytes == 8192);
    CHECK_FALSE(imported.memoryUsage[1].release);
    CHECK(imported.memoryUsage[2].bytes == 4096);
    CHECK(imported.memoryUsage[2].release);
}
