// The numbers `sightline stats` prints equal what SQL computes over `sightline export --type
// sqlite` of the same report: the same SQL people run on Nsight Systems exports.
#include "../../test_paths.h"
#include "../support/run_command.h"

#include <catch2/catch.hpp>
#include <map>
#include <sqlite3.h>
#include <sstream>

using namespace sightline::test;

namespace {

struct Totals
{
    long long count = 0, total = 0, min = 0, max = 0;
    friend bool operator==(const Totals&, const Totals&) = default;
};
using TotalsByName = std::map<std::string, Totals>;

std::vector<std::string> splitCsvLine(const std::string& line)
{
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"')
            cells.back() += '"', ++i;
        else if (c == '"')
            quoted = !quoted;
        else if (c == ',' && !quoted)
            cells.emplace_back();
        else
            cells.back() += c;
    }
    return cells;
}

// Parses one report's section of `sightline stats --format csv`: name -> count/total/min/max.
TotalsByName parseStatsCsv(
    const std::string& csv, const std::string& countColumn, const std::string& nameColumn)
{
    TotalsByName out;
    std::istringstream in(csv);
    std::string line;
    while (std::getline(in, line) && line.rfind("Time (%)", 0) != 0) { } // skip a title line
    const auto header = splitCsvLine(line);
    auto column = [&](const std::string& name) {
        return size_t(std::find(header.begin(), header.end(), name) - header.begin());
    };
    const size_t count = column(countColumn), total = column("Total Time (ns)"), min = column("Min (ns)"),
                 max = column("Max (ns)"), name = column(nameColumn);
    REQUIRE(name < header.size());
    while (std::getline(in, line) && !line.empty()) {
        const auto cells = splitCsvLine(line);
        out[cells[name]] = {std::stoll(cells[count]), std::stoll(cells[total]), std::stoll(cells[min]),
            std::stoll(cells[max])};
    }
    return out;
}

TotalsByName querySql(sqlite3* db, const std::string& sql)
{
    TotalsByName out;
    sqlite3_stmt* statement = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK);
    while (sqlite3_step(statement) == SQLITE_ROW)
        out[reinterpret_cast<const char*>(sqlite3_column_text(statement, 0))]
            = {sqlite3_column_int64(statement, 1), sqlite3_column_int64(statement, 2),
                sqlite3_column_int64(statement, 3), sqlite3_column_int64(statement, 4)};
    sqlite3_finalize(statement);
    return out;
}

std::string aggregate(const std::string& nameExpr, const std::string& from, const std::string& where)
{
    return "SELECT " + nameExpr
        + ", COUNT(*), SUM(e.end - e.start), MIN(e.end - e.start), MAX(e.end - e.start) FROM " + from
        + " WHERE " + where + " GROUP BY 1";
}

// nvtx_gpu_proj_sum in SQL, summed over all names: instances, projected time, GPU operations.
constexpr const char* kProjectionSql = R"(
WITH gpu AS (
    SELECT correlationId, globalPid, start, end FROM CUPTI_ACTIVITY_KIND_KERNEL
    UNION ALL SELECT correlationId, globalPid, start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY
    UNION ALL SELECT correlationId, globalPid, start, end FROM CUPTI_ACTIVITY_KIND_MEMSET),
calls AS (
    SELECT correlationId, globalTid, MIN(start) AS start FROM CUPTI_ACTIVITY_KIND_RUNTIME
    WHERE correlationId != 0 GROUP BY globalTid / 16777216, correlationId),
launches AS (
    SELECT c.globalTid, c.start AS call, MIN(g.start) AS s, MAX(g.end) AS e, COUNT(*) AS ops
    FROM calls c JOIN gpu g
        ON g.correlationId = c.correlationId AND g.globalPid = c.globalTid / 16777216 * 16777216
    GROUP BY c.globalTid, c.correlationId),
projected AS (
    SELECT MIN(l.s) AS s, MAX(l.e) AS e, SUM(l.ops) AS ops FROM NVTX_EVENTS n
    JOIN launches l ON l.globalTid = n.globalTid AND l.call >= n.start AND l.call < n.end
    WHERE n.eventType IN (59, 60) AND n.end > n.start AND COALESCE(n.endGlobalTid, n.globalTid) = n.globalTid
    GROUP BY n.rowid)
SELECT COUNT(*), SUM(e - s), SUM(ops) FROM projected WHERE e > s)";

// Rows of a single report's CSV, by column header.
std::vector<std::map<std::string, std::string>> parseCsv(const std::string& csv)
{
    std::vector<std::map<std::string, std::string>> rows;
    std::istringstream in(csv);
    std::string line;
    std::getline(in, line);
    const auto header = splitCsvLine(line);
    while (std::getline(in, line) && !line.empty()) {
        const auto cells = splitCsvLine(line);
        auto& row = rows.emplace_back();
        for (size_t c = 0; c < header.size() && c < cells.size(); ++c)
            row[header[c]] = cells[c];
    }
    return rows;
}

} // namespace

