// The Chrome trace JSON and CSV exports, parsed back: event counts per category and kind,
// nanosecond-exact timestamps, escaping, proper nesting per row, flows, and CSV quoting.
#include "export_fixture.h"
#include "mini_json.h"
#include "model/construct/trace_builder.h"
#include "model/export/exporters.h"
#include "model/trace/event_access.h"
#include "tests/test_paths.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

using namespace sightline;
using namespace sightline::test;

namespace {

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

JsonValue exportAndParseJson(const Trace& trace, const std::string& name)
{
    const auto path = scratchDir(name) / "trace.json";
    const std::string error = exportChromeTrace(trace, path.string(), {}).error();
    INFO(error);
    REQUIRE(error.empty());
    std::string parseError;
    std::optional<JsonValue> document = parseJson(readFile(path), parseError);
    INFO(parseError);
    REQUIRE(document);
    REQUIRE(document->find("traceEvents"));
    return *document;
}

int64_t ns(const JsonValue& event, const std::string& key)
{
    const std::optional<int64_t> value = microsTextToNanoseconds(event.str(key));
    INFO(key << " = " << event.str(key));
    REQUIRE(value);
    return *value;
}

// Records of an RFC 4180 file (quoted fields may hold commas, quotes and line breaks).
std::vector<std::vector<std::string>> readCsv(const std::filesystem::path& path)
{
    const std::string text = readFile(path);
    std::vector<std::vector<std::string>> records(1, std::vector<std::string>(1));
    bool quoted = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        std::string& field = records.back().back();
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"')
                field += '"', ++i;
            else if (c == '"')
                quoted = false;
            else
                field += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            records.back().emplace_back();
        } else if (c == '\n') {
            records.emplace_back(1);
        } else {
            field += c;
        }
    }
    if (records.back().size() == 1 && records.back()[0].empty()) records.pop_back();
    return records;
}

} // namespace

TEST_CASE("Chrome trace export holds every event once, in Kineto-style categories", "[export][json]")
{
    const Trace trace = makeEveryKindTrace();
    const JsonValue document = exportAndParseJson(trace, "json_counts");

    std::map<std::string, size_t> counts; // "ph/cat"
    for (const JsonValue& e : document.find("traceEvents")->items)
        ++counts[e.str("ph") + "/" + e.str("cat")];

    size_t driverCalls = 0, pushPop = 0, startEnd = 0, marks = 0, flows = 0;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
        const Track& track = trace.tracks[t];
        for (uint32_t i = 0; i < track.size(); ++i) {
            const EventRef ref {TrackId(t), i};
            if (track.key.kind == TrackKind::CudaApi)
                driverCalls += apiCallAt(trace, ref).result.apiClass == ApiClass::Driver;
            if (track.key.kind == TrackKind::Nvtx) {
                const NvtxStyle style = nvtxAt(trace, ref).attributes.style;
                pushPop += style == NvtxStyle::PushPop;
                startEnd += style == NvtxStyle::StartEnd;
                marks += style == NvtxStyle::Mark;
            }
            if (isGpuKind(track.key.kind) && trace.correlation.launchingCall(trace, ref)) ++flows;
        }
    }
    CHECK(counts["X/kernel"] == trace.eventCount(TrackKind::Kernels));
    CHECK(counts["X/gpu_memcpy"] == memcpyCount(trace));
    CHECK(counts["X/gpu_memset"] == memsetCount(trace));
    CHECK(counts["X/cuda_sync"] == trace.eventCount(TrackKind::Synchronization));
    CHECK(counts["X/cuda_driver"] == driverCalls);
    CHECK(counts["X/cuda_runtime"] == trace.eventCount(TrackKind::CudaApi) - driverCalls);
    CHECK(counts["X/nvtx"] == pushPop);
    CHECK(counts["b/nvtx"] == startEnd);
    CHECK(counts["e/nvtx"] == startEnd);
    CHECK(counts["i/nvtx"] == marks);
    CHECK(counts["X/os_runtime"] == trace.eventCount(TrackKind::OsRuntime));
    CHECK(counts["s/ac2g"] == flows);
    CHECK(counts["f/ac2g"] == flows);
    CHECK(flows > 0);
    CHECK(startEnd > 0);
    CHECK(marks > 0);
}

