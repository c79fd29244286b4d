// The SQLite export answers the SQL people run on Nsight Systems exports: NVTX names joined
// through StringIds by textId (as pipit and others query registered strings), CUDA API names
// with nsys' "_vNNNN" suffix wherever the trace kept the source's versioned name, and a
// ThreadNames row for every thread the file refers to. Built traces check each rule; the real
// nsys exports in the shared traces folder, imported and exported again, check them on real data.
#include "export_fixture.h"
#include "model/construct/trace_builder.h"
#include "model/export/exporters.h"
#include "model/import/open_trace.h"
#include "model/nsys/api_version.h"
#include "model/nsys/global_id.h"
#include "sqlite_query.h"
#include "tests/test_paths.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>

using namespace sightline;
using namespace sightline::test;

namespace {

// pipit's query for NVTX ranges, and the SQL tools use to read CUDA API names.
constexpr const char* kNvtxByTextId
    = "SELECT n.start, s.value FROM NVTX_EVENTS n JOIN StringIds s ON n.textId = s.id "
      "WHERE n.eventType IN (34, 59, 60)";
constexpr const char* kApiNames = "SELECT r.start, r.end, s.value FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
                                  "JOIN StringIds s ON s.id = r.nameId WHERE r.eventClass IN (0, 1)";
// Every thread an event, sample or thread state of the file names.
constexpr const char* kThreadsWithEvents
    = "SELECT globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME UNION SELECT globalTid FROM NVTX_EVENTS "
      "WHERE eventType != 75 UNION SELECT globalTid FROM OSRT_API UNION SELECT globalTid FROM "
      "COMPOSITE_EVENTS "
      "UNION SELECT globalTid FROM SCHED_EVENTS";

using Timed = std::tuple<int64_t, int64_t, std::string>;

std::multiset<std::pair<int64_t, std::string>> startAndText(const SqliteFile& db, const std::string& sql)
{
    std::multiset<std::pair<int64_t, std::string>> rows;
    for (const SqlRow& row : db.rows(sql))
        rows.emplace(row[0].integer, row[1].text);
    return rows;
}

std::multiset<Timed> apiCalls(const SqliteFile& db)
{
    std::multiset<Timed> rows;
    for (const SqlRow& row : db.rows(kApiNames))
        rows.emplace(row[0].integer, row[1].integer, row[2].text);
    return rows;
}

std::map<std::string, int> apiNameCounts(const SqliteFile& db)
{
    std::map<std::string, int> counts;
    for (const auto& [start, end, name] : apiCalls(db))
        ++counts[name];
    return counts;
}

bool hasTable(const SqliteFile& db, const std::string& name)
{
    return db.integer("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '" + name + "'")
        > 0;
}

// (pid, tid) -> the names ThreadNames gives it (nsys may list a renamed thread more than once).
std::map<std::pair<uint32_t, uint32_t>, std::set<std::string>> threadNames(const SqliteFile& db)
{
    std::map<std::pair<uint32_t, uint32_t>, std::set<std::string>> names;
    for (const SqlRow& row : db.rows("SELECT t.globalTid, s.value FROM ThreadNames t "
                                     "JOIN StringIds s ON s.id = t.nameId"))
        names[{pidOfGlobalId(row[0].integer).value, tidOfGlobalId(row[0].integer).value}].insert(row[1].text);
    return names;
}

// Checks that every thread with events in `db` has exactly one ThreadNames row.
void everyThreadNamed(const SqliteFile& db)
{
    std::set<int64_t> named;
    for (const SqlRow& row : db.rows("SELECT globalTid FROM ThreadNames")) {
        INFO("globalTid " << row[0].integer);
        CHECK(named.insert(row[0].integer).second);
    }
    size_t threads = 0;
    for (const SqlRow& row : db.rows(kThreadsWithEvents)) {
        INFO("globalTid " << row[0].integer);
        CHECK(named.count(row[0].integer) == 1);
        ++threads;
    }
    CHECK(threads > 0);
}

std::string exportOf(const Trace& trace, const std::string& name)
{
    const std::string path = (scratchDir(name) / "trace.sqlite").string();
    const std::string error = exportSqlite(trace, path, {}).error();
    INFO(error);
    REQUIRE(error.empty());
    return path;
}

} // namespace