TEST_CASE("sightline stats equals SQL over the SQLite export, whole trace and a range")
{
    const auto dir = scratchDir("stats_equals_sql");
    const std::string report = (dir / "gen.rep").string(), db = (dir / "gen.sqlite").string();
    const std::string bin = (binDir()).string();
    REQUIRE(
        runCommand(shellQuote(bin + "/sightline-gen") + " --events 60000 --seed 11 -o " + shellQuote(report))
            .exitCode
        == 0);
    REQUIRE(runCommand(shellQuote(bin + "/sightline") + " export --type sqlite -o " + shellQuote(db) + " "
                + shellQuote(report))
                .exitCode
        == 0);
    sqlite3* handle = nullptr;
    REQUIRE(sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);

    // The plain query from the Done-when list, against the sum of the kernel table's rows.
    sqlite3_stmt* s = nullptr;
    REQUIRE(sqlite3_prepare_v2(
                handle, "SELECT COUNT(*), SUM(end-start) FROM CUPTI_ACTIVITY_KIND_KERNEL", -1, &s, nullptr)
        == SQLITE_OK);
    REQUIRE(sqlite3_step(s) == SQLITE_ROW);
    const long long kernelCount = sqlite3_column_int64(s, 0), kernelTime = sqlite3_column_int64(s, 1);
    sqlite3_finalize(s);
    REQUIRE(kernelCount > 1000);

    for (const std::string range : {"", "2s:5.5s"}) {
        const std::string where = range.empty() ? "1" : "e.start >= 2000000000 AND e.start < 5500000000";
        const auto run = [&](const std::string& name) {
            auto r = runCommand(shellQuote(bin + "/sightline") + " stats --format csv --report " + name
                + (range.empty() ? "" : " --range " + range) + " " + shellQuote(report));
            REQUIRE(r.exitCode == 0);
            return r.out;
        };
        INFO("range '" << range << "'");
        const auto kernels = parseStatsCsv(run("cuda_gpu_kern_sum"), "Instances", "Name");
        CHECK(kernels
            == querySql(handle,
                aggregate("s.value",
                    "CUPTI_ACTIVITY_KIND_KERNEL e JOIN StringIds s ON s.id = e.demangledName", where)));
        if (range.empty()) {
            long long count = 0, total = 0;
            for (const auto& [name, t] : kernels)
                count += t.count, total += t.total;
            CHECK(count == kernelCount);
            CHECK(total == kernelTime);
        }
        CHECK(parseStatsCsv(run("cuda_api_sum"), "Num Calls", "Name")
            == querySql(handle,
                aggregate(
                    "s.value", "CUPTI_ACTIVITY_KIND_RUNTIME e JOIN StringIds s ON s.id = e.nameId", where)));
        CHECK(parseStatsCsv(run("osrt_sum"), "Num Calls", "Name")
            == querySql(
                handle, aggregate("s.value", "OSRT_API e JOIN StringIds s ON s.id = e.nameId", where)));
        const auto memory = parseStatsCsv(run("cuda_gpu_mem_time_sum"), "Count", "Operation");
        auto sqlMemory = querySql(handle,
            aggregate("'[CUDA memcpy ' || k.label || ']'",
                "CUPTI_ACTIVITY_KIND_MEMCPY e JOIN ENUM_CUDA_MEMCPY_OPER k ON k.id = e.copyKind", where));
        for (auto& [name, t] :
            querySql(handle, aggregate("'[CUDA memset]'", "CUPTI_ACTIVITY_KIND_MEMSET e", where)))
            if (t.count) sqlMemory[name] = t;
        CHECK(memory == sqlMemory);
        // NVTX ranges (push/pop and start/end; marks excluded): totals over all names.
        const auto nvtx = parseStatsCsv(run("nvtx_sum"), "Instances", "Range");
        Totals statsNvtx;
        for (const auto& [name, t] : nvtx)
            statsNvtx.count += t.count, statsNvtx.total += t.total;
        const auto sqlNvtx
            = querySql(handle, aggregate("'all'", "NVTX_EVENTS e", where + " AND e.eventType IN (59, 60)"));
        REQUIRE(sqlNvtx.count("all"));
        CHECK(statsNvtx.count == sqlNvtx.at("all").count);
        CHECK(statsNvtx.total == sqlNvtx.at("all").total);
    }

    // nvtx_gpu_proj_sum: each range's kernels, copies and memsets launched by its thread's calls
    // starting inside it (the outermost call of a correlation id), from the earliest start to
    // the latest end; instances, projected time and operations summed over all names.
    const auto projectedCsv = runCommand(shellQuote(bin + "/sightline")
        + " stats --format csv --report nvtx_gpu_proj_sum " + shellQuote(report));
    REQUIRE(projectedCsv.exitCode == 0);
    const auto projected = parseCsv(projectedCsv.out);
    REQUIRE(projected.size() > 1);
    long long instances = 0, projectedTime = 0, operations = 0;
    for (const auto& row : projected) {
        instances += std::stoll(row.at("Range Instances"));
        projectedTime += std::stoll(row.at("Total Proj Time (ns)"));
        operations += std::stoll(row.at("Total GPU Ops"));
    }
    REQUIRE(sqlite3_prepare_v2(handle, kProjectionSql, -1, &s, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(s) == SQLITE_ROW);
    CHECK(instances == sqlite3_column_int64(s, 0));
    CHECK(projectedTime == sqlite3_column_int64(s, 1));
    CHECK(operations == sqlite3_column_int64(s, 2));
    sqlite3_finalize(s);
    sqlite3_close(handle);
}
