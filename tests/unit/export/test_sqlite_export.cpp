// The SQLite export, read back with SQL: row counts, the sums `sightline stats` reports, every
// field of every event, the nsys enum tables and identifiers, and the file-handling rules.
#include "export_fixture.h"
#include "model/export/exporters.h"
#include "model/nsys/global_id.h"
#include "model/text/utf8_repair.h"
#include "model/trace/event_access.h"
#include "sqlite_query.h"
#include "tests/test_paths.h"

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <tuple>

using namespace sightline;
using namespace sightline::test;

namespace {

template <class Visit> void forEach(const Trace& trace, TrackKind kind, Visit visit)
{
    for (uint32_t t = 0; t < trace.tracks.size(); ++t)
        if (trace.tracks[t].key.kind == kind)
            for (uint32_t i = 0; i < trace.tracks[t].size(); ++i)
                visit(trace.tracks[t], EventRef {TrackId(t), i});
}

} // namespace

TEST_CASE("SQLite export writes one row per event into the nsys tables", "[export][sqlite]")
{
    const Trace trace = makeEveryKindTrace();
    SqliteFile db(exportToScratch(trace, "sqlite_counts"));

    CHECK(db.integer("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME")
        == int64_t(trace.eventCount(TrackKind::CudaApi)));
    CHECK(db.integer("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL")
        == int64_t(trace.eventCount(TrackKind::Kernels)));
    CHECK(db.integer("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY") == int64_t(memcpyCount(trace)));
    CHECK(db.integer("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMSET") == int64_t(memsetCount(trace)));
    CHECK(db.integer("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION")
        == int64_t(trace.eventCount(TrackKind::Synchronization)));
    CHECK(db.integer("SELECT COUNT(*) FROM NVTX_EVENTS WHERE eventType IN (34, 59, 60)")
        == int64_t(trace.eventCount(TrackKind::Nvtx)));
    CHECK(db.integer("SELECT COUNT(*) FROM OSRT_API") == int64_t(trace.eventCount(TrackKind::OsRuntime)));
    CHECK(db.integer("SELECT COUNT(*) FROM PROCESSES") == int64_t(trace.processes.size()));
    CHECK(db.integer("SELECT COUNT(*) FROM ThreadNames") == int64_t(trace.threads.size()));
    CHECK(db.integer("SELECT COUNT(*) FROM TARGET_INFO_GPU") == int64_t(trace.gpus.size()));
    CHECK(db.integer("SELECT COUNT(*) FROM TARGET_INFO_CUDA_CONTEXT_INFO") == int64_t(trace.contexts.size()));
    CHECK(db.integer("SELECT COUNT(*) FROM TARGET_INFO_CUDA_STREAM") == int64_t(trace.streams.size()));
    CHECK(db.integer("SELECT COUNT(*) FROM DIAGNOSTIC_EVENT") == int64_t(trace.diagnostics.size()));
    // The fixture has every kind, so none of the counts above was trivially zero.
    CHECK(memcpyCount(trace) > 0);
    CHECK(memsetCount(trace) > 0);
    CHECK(trace.eventCount(TrackKind::Synchronization) > 0);
}

TEST_CASE("SQLite export gives the totals and per-name sums of the trace", "[export][sqlite]")
{
    const Trace trace = makeEveryKindTrace();
    SqliteFile db(exportToScratch(trace, "sqlite_sums"));

    const KindTotals kernels = totalsOf(trace, TrackKind::Kernels);
    const auto total = db.rows("SELECT COUNT(*), SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL");
    CHECK(total[0][0].integer == int64_t(kernels.count));
    CHECK(total[0][1].integer == kernels.totalDuration);

    auto byName = [&](const std::string& sql) {
        std::map<std::string, KindTotals> result;
        for (const SqlRow& row : db.rows(sql))
            result[row[0].text] = {size_t(row[1].integer), row[2].integer};
        return result;
    };
    auto same = [](const std::map<std::string, KindTotals>& a, const std::map<std::string, KindTotals>& b) {
        REQUIRE(a.size() == b.size());
        for (const auto& [name, totals] : a) {
            INFO(name);
            REQUIRE(b.count(name) == 1);
            CHECK(b.at(name).count == totals.count);
            CHECK(b.at(name).totalDuration == totals.totalDuration);
        }
    };
    same(totalsByName(trace, TrackKind::Kernels),
        byName("SELECT s.value, COUNT(*), SUM(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL AS k "
               "JOIN StringIds AS s ON s.id = k.demangledName GROUP BY s.value"));
    same(totalsByName(trace, TrackKind::CudaApi),
        byName("SELECT s.value, COUNT(*), SUM(r.end - r.start) FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r "
               "JOIN StringIds AS s ON s.id = r.nameId GROUP BY s.value"));
    same(totalsByName(trace, TrackKind::OsRuntime),
        byName("SELECT s.value, COUNT(*), SUM(o.end - o.start) FROM OSRT_API AS o "
               "JOIN StringIds AS s ON s.id = o.nameId GROUP BY s.value"));
    // NVTX names resolve whether a row holds its text inline or as a StringIds id.
    same(totalsByName(trace, TrackKind::Nvtx),
        byName("SELECT COALESCE(n.text, s.value), COUNT(*), SUM(COALESCE(n.end, n.start) - n.start) "
               "FROM NVTX_EVENTS AS n LEFT JOIN StringIds AS s ON s.id = n.textId "
               "WHERE n.eventType IN (34, 59, 60) GROUP BY 1"));

    // Bytes per copy kind, through the enum table's labels.
    std::map<std::string, int64_t> expectedBytes;
    forEach(trace, TrackKind::Memory, [&](const Track&, EventRef ref) {
        const MemoryEvent e = memoryAt(trace, ref);
        if (e.op.kind == MemoryOpKind::Memcpy)
            expectedBytes[std::string(label(e.op.copyKind))] += int64_t(e.bytes);
    });
    std::map<std::string, int64_t> bytes;
    for (const SqlRow& row : db.rows("SELECT e.label, SUM(m.bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY AS m "
                                     "JOIN ENUM_CUDA_MEMCPY_OPER AS e ON e.id = m.copyKind GROUP BY e.label"))
        bytes[row[0].text] = row[1].integer;
    CHECK(bytes == expectedBytes);
    CHECK(bytes.size() == 4);
}

