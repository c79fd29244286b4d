// Foreign values the importers must not pass on: SQLite rows whose times are NaN, infinite,
// NULL, text, fractions, negative or 2^63-scale, rows that end before they start, Chrome trace
// events before 1970 or centuries away, a kernel table that is a view (and views that make rows
// up without end), and gzip files that are corrupt rather than cut short. Each file is also run
// through `sightline import` and `sightline info`: an import either refuses with one sentence or
// writes a report that opens.
#include "../../test_paths.h"
#include "app/cli/commands.h"
#include "import_support.h"
#include "model/format/report_io.h"
#include "model/import/importers.h"

#include <catch2/catch.hpp>
#include <filesystem>

using namespace sightline;
using namespace sightline::test;

namespace {

constexpr const char* kStrings = R"SQL(
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (0, 'kernel'), (1, 'cudaLaunchKernel_v7000'), (2, 'read');
)SQL";

// Untyped time columns, as a foreign writer may declare them: SQLite keeps text, reals and
// infinities as they were written (and NaN, 9e999 - 9e999, as NULL).
constexpr const char* kKernelTable = R"SQL(
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId INTEGER, contextId INTEGER,
    streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER);
)SQL";

constexpr const char* kForeignTimes = R"SQL(
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
    (1000, 2000, 0, 1, 7, 1, 0, 0),
    (3000.0, 4000.0, 0, 1, 7, 2, 0, 0),
    (9e999 - 9e999, 5000, 0, 1, 7, 3, 0, 0),
    (5000, 9e999 - 9e999, 0, 1, 7, 4, 0, 0),
    (9e999, 9e999, 0, 1, 7, 5, 0, 0),
    (5000, -9e999, 0, 1, 7, 6, 0, 0),
    (NULL, 5000, 0, 1, 7, 7, 0, 0),
    ('5000', 6000, 0, 1, 7, 8, 0, 0),
    (5000.5, 6000, 0, 1, 7, 9, 0, 0),
    (4611686018427387904, 4611686018427388904, 0, 1, 7, 10, 0, 0),
    (9223372036854775000, 9223372036854775807, 0, 1, 7, 11, 0, 0),
    (-1672000000000000000, 6000, 0, 1, 7, 12, 0, 0),
    (-5, 6000, 0, 1, 7, 13, 0, 0);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass INTEGER, globalTid INTEGER,
    correlationId INTEGER, nameId INTEGER, returnValue INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
    (500, 900, 0, 302119224788644, 1, 1, 0),
    (9e999 - 9e999, 900, 0, 302119224788644, 2, 1, 0),
    (600, 9223372036854775807, 0, 302119224788644, 3, 1, 0),
    (67e300, 1e308, 0, 302119224788644, 4, 1, 0);
)SQL";

constexpr int kForeignKernelRows = 11; // of 13, 2 are times
constexpr int kForeignCallRows = 3; // of 4, 1 is a time

// A kernel that ends before it starts.
constexpr const char* kBackwards = R"SQL(
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1000, 2000, 0, 1, 7, 1, 0, 0), (5000, 4000, 0, 1, 7, 2, 0, 0);
)SQL";

// The other tables that hold times: NVTX (with a range never closed, which ends with the trace,
// and an analysis end at 2^63 - 1 that must not stretch it), OS runtime calls, scheduling, GPU
// metrics and GPU memory use.
constexpr const char* kOtherTables = R"SQL(
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1000, 2000, 0, 1, 7, 1, 0, 0);
CREATE TABLE ANALYSIS_DETAILS (stopTime INTEGER);
INSERT INTO ANALYSIS_DETAILS VALUES (9223372036854775807);
CREATE TABLE NVTX_EVENTS (start, end, eventType INTEGER, text TEXT, globalTid INTEGER);
INSERT INTO NVTX_EVENTS VALUES (100, 300, 59, 'kept', 302119224788644),
    (150, NULL, 59, 'never closed', 302119224788644), (9e999, NULL, 34, 'mark at infinity', 302119224788644),
    (100, 4611686018427387904, 59, 'ends too late', 302119224788644), (-100, 50, 60, 'starts before 0', 302119224788644);
CREATE TABLE OSRT_API (start, end, globalTid INTEGER, nameId INTEGER);
INSERT INTO OSRT_API VALUES (400, 700, 302119224788644, 2), ('400', 700, 302119224788644, 2);
CREATE TABLE SCHED_EVENTS (start, cpu INTEGER, isSchedIn INTEGER, globalTid INTEGER);
INSERT INTO SCHED_EVENTS VALUES (100, 0, 1, 302119224788644), (200, 0, 0, 302119224788644),
    (9223372036854775807, 0, 1, 302119224788644), (-9223372036854775807, 0, 0, 302119224788644);
