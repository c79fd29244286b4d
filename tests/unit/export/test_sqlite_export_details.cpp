// The SQLite export's NVTX rows, descriptive tables, enum tables, its schema against a real
// Nsight Systems export, and the output file rules (no overwrite unless asked, no leftovers).
#include "export_fixture.h"
#include "model/export/exporters.h"
#include "model/nsys/global_id.h"
#include "model/trace/event_access.h"
#include "sqlite_query.h"
#include "tests/test_paths.h"

#include <bit>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

using namespace sightline;
using namespace sightline::test;

namespace {

// The payload as "<column>=<value>", the way the test expects nsys' union columns to hold it.
std::string expectedPayload(PayloadType type, uint64_t bits)
{
    const uint32_t low = uint32_t(bits);
    switch (type) {
    case PayloadType::None:
        return "";
    case PayloadType::UInt64:
        return "uint64Value=" + std::to_string(int64_t(bits));
    case PayloadType::Int64:
        return "int64Value=" + std::to_string(int64_t(bits));
    case PayloadType::Double:
        return "doubleValue=" + std::to_string(std::bit_cast<double>(bits));
    case PayloadType::UInt32:
        return "uint32Value=" + std::to_string(low);
    case PayloadType::Int32:
        return "int32Value=" + std::to_string(std::bit_cast<int32_t>(low));
    case PayloadType::Float:
        return "floatValue=" + std::to_string(double(std::bit_cast<float>(low)));
    }
    return "?";
}

std::string payloadFromRow(const SqlRow& r, size_t first)
{
    static const char* names[]
        = {"uint64Value", "int64Value", "doubleValue", "uint32Value", "int32Value", "floatValue"};
    std::string found;
    for (size_t i = 0; i < 6; ++i) {
        const SqlCell& c = r[first + i];
        if (c.isNull()) continue;
        found += std::string(names[i]) + "="
            + (c.type == SQLITE_FLOAT ? std::to_string(c.real) : std::to_string(c.integer));
    }
    return found;
}

} // namespace

TEST_CASE("SQLite export writes NVTX rows the way nsys does", "[export][sqlite]")
{
    const Trace trace = makeEveryKindTrace();
    SqliteFile db(exportToScratch(trace, "sqlite_nvtx"));

    std::multiset<std::string> expected, actual;
    std::map<std::string, int64_t> expectedDomains;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
        const Track& track = trace.tracks[t];
        if (track.key.kind != TrackKind::Nvtx) continue;
        for (uint32_t i = 0; i < track.size(); ++i) {
            const NvtxEvent e = nvtxAt(trace, {TrackId(t), i});
            const NvtxAttributes& a = e.attributes;
            const int eventType = a.style == NvtxStyle::PushPop ? 59
                : a.style == NvtxStyle::StartEnd                ? 60
                                                                : 34;
            const std::string end = a.style == NvtxStyle::Mark ? "null" : std::to_string(e.end);
            const std::string endTid = a.style == NvtxStyle::StartEnd
                ? std::to_string(globalTid(track.key.pid, a.endThread))
                : "null";
            expected.insert(std::to_string(e.start) + "|" + end + "|" + std::to_string(eventType) + "|"
                + std::to_string(a.category) + "|" + (a.hasColor ? std::to_string(a.color) : "null") + "|"
                + std::string(trace.strings[e.name]) + "|"
                + std::to_string(globalTid(track.key.pid, track.key.tid)) + "|" + endTid + "|"
                + std::to_string(a.domain.value) + "|" + expectedPayload(a.payloadType, a.payload));
            ++expectedDomains[std::string(trace.domainName(a.domain))];
        }
    }
    for (const SqlRow& r :
        db.rows("SELECT start, end, eventType, COALESCE(category, 0), color, text, globalTid, "
                "endGlobalTid, domainId, uint64Value, int64Value, doubleValue, uint32Value, "
                "int32Value, floatValue FROM NVTX_EVENTS WHERE eventType IN (34, 59, 60)")) {
        auto orNull
            = [](const SqlCell& c) { return c.isNull() ? std::string("null") : std::to_string(c.integer); };
        actual.insert(std::to_string(r[0].integer) + "|" + orNull(r[1]) + "|" + std::to_string(r[2].integer)
            + "|" + std::to_string(r[3].integer) + "|" + orNull(r[4]) + "|" + r[5].text + "|"
            + std::to_string(r[6].integer) + "|" + orNull(r[7]) + "|" + std::to_string(r[8].integer) + "|"
            + payloadFromRow(r, 9));
    }
    CHECK(actual == expected);

    // The domain join nsys' own reports use: by domainId and the pid bits of globalTid.
    std::map<std::string, int64_t> domains;
    for (const SqlRow& r :
        db.rows("WITH domains AS (SELECT domainId AS id, globalTid, text AS name FROM NVTX_EVENTS WHERE "
                "eventType = 75) "
                "SELECT COALESCE(d.name, ''), COUNT(*) FROM NVTX_EVENTS AS e LEFT JOIN domains AS d "
                "ON e.domainId = d.id AND (e.globalTid & 0x0000FFFFFF000000) = (d.globalTid & "
                "0x0000FFFFFF000000) "
                "WHERE e.eventType IN (34, 59, 60) GROUP BY 1"))
        domains[r[0].text] = r[1].integer;
    CHECK(domains == expectedDomains);
    CHECK(domains.count("io") == 1);
    // A domain no event uses is still named in the file.
    CHECK(db.integer("SELECT COUNT(*) FROM NVTX_EVENTS WHERE eventType = 75 AND text = 'unused'") == 1);
}

