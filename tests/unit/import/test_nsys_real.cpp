// The SQLite importer on the real Nsight Systems exports of ../shared/data/traces (schemas
// 2.9.1, 3.16.1 and 3.25.0): every figure is computed again with SQL on the original file.
#include "../export/sqlite_query.h"
#include "import_support.h"
#include "model/import/importers.h"
#include "nesting.h"

#include <catch2/catch.hpp>
#include <map>
#include <set>

using namespace sightline;
using namespace sightline::test;

namespace {

struct Figures
{
    int64_t count = 0;
    int64_t total = 0; // duration or bytes
    friend bool operator==(const Figures&, const Figures&) = default;
};

bool hasTable(const SqliteFile& db, const std::string& table)
{
    return db.integer("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '" + table + "'")
        > 0;
}

Figures sqlFigures(
    const SqliteFile& db, const std::string& table, const std::string& total, const std::string& where = "1")
{
    if (!hasTable(db, table)) return {};
    const auto rows
        = db.rows("SELECT COUNT(*), COALESCE(SUM(" + total + "), 0) FROM " + table + " WHERE " + where);
    return {rows[0][0].integer, rows[0][1].integer};
}

Figures traceFigures(const Trace& trace, TrackKind kind, bool bytes = false)
{
    Figures f;
    for (const Track& t : trace.tracks) {
        if (t.key.kind != kind) continue;
        for (uint32_t i = 0; i < t.size(); ++i) {
            ++f.count;
            f.total += bytes ? t.events.value[i] : t.duration(i);
        }
    }
    return f;
}

std::map<std::string, int64_t> sqlNameCounts(const SqliteFile& db, const std::string& sql)
{
    std::map<std::string, int64_t> counts;
    for (const SqlRow& row : db.rows(sql))
        counts[row[0].text] += row[1].integer;
    return counts;
}

std::map<std::string, int64_t> traceNameCounts(const Trace& trace, TrackKind kind)
{
    std::map<std::string, int64_t> counts;
    for (const Track& t : trace.tracks)
        if (t.key.kind == kind)
            for (StringId name : t.events.name)
                ++counts[std::string(trace.strings[name])];
    return counts;
}

// nsys' own rule for API names in its reports: drop a trailing "_v" and four characters.
constexpr const char* kApiNameSql
    = "CASE WHEN substr(s.value, -6, 2) = '_v' THEN substr(s.value, 1, length(s.value) - 6) ELSE s.value END";
constexpr const char* kPidOfGlobalTid = "((%s / 16777216) %% 16777216)";

std::string pidOf(const std::string& column)
{
    char text[128];
    std::snprintf(text, sizeof text, kPidOfGlobalTid, column.c_str());
    return text;
}

void checkCorrelation(const Trace& trace, const SqliteFile& db)
{
    if (!hasTable(db, "CUPTI_ACTIVITY_KIND_KERNEL") || !hasTable(db, "CUPTI_ACTIVITY_KIND_RUNTIME")) return;
    // Every kernel whose correlation id has a CUDA call in the same process, with the calls' names.
    std::map<std::pair<int64_t, int64_t>, std::set<std::string>> expected;
    const std::string sql = std::string("SELECT k.start, k.end, ") + kApiNameSql
        + " FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = "
          "k.correlationId"
          " AND "
        + pidOf("r.globalTid") + " = " + pidOf("k.globalPid")
        + " JOIN StringIds s ON s.id = r.nameId WHERE r.eventClass IN (0, 1)";
    for (const SqlRow& row : db.rows(sql))
        expected[{row[0].integer, row[1].integer}].insert(row[2].text);

    size_t found = 0;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
        const Track& track = trace.tracks[t];
        if (track.key.kind != TrackKind::Kernels) continue;
        for (uint32_t i = 0; i < track.size(); ++i) {
            const auto call = trace.correlation.launchingCall(trace, {TrackId(t), i});
            const auto want = expected.find({track.events.start[i], track.events.end[i]});
            CHECK(bool(call) == (want != expected.end()));
            if (!call || want == expected.end()) continue;
            ++found;
            const Track& api = trace.track(call->track);
            CHECK(api.events.correlation[call->index] == track.events.correlation[i]);
            CHECK(want->second.count(std::string(trace.strings[api.events.name[call->index]])) == 1);
        }
    }
    CHECK(found == expected.size());
}