CREATE TABLE TARGET_INFO_GPU_METRICS (typeId INTEGER, sourceId INTEGER, metricId INTEGER, metricName TEXT);
INSERT INTO TARGET_INFO_GPU_METRICS VALUES (1, 0, 0, 'SM Active [%]');
CREATE TABLE GPU_METRICS (timestamp, typeId INTEGER, metricId INTEGER, value REAL);
INSERT INTO GPU_METRICS VALUES (100, 1, 0, 10), (200, 1, 0, 20), (-9e999, 1, 0, 30), (4611686018427387903.5e1, 1, 0, 40);
CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (start, deviceId INTEGER, bytes INTEGER, memoryOperationType INTEGER);
INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS VALUES (150, 0, 4096, 0), (9e999, 0, 4096, 1);
)SQL";

// The kernel table as a view over a table of another name.
constexpr const char* kKernelView = R"SQL(
CREATE TABLE kernels_v2 (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER, streamId INTEGER,
    correlationId INTEGER, globalPid INTEGER, demangledName INTEGER);
INSERT INTO kernels_v2 VALUES (1000, 2000, 0, 1, 7, 1, 0, 0), (3000, 3500, 0, 1, 7, 2, 0, 0);
CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS SELECT * FROM kernels_v2;
CREATE TABLE gone (x INTEGER);
CREATE VIEW NVTX_EVENTS AS SELECT x AS start, x AS end, x AS eventType FROM gone;
DROP TABLE gone;
)SQL";

// Views that make kernels up without end, and one that loops without yielding a row.
constexpr const char* kEndlessView = R"SQL(
CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)
    SELECT i AS start, i + 1 AS end, 0 AS deviceId, 1 AS contextId, 7 AS streamId, i AS correlationId,
    0 AS globalPid, 0 AS demangledName FROM n;
)SQL";
constexpr const char* kLoopingView = R"SQL(
CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)
    SELECT i AS start, i AS end, 0 AS deviceId, 1 AS contextId, 7 AS streamId, 0 AS correlationId,
    0 AS globalPid, 0 AS demangledName FROM n WHERE i < 0;
)SQL";

bool hasDiagnostic(const Trace& trace, const std::string& part)
{
    for (const Diagnostic& d : trace.diagnostics)
        if (d.text.find(part) != std::string::npos) return true;
    return false;
}

// True when some track holds an event from `start` to `end` (named `name` when one is given).
bool hasEvent(const Trace& trace, Timestamp start, Timestamp end, std::string_view name = {})
{
    for (const Track& track : trace.tracks)
        for (uint32_t i = 0; i < track.size(); ++i)
            if (track.events.start[i] == start && track.events.end[i] == end
                && (name.empty() || trace.strings[track.events.name[i]] == name))
                return true;
    return false;
}

std::string skippedRows(int count, const char* table)
{
    return std::to_string(count) + " rows of " + table + " have a time that is not a whole number";
}

Trace imported(const std::filesystem::path& path)
{
    Result<Trace> result = importNsysSqlite(path.string());
    INFO(result.error());
    REQUIRE(result);
    return std::move(result.value());
}

// `sightline import` writes a report that opens again, and `sightline info` shows it.
void importsToAnOpenableReport(const std::filesystem::path& input)
{
    INFO(input.string());
    const std::filesystem::path report = input.string() + ".rep";
    REQUIRE(cli::runImport({input.string(), "-o", report.string(), "--force"}) == 0);
    const Result<Trace> reopened = readReport(report.string());
    INFO(reopened.error());
    CHECK(reopened);
    CHECK(cli::runInfo({report.string()}) == 0);
}

std::string gzipMember(const std::filesystem::path& dir, const std::string& content)
{
    writeGzipFile(dir / "member.gz", content);
    return readWholeFileRaw(dir / "member.gz");
}

// A Chrome trace large enough that its gzip form spans many deflate blocks.
std::string chromeTrace()
{
    std::string text = R"({"traceEvents": [)";
    for (int i = 0; i < 20000; ++i)
        text += std::string(i ? ", " : "") + R"({"ph": "X", "cat": "kernel", "name": "k)"
            + std::to_string(i % 97) + R"(", "pid": 0, "tid": 7, "ts": )" + std::to_string(1000 + 10 * i)
            + R"(, "dur": 5, "args": {"device": 0, "stream": 7, "correlation": )" + std::to_string(i) + "}}";
    return text + "]}";
}

} // namespace