TEST_CASE("SQLite export fills the process, GPU, stream and metadata tables", "[export][sqlite]")
{
    const Trace trace = makeEveryKindTrace();
    SqliteFile db(exportToScratch(trace, "sqlite_info"));
    const ReportMetadata& m = trace.metadata;

    std::set<std::tuple<int64_t, int64_t, std::string>> processes, expectedProcesses;
    for (const Process& p : trace.processes)
        expectedProcesses.insert({globalPid(p.pid), p.pid.value, p.name});
    for (const SqlRow& r : db.rows("SELECT globalPid, pid, name FROM PROCESSES"))
        processes.insert({r[0].integer, r[1].integer, r[2].text});
    CHECK(processes == expectedProcesses);

    for (const Gpu& g : trace.gpus) {
        const auto rows
            = db.rows("SELECT name, busLocation, totalMemory, clockRate, smCount, uuid, computeMajor, "
                      "computeMinor FROM TARGET_INFO_GPU WHERE id = "
                + std::to_string(g.device.value));
        REQUIRE(rows.size() == 1);
        CHECK(rows[0][0].text == g.name);
        CHECK(rows[0][1].text == g.busId);
        CHECK(rows[0][2].integer == int64_t(g.memoryBytes));
        CHECK(rows[0][3].integer == int64_t(g.coreClockKHz) * 1000);
        CHECK(rows[0][4].integer == g.smCount);
        CHECK("GPU-" + rows[0][5].text == g.uuid); // nsys omits nvidia-smi's prefix
        CHECK(rows[0][6].integer == g.computeMajor);
        CHECK(rows[0][7].integer == g.computeMinor);
    }

    for (const CudaStream& s : trace.streams) {
        const auto rows = db.rows("SELECT priority, flag FROM TARGET_INFO_CUDA_STREAM WHERE processId = "
            + std::to_string(s.pid.value) + " AND contextId = " + std::to_string(s.context.value)
            + " AND streamId = " + std::to_string(s.stream.value));
        REQUIRE(rows.size() == 1);
        CHECK(int32_t(uint32_t(rows[0][0].integer)) == s.priority);
        CHECK(db.text(
                  "SELECT name FROM ENUM_CUPTI_STREAM_TYPE WHERE id = " + std::to_string(rows[0][1].integer))
            == (s.isDefault ? "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL"
                            : "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_UNKNOWN"));
        if (s.isDefault)
            CHECK(db.integer("SELECT nullStreamId FROM TARGET_INFO_CUDA_CONTEXT_INFO WHERE processId = "
                      + std::to_string(s.pid.value) + " AND contextId = " + std::to_string(s.context.value))
                == s.stream.value);
    }

    CHECK(db.integer("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME") == m.startTimeUtcNs);
    const auto span = db.rows("SELECT duration, startTime, stopTime FROM ANALYSIS_DETAILS");
    REQUIRE(span.size() == 1);
    CHECK(span[0][2].integer == trace.span.end);
    CHECK(span[0][0].integer == span[0][2].integer - span[0][1].integer);

    const std::string version
        = db.text("SELECT value FROM META_DATA_EXPORT WHERE name = 'EXPORT_SCHEMA_VERSION'");
    CHECK(version
        == db.text("SELECT value FROM META_DATA_EXPORT WHERE name = 'EXPORT_SCHEMA_VERSION_MAJOR'") + "."
            + db.text("SELECT value FROM META_DATA_EXPORT WHERE name = 'EXPORT_SCHEMA_VERSION_MINOR'") + "."
            + db.text("SELECT value FROM META_DATA_EXPORT WHERE name = 'EXPORT_SCHEMA_VERSION_MICRO'"));
    CHECK(version.rfind("3.", 0) == 0);

    CHECK(db.text("SELECT value FROM TARGET_INFO_SYSTEM_ENV WHERE name = 'Hostname'") == m.hostname);
    CHECK(db.text("SELECT value FROM TARGET_INFO_SYSTEM_ENV WHERE name = 'OsDescription'") == m.osName);
    CHECK(
        db.text("SELECT value FROM META_DATA_CAPTURE WHERE name = 'PROCESS_0:COMMAND'") == m.commandLine[0]);
    for (size_t i = 1; i < m.commandLine.size(); ++i)
        CHECK(db.text("SELECT value FROM META_DATA_CAPTURE WHERE name = 'PROCESS_0:ARGUMENT_"
                  + std::to_string(i - 1) + "'")
            == m.commandLine[i]);
    const auto diagnostics = db.rows("SELECT s.label, d.text FROM DIAGNOSTIC_EVENT AS d "
                                     "JOIN ENUM_DIAGNOSTIC_SEVERITY_LEVEL AS s ON s.id = d.severity");
    REQUIRE(diagnostics.size() == 1);
    CHECK(diagnostics[0][0].text == "Warning");
    CHECK(diagnostics[0][1].text == trace.diagnostics[0].text);
}