TEST_CASE("SQLite export keeps every field of every kernel", "[export][sqlite]")
{
    const Trace trace = makeEveryKindTrace();
    SqliteFile db(exportToScratch(trace, "sqlite_kernels"));

    using KernelRow = std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, std::string,
        std::string, std::string, std::string, std::array<int64_t, 11>, int64_t, int64_t>;
    std::vector<KernelRow> expected;
    forEach(trace, TrackKind::Kernels, [&](const Track& track, EventRef ref) {
        const KernelEvent e = kernelAt(trace, ref);
        const KernelLaunch& l = e.launch;
        expected.emplace_back(e.start, e.end, track.key.device.value, track.key.context.value,
            track.key.stream.value, e.correlation.value, globalPid(track.key.pid),
            repairUtf8(trace.strings[e.name]), repairUtf8(trace.strings[l.shortName]), // as TEXT is written
            l.mangledName.value ? std::string(trace.strings[l.mangledName]) : "<null>",
            std::string(label(l.launchType)),
            std::array<int64_t, 11> {l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2],
                l.registersPerThread, l.staticSharedMemory, l.dynamicSharedMemory, l.localMemoryPerThread,
                int64_t(l.localMemoryTotal)},
            l.graphId, int64_t(l.graphNodeId));
    });
    std::vector<KernelRow> actual;
    for (const SqlRow& r :
        db.rows("SELECT k.start, k.end, k.deviceId, k.contextId, k.streamId, k.correlationId, k.globalPid, "
                "d.value, "
                "s.value, COALESCE(m.value, '<null>'), e.label, gridX, gridY, gridZ, blockX, blockY, blockZ, "
                "registersPerThread, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, "
                "localMemoryTotal, "
                "COALESCE(graphId, 0), COALESCE(graphNodeId, 0) FROM CUPTI_ACTIVITY_KIND_KERNEL AS k "
                "JOIN StringIds AS d ON d.id = k.demangledName JOIN StringIds AS s ON s.id = k.shortName "
                "LEFT JOIN StringIds AS m ON m.id = k.mangledName "
                "JOIN ENUM_CUDA_KERNEL_LAUNCH_TYPE AS e ON e.id = k.launchType")) {
        std::array<int64_t, 11> numbers {};
        for (size_t i = 0; i < numbers.size(); ++i)
            numbers[i] = r[11 + i].integer;
        actual.emplace_back(r[0].integer, r[1].integer, r[2].integer, r[3].integer, r[4].integer,
            r[5].integer, r[6].integer, r[7].text, r[8].text, r[9].text, r[10].text, numbers, r[22].integer,
            r[23].integer);
    }
    std::sort(expected.begin(), expected.end());
    std::sort(actual.begin(), actual.end());
    CHECK(actual == expected);
    // Names that need care survive byte for byte.
    CHECK(db.integer("SELECT COUNT(*) FROM StringIds WHERE value = '" + kTrickyKernelName + "'") == 1);
    CHECK(
        db.integer("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE tensorSizeMinusOneElements IS NULL")
        == 0);
}