TEST_CASE("SQLite rows whose start or end is no time are skipped and counted")
{
    const auto dir = scratchDir("out-of-range-times");
    const auto path = dir / "foreign_times.sqlite";
    makeDatabase(path, std::string(kStrings) + kKernelTable + kForeignTimes);
    const Trace trace = imported(path);

    // The whole numbers, integer or real, from 0 up are kept; nothing else is.
    CHECK(trace.eventCount(TrackKind::Kernels) == 2);
    CHECK(trace.eventCount(TrackKind::CudaApi) == 1);
    CHECK(hasDiagnostic(trace, skippedRows(kForeignKernelRows, "CUPTI_ACTIVITY_KIND_KERNEL")));
    CHECK(hasDiagnostic(trace, skippedRows(kForeignCallRows, "CUPTI_ACTIVITY_KIND_RUNTIME")));
    // No outlier stretches the trace: it spans what its sound rows span.
    CHECK(trace.span == TimeRange {500, 4000});
    importsToAnOpenableReport(path);
}

TEST_CASE("A row that ends before it starts becomes an instant, and is counted")
{
    const auto path = scratchDir("out-of-range-backwards") / "backwards.sqlite";
    makeDatabase(path, std::string(kStrings) + kKernelTable + kBackwards);
    const Trace trace = imported(path);
    REQUIRE(trace.eventCount(TrackKind::Kernels) == 2);
    CHECK(hasEvent(trace, 5000, 5000));
    CHECK(hasDiagnostic(trace, "1 rows of CUPTI_ACTIVITY_KIND_KERNEL end before they start"));
    CHECK_FALSE(hasDiagnostic(trace, "have a time that is not"));
    importsToAnOpenableReport(path);
}

TEST_CASE("NVTX, OS runtime, scheduling, GPU metric and memory rows with no time are skipped")
{
    const auto path = scratchDir("out-of-range-other-tables") / "other_tables.sqlite";
    makeDatabase(path, std::string(kStrings) + kKernelTable + kOtherTables);
    const Trace trace = imported(path);

    for (const auto& [count, table] :
        {std::pair(3, "NVTX_EVENTS"), std::pair(1, "OSRT_API"), std::pair(2, "SCHED_EVENTS"),
            std::pair(2, "GPU_METRICS"), std::pair(1, "CUDA_GPU_MEMORY_USAGE_EVENTS")}) {
        INFO(table);
        CHECK(hasDiagnostic(trace, skippedRows(count, table)));
    }
    CHECK(trace.eventCount(TrackKind::Nvtx) == 2);
    CHECK(trace.eventCount(TrackKind::OsRuntime) == 1);
    CHECK(trace.cpu.states.size() == 1);
    // The range never closed ends with the rest of the trace (the kernel's end), not at the
    // analysis end of 2^63 - 1.
    CHECK(hasEvent(trace, 150, 2000, "never closed"));
    CHECK(trace.span.end < (Timestamp(1) << 62));
    importsToAnOpenableReport(path);
}

TEST_CASE("A kernel table that is a view is read; a view that cannot be read counts as absent")
{
    const auto path = scratchDir("out-of-range-view") / "kernel_view.sqlite";
    makeDatabase(path, std::string(kStrings) + kKernelView);
    const Trace trace = imported(path);
    CHECK(trace.eventCount(TrackKind::Kernels) == 2);
    CHECK(trace.eventCount(TrackKind::Nvtx) == 0);
    importsToAnOpenableReport(path);
}

TEST_CASE("A view that makes rows up without end, or loops, is refused with a sentence")
{
    const auto dir = scratchDir("out-of-range-endless-view");
    for (const char* view : {kEndlessView, kLoopingView}) {
        const auto path = dir / "endless.sqlite";
        makeDatabase(path, std::string(kStrings) + view);
        const Result<Trace> r = importNsysSqlite(path.string());
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error(),
            Catch::StartsWith("Cannot import '" + path.string() + "': ")
                && Catch::Contains("more rows, or takes more work, than a file of its size can hold"));
        CHECK(cli::runImport({path.string(), "-o", (dir / "endless.rep").string(), "--force"}) == 1);
    }
}