TEST_CASE("NVTX_EVENTS rows name their text by textId in StringIds, and inline", "[export][sqlite][fidelity]")
{
    const Trace trace = makeEveryKindTrace();
    const SqliteFile db(exportOf(trace, "fidelity_nvtx"));
    std::multiset<std::pair<int64_t, std::string>> expected;
    for (const Track& track : trace.tracks)
        if (track.key.kind == TrackKind::Nvtx)
            for (uint32_t i = 0; i < track.size(); ++i)
                expected.emplace(track.events.start[i], std::string(trace.strings[track.events.name[i]]));
    REQUIRE(expected.size() > 10);
    CHECK(startAndText(db, kNvtxByTextId) == expected);
    CHECK(
        startAndText(db, "SELECT start, text FROM NVTX_EVENTS WHERE eventType IN (34, 59, 60)") == expected);
    // Domain rows keep nsys' layout: the name inline, no textId.
    CHECK(
        db.integer("SELECT COUNT(*) FROM NVTX_EVENTS WHERE eventType = 75 AND textId IS NULL AND text != ''")
        == db.integer("SELECT COUNT(*) FROM NVTX_EVENTS WHERE eventType = 75"));
}

TEST_CASE("an nsys API name's version suffix is recognised by one rule", "[export][sqlite][fidelity]")
{
    CHECK(nsys::withoutApiVersion("cudaLaunchKernel_v7000") == "cudaLaunchKernel");
    CHECK(
        nsys::withoutApiVersion("cudaGetDeviceProperties_v2_v12000") == "cudaGetDeviceProperties_v2_v12000");
    CHECK(nsys::withoutApiVersion("cudaStreamIsCapturing_v1000") == "cudaStreamIsCapturing");
    CHECK(nsys::withoutApiVersion("cuMemcpyHtoD_v2") == "cuMemcpyHtoD_v2");
    CHECK(nsys::withoutApiVersion("_v7000") == "_v7000");
    CHECK(nsys::withoutApiVersion("name_vx100") == "name_vx100");
    CHECK(nsys::withoutApiVersion("cudaMalloc") == "cudaMalloc");
}

TEST_CASE("CUDA API calls are written with the nsys version suffix the trace's strings hold",
    "[export][sqlite][fidelity]")
{
    // As the nsys importer leaves it: the file's versioned names interned, the calls named
    // without the suffix.
    TraceBuilder b;
    b.intern("cudaLaunchKernel_v7000");
    b.intern("cudaFree_v3020");
    b.intern("cudaFree_v4000"); // a second version of one name: the first one interned wins
    const TrackId api = b.hostTrack(TrackKind::CudaApi, Pid(10), Tid(11));
    const char* const calls[]
        = {"cudaLaunchKernel", "cudaMalloc", "cudaLaunchKernel", "cudaFree", "cuLaunchKernel"};
    for (int i = 0; i < 5; ++i)
        b.add(api,
            ApiCall {1'000 * i, 1'000 * i + 500, b.intern(calls[i]), CorrelationId(uint32_t(i + 1)),
                {i == 4 ? ApiClass::Driver : ApiClass::Runtime, 0}});
    const std::string path = exportOf(b.build(1), "fidelity_api_names");

    const std::map<std::string, int> written = apiNameCounts(SqliteFile(path));
    CHECK(written
        == std::map<std::string, int> {
            {"cudaLaunchKernel_v7000", 2}, {"cudaMalloc", 1}, {"cudaFree_v3020", 1}, {"cuLaunchKernel", 1}});

    // Imported again, the calls have their display names back.
    const Result<Trace> imported = openTrace(path);
    INFO(imported.error());
    REQUIRE(imported);
    std::map<std::string, int> names;
    for (const Track& track : imported->tracks)
        if (track.key.kind == TrackKind::CudaApi)
            for (uint32_t i = 0; i < track.size(); ++i)
                ++names[std::string(imported->strings[track.events.name[i]])];
    CHECK(names
        == std::map<std::string, int> {
            {"cudaLaunchKernel", 2}, {"cudaMalloc", 1}, {"cudaFree", 1}, {"cuLaunchKernel", 1}});
}