TEST_CASE("SQLite export keeps copies, sets and synchronizations field by field", "[export][sqlite]")
{
    const Trace trace = makeEveryKindTrace();
    SqliteFile db(exportToScratch(trace, "sqlite_memory"));

    std::multiset<std::string> expected, actual;
    auto key = [](auto... fields) {
        std::string s;
        ((s += std::to_string(fields) + "|"), ...);
        return s;
    };
    forEach(trace, TrackKind::Memory, [&](const Track& track, EventRef ref) {
        const MemoryEvent e = memoryAt(trace, ref);
        const TrackKey& k = track.key;
        if (e.op.kind == MemoryOpKind::Memcpy)
            expected.insert(key(0, e.start, e.end, k.device.value, k.context.value, k.stream.value,
                e.correlation.value, int64_t(e.bytes), int(e.op.copyKind), int(e.op.srcKind),
                int(e.op.dstKind), e.op.srcDevice.value, e.op.dstDevice.value));
        else
            expected.insert(key(1, e.start, e.end, k.device.value, k.context.value, k.stream.value,
                e.correlation.value, int64_t(e.bytes), e.op.memsetValue, int(e.op.srcKind)));
    });
    forEach(trace, TrackKind::Synchronization, [&](const Track& track, EventRef ref) {
        const SyncEvent e = syncAt(trace, ref);
        expected.insert(key(2, e.start, e.end, track.key.device.value, track.key.context.value,
            track.key.stream.value, e.correlation.value, int(e.op.type), e.op.eventId));
    });
    for (const SqlRow& r :
        db.rows("SELECT start, end, deviceId, contextId, streamId, COALESCE(correlationId, 0), "
                "bytes, copyKind, srcKind, dstKind, srcDeviceId, dstDeviceId "
                "FROM CUPTI_ACTIVITY_KIND_MEMCPY"))
        actual.insert(
            key(0, r[0].integer, r[1].integer, r[2].integer, r[3].integer, r[4].integer, r[5].integer,
                r[6].integer, r[7].integer, r[8].integer, r[9].integer, r[10].integer, r[11].integer));
    for (const SqlRow& r :
        db.rows("SELECT start, end, deviceId, contextId, streamId, COALESCE(correlationId, 0), "
                "bytes, value, memKind FROM CUPTI_ACTIVITY_KIND_MEMSET"))
        actual.insert(key(1, r[0].integer, r[1].integer, r[2].integer, r[3].integer, r[4].integer,
            r[5].integer, r[6].integer, r[7].integer, r[8].integer));
    for (const SqlRow& r :
        db.rows("SELECT start, end, deviceId, contextId, streamId, COALESCE(correlationId, 0), "
                "syncType, eventId FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"))
        actual.insert(key(2, r[0].integer, r[1].integer, r[2].integer, r[3].integer, r[4].integer,
            r[5].integer, r[6].integer, r[7].integer));
    CHECK(actual == expected);
    // Correlation id 0 means "none" and is written as NULL, as nsys does for unlaunched activity.
    CHECK(db.integer("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE correlationId IS NULL") == 1);
    // Pageable host-to-device copies, the classic slow path, are found by label.
    CHECK(db.integer("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY AS m "
                     "JOIN ENUM_CUDA_MEM_KIND AS s ON s.id = m.srcKind "
                     "JOIN ENUM_CUDA_MEMCPY_OPER AS o ON o.id = m.copyKind "
                     "WHERE s.label = 'Pageable' AND o.label = 'Host-to-Device'")
        > 0);
}

TEST_CASE("SQLite export encodes threads as nsys global ids", "[export][sqlite]")
{
    const Trace trace = makeEveryKindTrace();
    SqliteFile db(exportToScratch(trace, "sqlite_global_ids"));

    std::set<std::pair<int64_t, int64_t>> expectedThreads, decoded;
    for (const Track& t : trace.tracks)
        if (t.key.kind == TrackKind::CudaApi) expectedThreads.insert({t.key.pid.value, t.key.tid.value});
    for (const SqlRow& r : db.rows("SELECT DISTINCT globalTid / 0x1000000 % 0x1000000, globalTid % 0x1000000 "
                                   "FROM CUPTI_ACTIVITY_KIND_RUNTIME"))
        decoded.insert({r[0].integer, r[1].integer});
    CHECK(decoded == expectedThreads);

    std::set<std::tuple<int64_t, int64_t, std::string>> expectedNames, names;
    for (const Thread& t : trace.threads)
        expectedNames.insert({t.pid.value, t.tid.value, t.name});
    for (const SqlRow& r :
        db.rows("SELECT t.globalTid, s.value FROM ThreadNames AS t JOIN StringIds AS s ON s.id = t.nameId")) {
        names.insert({pidOfGlobalId(r[0].integer).value, tidOfGlobalId(r[0].integer).value, r[1].text});
    }
    CHECK(names == expectedNames);

    // Every GPU activity row's globalPid names a process of the PROCESSES table.
    CHECK(db.integer("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE globalPid NOT IN "
                     "(SELECT globalPid FROM PROCESSES)")
        == 0);
    // Runtime and driver calls are told apart by eventClass, labelled by the enum table.
    std::map<std::string, int64_t> perClass;
    for (const SqlRow& r : db.rows("SELECT e.label, COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r "
                                   "JOIN ENUM_NSYS_EVENT_CLASS AS e ON e.id = r.eventClass GROUP BY e.label"))
        perClass[r[0].text] = r[1].integer;
    size_t driverCalls = 0;
    forEach(trace, TrackKind::CudaApi, [&](const Track&, EventRef ref) {
        driverCalls += apiCallAt(trace, ref).result.apiClass == ApiClass::Driver;
    });
    CHECK(perClass[std::string(label(ApiClass::Driver))] == int64_t(driverCalls));
    CHECK(perClass[std::string(label(ApiClass::Runtime))]
        == int64_t(trace.eventCount(TrackKind::CudaApi) - driverCalls));
}