TEST_CASE("Chrome trace export keeps nanoseconds, names and nesting", "[export][json]")
{
    const Trace trace = makeEveryKindTrace();
    const JsonValue document = exportAndParseJson(trace, "json_details");
    const auto& events = document.find("traceEvents")->items;

    std::multiset<std::pair<int64_t, int64_t>> expectedTimes, times;
    std::set<std::string> expectedNames, names;
    bool subMicrosecond = false;
    for (const Track& track : trace.tracks) {
        if (track.key.kind != TrackKind::Kernels) continue;
        for (uint32_t i = 0; i < track.size(); ++i) {
            expectedTimes.insert({track.events.start[i], track.events.end[i] - track.events.start[i]});
            subMicrosecond |= track.events.start[i] % 1000 != 0;
            const std::string name(trace.strings[track.events.name[i]]);
            expectedNames.insert(name == kInvalidUtf8KernelName ? "bad\xEF\xBF\xBDname" : name);
        }
    }
    REQUIRE(subMicrosecond);
    for (const JsonValue& e : events) {
        if (e.str("ph") != "X" || e.str("cat") != "kernel") continue;
        times.insert({ns(e, "ts"), ns(e, "dur")});
        names.insert(e.str("name"));
    }
    CHECK(times == expectedTimes);
    CHECK(names == expectedNames);
    CHECK(names.count(kTrickyKernelName) == 1);

    // Rows hold properly nested slices only, and every row and process is named.
    std::map<std::pair<std::string, std::string>, std::vector<std::pair<int64_t, int64_t>>> rows;
    std::set<std::pair<std::string, std::string>> namedThreads;
    std::set<std::string> processNames;
    std::set<std::string> flowStarts, flowEnds;
    for (const JsonValue& e : events) {
        const std::string ph = e.str("ph");
        if (ph == "X")
            rows[{e.str("pid"), e.str("tid")}].push_back({ns(e, "ts"), ns(e, "ts") + ns(e, "dur")});
        if (ph == "M" && e.str("name") == "thread_name") namedThreads.insert({e.str("pid"), e.str("tid")});
        if (ph == "M" && e.str("name") == "process_name") processNames.insert(e.find("args")->str("name"));
        if (ph == "s") flowStarts.insert(e.str("id"));
        if (ph == "f") flowEnds.insert(e.str("id"));
    }
    for (auto& [row, slices] : rows) {
        INFO("pid " << row.first << " tid " << row.second);
        CHECK(namedThreads.count(row) == 1);
        std::sort(slices.begin(), slices.end(),
            [](auto a, auto b) { return a.first != b.first ? a.first < b.first : a.second > b.second; });
        std::vector<int64_t> openEnds;
        for (const auto& [start, end] : slices) {
            while (!openEnds.empty() && openEnds.back() <= start)
                openEnds.pop_back();
            CHECK((openEnds.empty() || end <= openEnds.back()));
            openEnds.push_back(end);
        }
    }
    CHECK(processNames.count("GPU 0") == 1);
    CHECK(processNames.count("GPU 1") == 1);
    CHECK(processNames.count("python3") == 1);
    CHECK(flowStarts == flowEnds);
}

TEST_CASE("Chrome trace export puts launch and copy details in args", "[export][json]")
{
    const Trace trace = makeEveryKindTrace();
    const JsonValue document = exportAndParseJson(trace, "json_args");

    std::multiset<std::string> expectedKernels, kernels, expectedCopies, copies;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
        const Track& track = trace.tracks[t];
        for (uint32_t i = 0; i < track.size(); ++i) {
            const EventRef ref {TrackId(t), i};
            if (track.key.kind == TrackKind::Kernels) {
                const KernelEvent k = kernelAt(trace, ref);
                expectedKernels.insert(std::to_string(k.start) + " " + std::to_string(k.correlation.value)
                    + " " + std::to_string(k.launch.grid[0]) + " " + std::to_string(k.launch.block[1]) + " "
                    + std::to_string(k.launch.registersPerThread) + " "
                    + std::string(label(k.launch.launchType)));
            }
            if (track.key.kind == TrackKind::Memory) {
                const MemoryEvent m = memoryAt(trace, ref);
                if (m.op.kind == MemoryOpKind::Memcpy)
                    expectedCopies.insert(std::to_string(m.start) + " " + std::to_string(m.bytes) + " "
                        + std::string(label(m.op.srcKind)) + " " + std::string(label(m.op.dstKind)));
            }
        }
    }
    for (const JsonValue& e : document.find("traceEvents")->items) {
        const JsonValue* args = e.find("args");
        if (e.str("ph") != "X" || !args) continue;
        if (e.str("cat") == "kernel") {
            const JsonValue* grid = args->find("grid");
            const JsonValue* block = args->find("block");
            REQUIRE(grid);
            REQUIRE(block);
            REQUIRE(grid->items.size() == 3);
            REQUIRE(block->items.size() == 3);
            kernels.insert(std::to_string(ns(e, "ts")) + " " + args->str("correlation") + " "
                + grid->items[0].text + " " + block->items[1].text + " " + args->str("registers per thread")
                + " " + args->str("launch type"));
        }
        if (e.str("cat") == "gpu_memcpy")
            copies.insert(std::to_string(ns(e, "ts")) + " " + args->str("bytes") + " " + args->str("src kind")
                + " " + args->str("dst kind"));
    }
    CHECK(kernels == expectedKernels);
    CHECK(copies == expectedCopies);
}