TEST_CASE(
    "every thread with events, samples or thread states has a ThreadNames row", "[export][sqlite][fidelity]")
{
    TraceBuilder b;
    b.addProcess({Pid(20), "python3", {}});
    b.addThread({Pid(20), Tid(20), "python3"});
    b.add(b.hostTrack(TrackKind::CudaApi, Pid(20), Tid(20)),
        ApiCall {100, 200, b.intern("cudaMalloc"), CorrelationId(1), {ApiClass::Runtime, 0}});
    // A thread never named: its track alone makes it known.
    b.add(b.hostTrack(TrackKind::Nvtx, Pid(20), Tid(21)), NvtxEvent {150, 400, b.intern("step"), {}});
    // A thread the trace only has thread states of.
    b.addThreadState({50, 300, Tid(22), ThreadState::Running, kNoCallStack});
    const Trace trace = b.build(1);
    const SqliteFile db(exportOf(trace, "fidelity_threads"));

    everyThreadNamed(db);
    CHECK(db.integer("SELECT COUNT(*) FROM ThreadNames") == 3);
    const auto names = threadNames(db);
    CHECK(names.at({20, 20}) == std::set<std::string> {"python3"});
    CHECK(names.at({20, 21}) == std::set<std::string> {""});
    CHECK(names.at({0, 22}) == std::set<std::string> {""});
}

TEST_CASE("real nsys exports imported and exported again keep NVTX text ids, versioned API names and "
          "thread names",
    "[export][sqlite][fidelity][interop]")
{
    const auto traces = sharedTraces();
    if (traces.empty()) {
        WARN("shared traces folder absent; skipping the round trip of real nsys exports");
        return;
    }
    int checked = 0;
    for (const char* file : {"nsys-ai__h100_2gpu_1s.sqlite", "pipit__saxpy-mpi-cuda_nsys_perlmutter0.sqlite",
             "Fuser__report1.sqlite"}) {
        const std::string source = (traces / file).string();
        if (!std::filesystem::exists(source)) continue;
        INFO(file);
        const Result<Trace> trace = openTrace(source);
        INFO(trace.error());
        REQUIRE(trace);
        const SqliteFile original(source);
        const SqliteFile ours(exportOf(trace.value(), std::string("fidelity_real_") + file));

        // The same CUDA API calls under the same names, "_vNNNN" suffix included.
        const std::multiset<Timed> calls = apiCalls(original);
        CHECK(calls.size() > 0);
        CHECK(apiCalls(ours) == calls);

        // Every NVTX range and mark, found by pipit's textId join; the source's names are
        // inline or registered.
        const std::string sourceNvtx = hasTable(original, "StringIds") && hasTable(original, "NVTX_EVENTS")
            ? "SELECT n.start, COALESCE(n.text, s.value) FROM NVTX_EVENTS n LEFT JOIN StringIds s "
              "ON n.textId = s.id WHERE n.eventType IN (34, 59, 60)"
            : "";
        if (!sourceNvtx.empty())
            CHECK(startAndText(ours, kNvtxByTextId) == startAndText(original, sourceNvtx));

        // Every thread with events is named, as the source named it.
        everyThreadNamed(ours);
        const auto sourceNames = threadNames(original);
        for (const auto& [thread, names] : threadNames(ours)) {
            INFO("pid " << thread.first << " tid " << thread.second);
            REQUIRE(names.size() == 1);
            if (sourceNames.count(thread)) CHECK(sourceNames.at(thread).count(*names.begin()) == 1);
        }
        ++checked;
    }
    CHECK(checked > 0);
}