TEST_CASE("SQLite export writes the nsys enum tables with the model's names and labels", "[export][sqlite]")
{
    const Trace trace = makeEveryKindTrace();
    SqliteFile db(exportToScratch(trace, "sqlite_enums"));

    auto check = [&](const std::string& table, int64_t id, std::string_view name, std::string_view text) {
        INFO(table << " " << id);
        const auto rows = db.rows("SELECT name, label FROM " + table + " WHERE id = " + std::to_string(id));
        REQUIRE(rows.size() == 1);
        CHECK(rows[0][0].text == name);
        CHECK(rows[0][1].text == text);
    };
    for (int i = 0; i < kCopyKindCount; ++i)
        check("ENUM_CUDA_MEMCPY_OPER", i, enumName(CopyKind(i)), label(CopyKind(i)));
    for (int i = 0; i < kMemoryKindCount; ++i)
        check("ENUM_CUDA_MEM_KIND", i, enumName(MemoryKind(i)), label(MemoryKind(i)));
    for (int i = 0; i < kSyncTypeCount; ++i)
        check("ENUM_CUPTI_SYNC_TYPE", i, enumName(SyncType(i)), label(SyncType(i)));
    CHECK(db.integer("SELECT COUNT(*) FROM ENUM_CUDA_KERNEL_LAUNCH_TYPE") == kLaunchTypeCount + 1);
    check("ENUM_NSYS_EVENT_TYPE", 59, "NvtxPushPopRange", "NvtxPushPopRange");
    check("ENUM_NSYS_EVENT_TYPE", 60, "NvtxStartEndRange", "NvtxStartEndRange");
    check("ENUM_NSYS_EVENT_TYPE", 34, "NvtxMark", "NvtxMark");
    check("ENUM_NSYS_EVENT_TYPE", 75, "NvtxDomainCreate", "NvtxDomainCreate");

    const auto enumTables
        = db.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'ENUM\\_%' ESCAPE '\\'");
    CHECK(enumTables.size() >= 6);
    for (const SqlRow& table : enumTables) {
        INFO(table[0].text);
        const auto columns = columnsOf(db, table[0].text);
        REQUIRE(columns.size() == 3);
        CHECK(std::get<0>(columns[0]) == "id");
        CHECK(std::get<3>(columns[0]) == 1); // primary key
        CHECK(std::get<0>(columns[1]) == "name");
        CHECK(std::get<0>(columns[2]) == "label");
    }
}