void checkNvtxNesting(const Trace& trace, const SqliteFile& db)
{
    if (!hasTable(db, "NVTX_EVENTS")) return;
    // Push/pop ranges grouped by thread and domain, in rows that hold nothing else.
    std::map<std::string, std::vector<Range>> groups;
    std::set<std::string> mixed;
    for (const SqlRow& row :
        db.rows("SELECT globalTid, COALESCE(domainId, 0), eventType, start, end FROM NVTX_EVENTS"
                " WHERE eventType IN (34, 59, 60)")) {
        const int64_t gtid = row[0].integer;
        const std::string key = std::to_string((gtid >> 24) & 0xFFFFFF) + "/"
            + std::to_string(gtid & 0xFFFFFF) + "/" + std::to_string(row[1].integer);
        if (row[2].integer != 59 || row[4].isNull())
            mixed.insert(key);
        else
            groups[key].push_back({row[3].integer, row[4].integer});
    }
    size_t compared = 0;
    for (const Track& track : trace.tracks) {
        if (track.key.kind != TrackKind::Nvtx) continue;
        // The importer keeps nsys' per-process domain numbers where it can; match by thread and
        // by the file domain found through the track's events' domain id.
        std::string key = std::to_string(track.key.pid.value) + "/" + std::to_string(track.key.tid.value)
            + "/" + std::to_string(track.key.domain.value);
        if (mixed.count(key) || !groups.count(key)) continue;
        const Nesting expected = nestingOf(groups[key]);
        CHECK(track.nested == expected.proper);
        if (!expected.proper) continue;
        std::vector<std::string> lines;
        for (uint32_t i = 0; i < track.size(); ++i)
            lines.push_back(std::to_string(track.events.start[i]) + " " + std::to_string(track.events.end[i])
                + " " + std::to_string(track.laneOf(i)));
        std::sort(lines.begin(), lines.end());
        CHECK(lines == expected.lines);
        ++compared;
    }
    CHECK(compared == groups.size() - std::count_if(groups.begin(), groups.end(), [&](const auto& g) {
        return mixed.count(g.first) != 0;
    }));
}

} // namespace

TEST_CASE("Real Nsight Systems exports import with the figures SQL finds in them")
{
    for (const auto& path : sharedTraceFiles({".sqlite"})) {
        DYNAMIC_SECTION(path.filename().string())
        {
            const Result<Trace> imported = importNsysSqlite(path.string());
            INFO(imported.error());
            REQUIRE(imported);
            const Trace& trace = imported.value();
            const SqliteFile db(path.string());

            // Counts and total times (to the nanosecond) per kind.
            const Figures kernels = sqlFigures(db, "CUPTI_ACTIVITY_KIND_KERNEL", "end - start");
            CHECK(kernels.count > 0);
            CHECK(traceFigures(trace, TrackKind::Kernels) == kernels);
            const Figures copies = sqlFigures(db, "CUPTI_ACTIVITY_KIND_MEMCPY", "bytes");
            const Figures sets = sqlFigures(db, "CUPTI_ACTIVITY_KIND_MEMSET", "bytes");
            CHECK(traceFigures(trace, TrackKind::Memory, true)
                == Figures {copies.count + sets.count, copies.total + sets.total});
            CHECK(traceFigures(trace, TrackKind::Synchronization)
                == sqlFigures(db, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "end - start"));
            CHECK(traceFigures(trace, TrackKind::CudaApi)
                == sqlFigures(db, "CUPTI_ACTIVITY_KIND_RUNTIME", "end - start", "eventClass IN (0, 1)"));
            CHECK(traceFigures(trace, TrackKind::Nvtx)
                == sqlFigures(
                    db, "NVTX_EVENTS", "COALESCE(end, start) - start", "eventType IN (34, 59, 60)"));
            CHECK(traceFigures(trace, TrackKind::OsRuntime) == sqlFigures(db, "OSRT_API", "end - start"));

            // Names.
            CHECK(traceNameCounts(trace, TrackKind::Kernels)
                == sqlNameCounts(db,
                    "SELECT s.value, COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k"
                    " JOIN StringIds s ON s.id = k.demangledName GROUP BY 1"));
            CHECK(traceNameCounts(trace, TrackKind::CudaApi)
                == sqlNameCounts(db,
                    std::string("SELECT ") + kApiNameSql
                        + ", COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId"
                          " WHERE r.eventClass IN (0, 1) GROUP BY 1"));
            CHECK(traceNameCounts(trace, TrackKind::Nvtx)
                == sqlNameCounts(db,
                    "SELECT COALESCE(n.text, s.value, ''), COUNT(*) FROM NVTX_EVENTS n"
                    " LEFT JOIN StringIds s ON s.id = n.textId"
                    " WHERE n.eventType IN (34, 59, 60) GROUP BY 1"));

            checkCorrelation(trace, db);
            checkNvtxNesting(trace, db);

            // Metadata the Analysis Summary shows.
            CHECK(!trace.metadata.hostname.empty());
            CHECK(trace.metadata.startTimeUtcNs
                == db.integer("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME"));
            if (hasTable(db, "TARGET_INFO_GPU")) {
                REQUIRE(!trace.gpus.empty());
                CHECK(trace.gpus[0].name == db.text("SELECT name FROM TARGET_INFO_GPU LIMIT 1"));
            }
            // Every thread with events has the name nsys gave it, when it gave one.
            for (const Thread& thread : trace.threads) {
                const int64_t pid = thread.pid.value, tid = thread.tid.value;
                const auto names
                    = db.rows("SELECT s.value FROM ThreadNames t JOIN StringIds s ON s.id = t.nameId"
                              " WHERE (t.globalTid / 16777216) % 16777216 = "
                        + std::to_string(pid) + " AND t.globalTid % 16777216 = " + std::to_string(tid));
                bool nvtxNamed = hasTable(db, "NVTX_EVENTS")
                    && db.integer(
                           "SELECT COUNT(*) FROM NVTX_EVENTS WHERE eventType = 39 AND globalTid % 16777216 = "
                           + std::to_string(tid))
                        > 0;
                if (!names.empty() && !nvtxNamed) CHECK(thread.name == names.back()[0].text);
            }
        }
    }
}