TEST_CASE("Chrome trace export writes GPU metrics as counter events, one per known sample", "[export][json]")
{
    TraceBuilder builder;
    builder.addGpu({DeviceId(1), "GPU", "GPU-1", "", 9, 0, 132, 1, 0, 0});
    const uint32_t timeline = builder.addCounterTimeline({{1000, 2000, 3000}, 4000});
    CounterSeries series;
    series.device = DeviceId(1);
    series.timeline = timeline;
    series.name = "SMs Active";
    series.unit = "%";
    series.resolution = 0.1;
    series.values = {12.5, std::nan(""), 99.9};
    builder.addCounterSeries(series);
    const JsonValue document = exportAndParseJson(builder.build(), "json_counters");
    std::vector<std::pair<int64_t, std::string>> counters;
    for (const JsonValue& e : document.find("traceEvents")->items)
        if (e.str("ph") == "C") {
            CHECK(e.str("name") == "SMs Active [%]");
            REQUIRE(e.find("args"));
            counters.emplace_back(ns(e, "ts"), e.find("args")->str("value"));
        }
    REQUIRE(counters.size() == 2); // the unknown sample is left out
    CHECK(counters[0] == std::pair<int64_t, std::string>(1000, "12.5"));
    CHECK(counters[1].first == 3000);
    CHECK(std::stod(counters[1].second) == Approx(99.9));
}

TEST_CASE("CSV export writes one quoted file per kind of track in the Events View's columns", "[export][csv]")
{
    const Trace trace = makeEveryKindTrace();
    const auto dir = scratchDir("csv_export");
    REQUIRE(exportCsv(trace, dir.string(), {}).ok());

    const std::string times = "Name,Start (ns),Duration (ns),End (ns),Thread / Stream";
    const std::map<std::string, std::pair<TrackKind, std::string>> expected {
        {"cuda_api.csv", {TrackKind::CudaApi, times + ",Correlation id,Return value"}},
        {"nvtx.csv", {TrackKind::Nvtx, times + ",Domain"}},
        {"osrt.csv", {TrackKind::OsRuntime, times + ",Return value"}},
        {"kernels.csv",
            {TrackKind::Kernels,
                times
                    + ",Device / Context,Grid,Block,Registers per thread,Shared memory (bytes),Correlation "
                      "id"}},
        {"memory.csv",
            {TrackKind::Memory,
                times
                    + ",Device / Context,Bytes,Throughput (bytes/s),Copy kind,Memory kinds,Correlation id"}},
        {"sync.csv", {TrackKind::Synchronization, times + ",Device / Context,Correlation id"}}};
    for (const auto& [file, kindAndHeader] : expected) {
        INFO(file);
        const auto records = readCsv(dir / file);
        REQUIRE(records.size() == trace.eventCount(kindAndHeader.first) + 1);
        std::string header;
        for (const std::string& field : records[0])
            header += (header.empty() ? "" : ",") + field;
        CHECK(header == kindAndHeader.second);
        int64_t previousStart = std::numeric_limits<int64_t>::min();
        for (size_t r = 1; r < records.size(); ++r) {
            REQUIRE(records[r].size() == records[0].size());
            const int64_t start = std::stoll(records[r][1]);
            CHECK(start >= previousStart); // listed in start order, as the Events View lists them
            CHECK(std::stoll(records[r][3]) - start == std::stoll(records[r][2]));
            previousStart = start;
        }
    }

    const auto kernels = readCsv(dir / "kernels.csv");
    std::set<std::string> names;
    int64_t totalDuration = 0;
    for (size_t r = 1; r < kernels.size(); ++r) {
        names.insert(kernels[r][0]);
        totalDuration += std::stoll(kernels[r][2]);
    }
    CHECK(names.count(kTrickyKernelName) == 1);
    CHECK(totalDuration == totalsOf(trace, TrackKind::Kernels).totalDuration);
    const auto memory = readCsv(dir / "memory.csv");
    const auto memsets = std::count_if(
        memory.begin() + 1, memory.end(), [](const std::vector<std::string>& r) { return r[8] == "Memset"; });
    CHECK(size_t(memsets) == memsetCount(trace));
    CHECK(memory.size() - 1 - size_t(memsets) == memcpyCount(trace));

    // A prefix gives OUT_kind.csv; a second export there is refused without touching anything.
    const std::string prefix = (dir / "run").string();
    REQUIRE(exportCsv(trace, prefix, {}).ok());
    CHECK(std::filesystem::exists(prefix + "_kernels.csv"));
    const auto countFiles = [&] {
        return std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator());
    };
    const auto before = countFiles();
    const std::string refused = exportCsv(trace, prefix, {}).error();
    CHECK(refused.find("already exists") != std::string::npos);
    CHECK(countFiles() == before);
    ExportOptions overwrite;
    overwrite.overwrite = true;
    CHECK(exportCsv(trace, prefix, overwrite).ok());
    CHECK(countFiles() == before);
}

TEST_CASE("An empty trace exports to every format", "[export]")
{
    const Trace empty = TraceBuilder().build(1);
    const auto dir = scratchDir("export_empty");
    REQUIRE(exportSqlite(empty, (dir / "empty.sqlite").string(), {}).ok());
    REQUIRE(exportCsv(empty, (dir / "empty").string(), {}).ok());
    const JsonValue document = exportAndParseJson(empty, "export_empty_json");
    CHECK(document.find("traceEvents")->items.empty());
    for (const std::string& path : csvExportPaths((dir / "empty").string()))
        CHECK(readCsv(path).size() == 1);
}