TEST_CASE("Chrome trace events at times no report holds are skipped, not stretched over 53 years")
{
    const auto path = scratchDir("out-of-range-chrome") / "far_times.json";
    // Epoch microseconds, as PyTorch writes them; one event before 1970, one in 2255, one
    // lasting 285 years and one of negative duration.
    auto kernel = [](const std::string& ts, const std::string& dur) {
        return R"({"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": )" + ts + R"(, "dur": )"
            + dur + "}";
    };
    writeFile(path,
        "[" + kernel("1700000000000000", "5") + ", " + kernel("1700000000000010", "5") + ", "
            + kernel("-5", "5") + ", " + kernel("9000000000000000", "5") + ", "
            + kernel("1700000000000020", "9000000000000000") + ", " + kernel("1700000000000030", "-50")
            + R"(, {"ph": "M", "name": "process_name", "pid": 0, "ts": -1, "args": {"name": "p"}}])");
    const Result<Trace> r = importChromeTrace(path.string());
    INFO(r.error());
    REQUIRE(r);
    CHECK(r->eventCount(TrackKind::Kernels) == 3);
    CHECK(r->span == TimeRange {0, 30000});
    CHECK(hasDiagnostic(r.value(), "Skipped 3 events whose time is negative or 146 years or more"));
    CHECK(hasDiagnostic(r.value(), "1 events have a negative duration"));
    importsToAnOpenableReport(path);
}

TEST_CASE("A corrupt gzip trace is called corrupt, one cut short is called cut short")
{
    const auto dir = scratchDir("out-of-range-gzip");
    const std::string document = chromeTrace();
    const std::string gzip = gzipMember(dir, document);
    REQUIRE(gzip.size() > 4096);

    auto refusal = [&](const std::string& name, const std::string& bytes) {
        const auto path = dir / name;
        writeFile(path, bytes);
        const Result<Trace> r = importChromeTrace(path.string());
        REQUIRE_FALSE(r);
        // The command refuses too, and leaves no report behind.
        const auto report = dir / (name + ".rep");
        CHECK(cli::runImport({path.string(), "-o", report.string()}) == 1);
        CHECK_FALSE(std::filesystem::exists(report));
        return r.error();
    };
    // One sentence that says the file is damaged, and nothing of a cut.
    auto refusedAsCorrupt = [&](const std::string& name, const std::string& bytes) {
        CHECK_THAT(refusal(name, bytes),
            Catch::StartsWith("Cannot import '" + (dir / name).string() + "': the gzip data is corrupt (")
                && Catch::Contains("the file is damaged") && !Catch::Contains("truncated")
                && !Catch::Contains("cut short"));
    };

    // Bytes flipped in the middle: the inflated text may turn to bad JSON before zlib sees
    // the damage; the checksum at the end proves it.
    for (const size_t at : {gzip.size() / 3, gzip.size() / 2, 2 * gzip.size() / 3}) {
        INFO("flipped at byte " << at);
        std::string flipped = gzip;
        for (size_t i = at; i < at + 8; ++i)
            flipped[i] = char(flipped[i] ^ 0x5A);
        refusedAsCorrupt("flipped.json.gz", flipped);
    }
    // A wrong checksum or length in the trailer.
    for (const size_t fromEnd : {8, 2}) {
        INFO("byte " << fromEnd << " from the end changed");
        std::string badTrailer = gzip;
        badTrailer[badTrailer.size() - fromEnd] = char(badTrailer[badTrailer.size() - fromEnd] ^ 0xFF);
        refusedAsCorrupt("trailer.json.gz", badTrailer);
    }

    // Cut short, in the data and in the trailer: the events before the cut, and a note saying so.
    for (const size_t keep : {gzip.size() / 2, gzip.size() - 4}) {
        INFO("kept " << keep << " of " << gzip.size() << " bytes");
        const auto path = dir / "cut.json.gz";
        writeFile(path, gzip.substr(0, keep));
        const Result<Trace> r = importChromeTrace(path.string());
        INFO(r.error());
        REQUIRE(r);
        CHECK(r->eventCount() > 0);
        REQUIRE_FALSE(r->diagnostics.empty());
        CHECK_THAT(r->diagnostics.back().text,
            Catch::StartsWith("The trace was cut short") && Catch::Contains("truncated")
                && !Catch::Contains("corrupt"));
        importsToAnOpenableReport(path);
    }

    // A plain JSON syntax error in an intact gzip file stays a JSON error.
    std::string broken = document;
    broken[broken.size() / 2] = '#';
    const std::string error = refusal("broken.json.gz", gzipMember(dir, broken));
    CHECK_THAT(error, Catch::Contains("is not valid JSON") && !Catch::Contains("corrupt"));
}