TEST_CASE(
    "SQLite export tables have the columns of a real Nsight Systems export", "[export][sqlite][interop]")
{
    const auto traces = sharedTraces();
    if (traces.empty()) {
        WARN("shared traces folder absent; skipping the comparison with real nsys exports");
        return;
    }
    const Trace trace = makeEveryKindTrace();
    const SqliteFile ours(exportToScratch(trace, "sqlite_schema"));
    const SqliteFile recent((traces / "nsys-ai__h100_2gpu_1s.sqlite").string()); // nsys 2026.2, schema 3.25
    const SqliteFile older((traces / "Fuser__report1.sqlite").string()); // nsys 2024.6, schema 3.16

    int compared = 0;
    for (const SqlRow& table : ours.rows("SELECT name FROM sqlite_master WHERE type = 'table'")) {
        const std::string& name = table[0].text;
        for (const SqliteFile* reference : {&recent, &older}) {
            if (reference->integer(
                    "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '" + name + "'")
                == 0)
                continue;
            INFO("table " << name);
            CHECK(columnsOf(ours, name) == columnsOf(*reference, name));
            ++compared;
            break;
        }
    }
    CHECK(compared >= 25);

    // The same SQL runs on both files.
    for (const SqliteFile* db : {&ours, &recent}) {
        CHECK_NOTHROW(
            db->rows("SELECT s.value, COUNT(*), SUM(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL AS k "
                     "JOIN StringIds AS s ON s.id = k.shortName GROUP BY 1"));
        CHECK_NOTHROW(db->rows("SELECT o.label, SUM(m.bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY AS m "
                               "JOIN ENUM_CUDA_MEMCPY_OPER AS o ON o.id = m.copyKind GROUP BY 1"));
        CHECK_NOTHROW(
            db->rows("SELECT r.correlationId, k.start - r.start FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r "
                     "JOIN CUPTI_ACTIVITY_KIND_KERNEL AS k ON k.correlationId = r.correlationId"));
    }
}

TEST_CASE(
    "Exports refuse to overwrite, leave no temporary files and name the file in errors", "[export][files]")
{
    const Trace trace = makeEveryKindTrace();
    const auto dir = scratchDir("export_files");
    const std::string path = (dir / "out.sqlite").string();
    REQUIRE(exportSqlite(trace, path, {}).ok());
    const auto firstSize = std::filesystem::file_size(path);

    const std::string refused = exportSqlite(trace, path, {}).error();
    CHECK(refused.find(path) != std::string::npos);
    CHECK(refused.find("already exists") != std::string::npos);
    CHECK(std::filesystem::file_size(path) == firstSize);

    ExportOptions overwrite;
    overwrite.overwrite = true;
    CHECK(exportSqlite(trace, path, overwrite).ok());
    CHECK(exportChromeTrace(trace, (dir / "out.json").string(), {}).ok());
    CHECK_FALSE(exportChromeTrace(trace, (dir / "out.json").string(), {}).ok());

    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    CHECK(names == std::vector<std::string> {"out.json", "out.sqlite"});

    const std::string missing = (dir / "no-such-folder" / "x.sqlite").string();
    const std::string error = exportSqlite(trace, missing, {}).error();
    CHECK(error.find(missing) != std::string::npos);
    CHECK(error.find("does not exist") != std::string::npos);
    CHECK_FALSE(exportChromeTrace(trace, dir.string(), {}).ok()); // a folder is not a file name
}
