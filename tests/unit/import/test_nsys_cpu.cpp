// The CPU side of Nsight Systems exports: samples, call stacks, scheduling and the backtraces of
// CUDA calls, imported from the real pipit export and checked with SQL on the file, exported
// again and checked with the same SQL, and carried through an export -> import round trip;
// then crafted files with damaged rows.
#include "../../test_paths.h"
#include "../export/export_fixture.h"
#include "../export/sqlite_query.h"
#include "../support/peak_memory.h"
#include "import_support.h"
#include "model/construct/trace_builder.h"
#include "model/export/exporters.h"
#include "model/import/importers.h"

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <map>
#include <set>

using namespace sightline;
using namespace sightline::test;

namespace {

constexpr const char* kPipitExport = "pipit__saxpy-mpi-cuda_nsys_perlmutter0.sqlite";
constexpr int64_t kGlobalIdRange = 1 << 24;

std::vector<std::string> functionNames(const Trace& trace, uint32_t stack)
{
    std::vector<std::string> names;
    for (uint32_t frame : trace.cpu.framesOf(stack))
        names.push_back(std::string(trace.strings[trace.cpu.frames[frame].function]));
    return names;
}

// Every field of a stack's frames, leaf first, independent of frame and node numbering.
std::string stackText(const Trace& trace, uint32_t stack)
{
    std::string text;
    for (uint32_t id : trace.cpu.framesOf(stack)) {
        const StackFrame& frame = trace.cpu.frames[id];
        text += std::string(trace.strings[frame.function]) + "|" + std::string(trace.strings[frame.module])
            + "|" + std::to_string(frame.offset) + (frame.kernel ? "|kernel;" : ";");
    }
    return text;
}

std::vector<std::string> sampleLines(const Trace& trace)
{
    std::vector<std::string> lines;
    for (const CpuSample& s : trace.cpu.samples)
        lines.push_back(std::to_string(s.tid.value) + " " + std::to_string(s.time) + " cpu "
            + std::to_string(s.cpu) + " " + stackText(trace, s.stack));
    return lines;
}

std::vector<std::string> eventStackLines(const Trace& trace)
{
    std::vector<std::string> lines;
    for (const EventStack& e : trace.cpu.eventStacks)
        lines.push_back(
            std::to_string(e.tid.value) + " " + std::to_string(e.start) + " " + stackText(trace, e.stack));
    return lines;
}

void checkSameCpuProfile(const Trace& expected, const Trace& actual)
{
    CHECK(sampleLines(actual) == sampleLines(expected));
    CHECK(actual.cpu.states == expected.cpu.states);
    CHECK(eventStackLines(actual) == eventStackLines(expected));
    CHECK(actual.cpu.samplingPeriod == expected.cpu.samplingPeriod);
}

using NameCounts = std::vector<std::pair<std::string, int64_t>>;

// The ten functions most often at the leaf of a sample, by count, then by name.
constexpr const char* kTopLeavesSql
    = "SELECT s.value, COUNT(*) AS n FROM SAMPLING_CALLCHAINS AS c JOIN StringIds AS s ON s.id = c.symbol"
      " WHERE c.stackDepth = 0 GROUP BY s.value ORDER BY n DESC, s.value LIMIT 10";

NameCounts topLeaves(const SqliteFile& db)
{
    NameCounts top;
    for (const SqlRow& row : db.rows(kTopLeavesSql))
        top.emplace_back(row[0].text, row[1].integer);
    return top;
}

NameCounts topLeaves(const Trace& trace)
{
    std::map<std::string, int64_t> counts;
    for (const CpuSample& s : trace.cpu.samples)
        if (s.stack != kNoCallStack) ++counts[functionNames(trace, s.stack).front()];
    NameCounts top(counts.begin(), counts.end());
    std::stable_sort(
        top.begin(), top.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    top.resize(std::min<size_t>(top.size(), 10));
    return top;
}

std::vector<std::string> rowsText(const SqliteFile& db, const std::string& sql)
{
    std::vector<std::string> lines;
    for (const SqlRow& row : db.rows(sql)) {
        std::string line;
        for (const SqlCell& cell : row)
            line += (cell.isNull() ? "NULL" : cell.text) + " ";
        lines.push_back(line);
    }
    return lines;
}

// The name of the CUDA call starting at `start` on `tid`; "" when there is none.
std::string apiCallName(const Trace& trace, Tid tid, Timestamp start)
{
    for (const Track& track : trace.tracks)
        if (track.key.kind == TrackKind::CudaApi && track.key.tid == tid)
            for (uint32_t i = 0; i < track.size(); ++i)
                if (track.events.start[i] == start) return std::string(trace.strings[track.events.name[i]]);
    return "";
}

bool hasDiagnostic(const Trace& trace, const std::string& text)
{
    return std::any_of(trace.diagnostics.begin(), trace.diagnostics.end(),
        [&](const Diagnostic& d) { return d.text.find(text) != std::string::npos; });
}

} // namespace

TEST_CASE("Samples, stacks, scheduling and CUDA backtraces of a real nsys export match SQL on it")
{
    const auto files = sharedTraceFiles({kPipitExport});
    if (files.empty()) return;
    const std::string path = files.front().string();
    const Result<Trace> imported = importNsysSqlite(path);
    INFO(imported.error());
    REQUIRE(imported);
    const Trace& trace = imported.value();
    const SqliteFile db(path);

    // Samples and their stacks.
    CHECK(int64_t(trace.cpu.samples.size()) == db.integer("SELECT COUNT(*) FROM COMPOSITE_EVENTS"));
    size_t frames = 0;
    for (const CpuSample& s : trace.cpu.samples)
        frames += trace.cpu.framesOf(s.stack).size();
    CHECK(int64_t(frames) == db.integer("SELECT COUNT(*) FROM SAMPLING_CALLCHAINS"));
    const NameCounts top = topLeaves(db);
    CHECK(top.size() == 10);
    CHECK(topLeaves(trace) == top);
    // No capture metadata names the rate: the median spacing of a thread's samples.
    CHECK(trace.cpu.samplingPeriod
        == db.integer(
            "WITH g AS (SELECT start - LAG(start) OVER (PARTITION BY globalTid ORDER BY start) AS gap"
            " FROM COMPOSITE_EVENTS) SELECT gap FROM g WHERE gap > 0 ORDER BY gap"
            " LIMIT 1 OFFSET (SELECT COUNT(*) / 2 FROM g WHERE gap > 0)"));

    // Scheduling: a state from each row to its thread's next.
    const std::string nextSwitch
        = "SELECT isSchedIn, start, LEAD(start) OVER (PARTITION BY globalTid ORDER BY "
          "start) AS next FROM SCHED_EVENTS";
    CHECK(int64_t(trace.cpu.states.size())
        == db.integer("SELECT COUNT(*) FROM (" + nextSwitch + ") WHERE next IS NOT NULL"));
    std::map<ThreadState, int64_t> stateTime;
    for (const ThreadStateInterval& s : trace.cpu.states)
        stateTime[s.state] += s.end - s.start;
    CHECK(stateTime[ThreadState::Running]
        == db.integer("SELECT SUM(next - start) FROM (" + nextSwitch + ") WHERE isSchedIn = 1"));
    CHECK(stateTime[ThreadState::Waiting]
        == db.integer("SELECT SUM(next - start) FROM (" + nextSwitch + ") WHERE isSchedIn = 0"));
    CHECK(stateTime.size() == 2);

    // Every thread that was sampled or scheduled is a thread of the trace, in its process.
    std::set<std::pair<uint32_t, uint32_t>> threads;
    for (const Thread& t : trace.threads)
        threads.insert({t.pid.value, t.tid.value});
    const auto cpuThreads
        = db.rows("SELECT globalTid FROM COMPOSITE_EVENTS UNION SELECT globalTid FROM SCHED_EVENTS");
    CHECK(cpuThreads.size() == 8);
    for (const SqlRow& row : cpuThreads)
        CHECK(threads.count({uint32_t(row[0].integer / kGlobalIdRange % kGlobalIdRange),
                  uint32_t(row[0].integer % kGlobalIdRange)})
            == 1);

    // CUDA backtraces: nsys hangs them on copies (eventClass 67) of the calls they belong to, and
    // this version numbers callchainId from 0 but CUDA_CALLCHAINS from 1: each stack names its
    // call's function only that way.
    const auto backtraced = db.rows(
        "SELECT r.globalTid, r.start, c.callchainId FROM CUPTI_ACTIVITY_KIND_RUNTIME AS c"
        " JOIN CUPTI_ACTIVITY_KIND_RUNTIME AS r ON r.correlationId = c.correlationId AND r.globalTid = "
        "c.globalTid"
        " AND r.eventClass IN (0, 1) WHERE c.callchainId IS NOT NULL AND c.eventClass NOT IN (0, 1)");
    CHECK(int64_t(backtraced.size())
        == db.integer("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE callchainId IS NOT NULL"));
    CHECK(trace.cpu.eventStacks.size() == backtraced.size());
    for (const SqlRow& call : backtraced) {
        const Tid tid(uint32_t(call[0].integer % kGlobalIdRange));
        const Timestamp start = call[1].integer;
        INFO("the call at " << start << " on thread " << tid.value);
        const std::string name = apiCallName(trace, tid, start);
        CHECK(!name.empty());
        std::vector<std::string> expected;
        for (const SqlRow& frame : db.rows("SELECT s.value FROM CUDA_CALLCHAINS AS c JOIN StringIds AS s"
                                           " ON s.id = c.symbol WHERE c.id = "
                 + std::to_string(call[2].integer + 1) + " ORDER BY c.stackDepth"))
            expected.push_back(frame[0].text);
        CHECK(std::count(expected.begin(), expected.end(), name) == 1);
        CHECK(functionNames(trace, trace.cpu.eventStack(tid, start)) == expected);
    }

    // The SQLite export answers the same SQL with the same figures, in nsys' columns.
    const std::string exported = exportToScratch(trace, "nsys-cpu-pipit");
    const SqliteFile out(exported);
    CHECK(out.integer("SELECT COUNT(*) FROM COMPOSITE_EVENTS")
        == db.integer("SELECT COUNT(*) FROM COMPOSITE_EVENTS"));
    CHECK(topLeaves(out) == top);
    CHECK(
        out.integer("SELECT COUNT(*) FROM SCHED_EVENTS") == db.integer("SELECT COUNT(*) FROM SCHED_EVENTS"));
    const std::string switches
        = "SELECT globalTid % 281474976710656, start, isSchedIn FROM SCHED_EVENTS ORDER BY 1, 2";
    CHECK(rowsText(out, switches) == rowsText(db, switches));
    CHECK(out.integer("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE callchainId IS NOT NULL")
        == int64_t(backtraced.size()));
    CHECK(out.integer("SELECT COUNT(*) FROM CUDA_CALLCHAINS")
        == db.integer("SELECT COUNT(*) FROM CUDA_CALLCHAINS"));
    for (const std::string table :
        {"COMPOSITE_EVENTS", "SAMPLING_CALLCHAINS", "SCHED_EVENTS", "CUDA_CALLCHAINS"}) {
        INFO("table " << table);
        auto theirs = columnsOf(db, table);
        if (table == "SAMPLING_CALLCHAINS") {
            // This file also has a symbolName column, added after nsys wrote it.
            REQUIRE(std::get<0>(theirs.back()) == "symbolName");
            theirs.pop_back();
        }
        CHECK(columnsOf(out, table) == theirs);
    }

    // And importing the export gives the same profile back.
    const Result<Trace> again = importNsysSqlite(exported);
    INFO(again.error());
    REQUIRE(again);
    checkSameCpuProfile(trace, again.value());
    CHECK(again->threads == trace.threads);
}

TEST_CASE("Nsight Systems exports without CPU tables import without a CPU profile")
{
    for (const auto& path : sharedTraceFiles({".sqlite"})) {
        if (path.filename() == kPipitExport) continue;
        INFO(path.filename().string());
        const Result<Trace> imported = importNsysSqlite(path.string());
        REQUIRE(imported);
        CHECK(imported->cpu.empty());
        CHECK(imported->cpu.samplingPeriod == 0);
    }
    // Nor does a trace without one gain any through an export.
    const Result<Trace> again = importNsysSqlite(exportToScratch(makeEveryKindTrace(), "nsys-cpu-none"));
    REQUIRE(again);
    CHECK(again->cpu.empty());
    CHECK(again->cpu.frames.empty());
}

TEST_CASE("A CPU profile survives export to SQLite and import")
{
    TraceBuilder b;
    b.addProcess({Pid(100), "app", {}});
    b.addThread({Pid(100), Tid(101), "main"});
    b.addThread({Pid(100), Tid(102), "worker"});
    b.addThread({Pid(100), Tid(103), "idle"}); // scheduled, never sampled, no events
    const uint32_t mainFrame = b.cpuFrame({b.intern("main"), b.intern("app"), 0x401000, false});
    const uint32_t work = b.cpuFrame({b.intern("work(int)"), b.intern("app"), 0x401200, false});
    const uint32_t copy
        = b.cpuFrame({b.intern("__memmove_avx"), b.intern("libc.so.6"), 0x7f12aa001234, false});
    const uint32_t schedule
        = b.cpuFrame({b.intern("schedule"), b.intern("[kernel.kallsyms]"), 0xffffffff81a00010ull, true});
    const uint32_t deep = b.cpuStack(std::array {copy, work, mainFrame});
    const uint32_t inKernel = b.cpuStack(std::array {schedule, copy, work, mainFrame});
    const uint32_t top = b.cpuStack(std::array {mainFrame});
    b.addCpuSample({1000, Tid(101), deep, 3});
    b.addCpuSample({2000, Tid(101), inKernel, 3});
    b.addCpuSample({3000, Tid(101), top, 7});
    b.addCpuSample({1500, Tid(102), kNoCallStack, 0});
    b.addThreadState({500, 2500, Tid(101), ThreadState::Running, kNoCallStack});
    b.addThreadState({2500, 4000, Tid(101), ThreadState::Waiting, kNoCallStack});
    b.addThreadState({4000, 6000, Tid(101), ThreadState::Running, kNoCallStack});
    b.addThreadState({100, 200, Tid(103), ThreadState::Waiting, kNoCallStack});
    b.add(b.hostTrack(TrackKind::CudaApi, Pid(100), Tid(101)),
        ApiCall {2600, 2900, b.intern("cudaMemcpy"), CorrelationId(5), {ApiClass::Runtime, 0}});
    b.add(b.hostTrack(TrackKind::CudaApi, Pid(100), Tid(101)),
        ApiCall {3100, 3200, b.intern("cudaFree"), CorrelationId(6), {ApiClass::Runtime, 0}});
    b.add(b.hostTrack(TrackKind::OsRuntime, Pid(100), Tid(102)), OsCall {300, 400, b.intern("read"), 8});
    b.addEventStack({Tid(101), 2600, deep});
    b.addEventStack({Tid(102), 300, inKernel});
    b.setSamplingPeriod(1'234'567); // not a whole number of Hz
    const Trace original = b.build();

    const std::string exported = exportToScratch(original, "nsys-cpu-round-trip");
    const SqliteFile db(exported);
    CHECK(db.integer("SELECT COUNT(*) FROM SAMPLING_CALLCHAINS") == 3 + 4 + 1);
    CHECK(db.integer("SELECT COUNT(*) FROM SAMPLING_CALLCHAINS WHERE kernelMode = 1") == 1);
    CHECK(db.integer("SELECT COUNT(*) FROM SCHED_EVENTS") == 4 + 2);
    CHECK(db.integer("SELECT callchainId FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE start = 2600") == 1);
    CHECK(db.integer("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE callchainId IS NULL") == 1);
    CHECK(db.integer("SELECT COUNT(*) FROM CUDA_CALLCHAINS") == 3);
    CHECK(db.integer("SELECT COUNT(*) FROM OSRT_CALLCHAINS WHERE id = (SELECT callchainId FROM OSRT_API)")
        == 4);
    CHECK(db.text("SELECT value FROM META_DATA_CAPTURE WHERE name = 'RATE_HZ'") == "810");

    const Result<Trace> imported = importNsysSqlite(exported);
    INFO(imported.error());
    REQUIRE(imported);
    checkSameCpuProfile(original, imported.value());
    CHECK(imported->threads == original.threads);
}

TEST_CASE("Thread states nsys has no name for export as sched out, and states stop with a row")
{
    TraceBuilder b;
    b.addThread({Pid(7), Tid(8), "t"});
    b.addThread({Pid(7), Tid(9), "u"});
    b.addThread({Pid(7), Tid(11), "v"});
    b.addThread({Pid(7), Tid(12), "w"});
    b.addThreadState({10, 20, Tid(8), ThreadState::Running, kNoCallStack});
    b.addThreadState({20, 30, Tid(8), ThreadState::Blocked, kNoCallStack});
    b.addThreadState({40, 50, Tid(8), ThreadState::Runnable, kNoCallStack}); // after a gap
    b.addThreadState({5, 15, Tid(9), ThreadState::Sleeping, kNoCallStack});
    b.addThreadState({5, 15, Tid(11), ThreadState::WaitingIo, kNoCallStack});
    b.addThreadState({5, 15, Tid(12), ThreadState::Running, kNoCallStack});
    const std::string exported = exportToScratch(b.build(), "nsys-cpu-state-kinds");
    const SqliteFile db(exported);
    CHECK(rowsText(db, "SELECT globalTid % 16777216, start, isSchedIn FROM SCHED_EVENTS ORDER BY 1, 2")
        == std::vector<std::string> {"8 10 1 ", "8 20 0 ", "8 30 1 ", "8 40 0 ", "8 50 1 ", "9 5 0 ",
            "9 15 1 ", "11 5 0 ", "11 15 1 ", "12 5 1 ", "12 15 0 "});

    // Read back, the reasons are gone and the gap is the state its row begins.
    const Result<Trace> imported = importNsysSqlite(exported);
    REQUIRE(imported);
    REQUIRE(imported->cpu.states.size() == 7);
    const std::vector<ThreadStateInterval> eight(
        imported->cpu.states.begin(), imported->cpu.states.begin() + 4);
    CHECK(eight
        == std::vector<ThreadStateInterval> {{10, 20, Tid(8), ThreadState::Running, kNoCallStack},
            {20, 30, Tid(8), ThreadState::Waiting, kNoCallStack},
            {30, 40, Tid(8), ThreadState::Running, kNoCallStack},
            {40, 50, Tid(8), ThreadState::Waiting, kNoCallStack}});
}

TEST_CASE("Damaged CPU rows of a crafted export are counted and never trusted")
{
    // Thread 1 is globalTid 16777217 (pid 1), thread 2 is 16777218.
    const auto path = scratchDir("nsys-cpu-damaged") / "damaged.sqlite";
    const long before = peakResidentKilobytes();
    makeDatabase(path, R"SQL(
CREATE TABLE StringIds (id INTEGER, value TEXT);
INSERT INTO StringIds VALUES (0, 'main'), (1, '/usr/bin/app'), (2, 'work'), (3, 'cudaMemcpy_v3020');
CREATE TABLE COMPOSITE_EVENTS (id INTEGER, start INTEGER, cpu INTEGER, threadState INTEGER, globalTid INTEGER,
    cpuCycles INTEGER);
INSERT INTO COMPOSITE_EVENTS VALUES (1, 100, 2, 1, 16777217, 1), (2, NULL, 2, 1, 16777217, 1),
    (3, 300, 2, 1, NULL, 1), (4, 400, 99999999999, 1, 16777217, 1), (5, 500, -5, 1, 16777217, 1),
    (5, 600, 0, 1, 16777217, 1), (7, 700, 0, 1, 16777217, 1), (NULL, 800, 0, 1, 16777217, 1);
CREATE TABLE SAMPLING_CALLCHAINS (id INTEGER, symbol INTEGER, module INTEGER, kernelMode INTEGER,
    originalIP INTEGER, stackDepth INTEGER);
INSERT INTO SAMPLING_CALLCHAINS VALUES (1, 2, 1, NULL, 20, 0), (1, 0, 1, NULL, 10, 1),
    (4, 2, 1, NULL, 20, 0), (4, 0, 1, NULL, 10, 1000000000),
    (5, 77, NULL, 1, -1, 0),
    (7, 2, 1, NULL, 20, -1), (7, 0, 1, NULL, 10, 0),
    (9, 2, 1, NULL, 20, 0), (4611686018427387904, 2, 1, NULL, 20, 0), (NULL, 0, 1, NULL, 0, 0);
CREATE TABLE SCHED_EVENTS (start INTEGER, cpu INTEGER, isSchedIn INTEGER, globalTid INTEGER);
INSERT INTO SCHED_EVENTS VALUES (300, 1, 0, 16777217), (100, 1, 1, 16777217), (200, 1, 0, 16777217),
    (200, 1, 1, 16777217), (50, 0, 1, 16777218), (60, 0, NULL, 16777218);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER,
    correlationId INTEGER, nameId INTEGER, returnValue INTEGER, callchainId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1000, 2000, 0, 16777217, 5, 3, 0, NULL),
    (999, 2001, 67, 16777217, 5, 3, 0, 0), (3000, 4000, 67, 16777217, 6, 3, 0, 1),
    (5000, 6000, 0, 16777217, 7, 3, 0, 4611686018427387904);
CREATE TABLE CUDA_CALLCHAINS (id INTEGER, symbol INTEGER, module INTEGER, unresolved INTEGER,
    originalIP INTEGER, stackDepth INTEGER);
INSERT INTO CUDA_CALLCHAINS VALUES (0, 3, 1, NULL, 5, 0), (0, 0, 1, NULL, 6, 1), (1, 0, 1, NULL, 1, 0);
)SQL");
    const Result<Trace> imported = importNsysSqlite(path.string());
    INFO(imported.error());
    REQUIRE(imported);
    const Trace& trace = imported.value();
    CHECK(peakResidentKilobytes() - before < 64 * 1024);

    // Rows without an id, a time or a thread are left out; the rest keep a stack only when
    // their depths run 0, 1, 2, ...
    std::map<Timestamp, CpuSample> samples;
    for (const CpuSample& s : trace.cpu.samples)
        samples[s.time] = s;
    REQUIRE(samples.size() == 5);
    CHECK(functionNames(trace, samples[100].stack) == std::vector<std::string> {"work", "main"});
    CHECK(trace.strings[trace.cpu.frames[trace.cpu.framesOf(samples[100].stack)[0]].module] == "app");
    CHECK(samples[400].stack == kNoCallStack); // depth 1,000,000,000 after 0
    CHECK(samples[400].cpu == UINT32_MAX);
    CHECK(samples[500].cpu == 0);
    CHECK(samples[700].stack == kNoCallStack); // depth -1
    // Two samples share id 5: one of them gets its stack, a frame with neither name nor module.
    CHECK((samples[500].stack == kNoCallStack) != (samples[600].stack == kNoCallStack));
    const uint32_t five = samples[500].stack != kNoCallStack ? samples[500].stack : samples[600].stack;
    REQUIRE(trace.cpu.framesOf(five).size() == 1);
    const StackFrame& unnamed = trace.cpu.frames[trace.cpu.framesOf(five)[0]];
    CHECK(trace.strings[unnamed.function].empty());
    CHECK(trace.strings[unnamed.module].empty());
    CHECK(unnamed.kernel);
    CHECK(unnamed.offset == UINT64_MAX);

    // Thread 1 switches out and in at 200: no empty state; thread 2's only row begins none.
    const std::vector<ThreadStateInterval> states {{100, 200, Tid(1), ThreadState::Running, kNoCallStack},
        {200, 300, Tid(1), ThreadState::Running, kNoCallStack}};
    CHECK(trace.cpu.states == states);
    std::set<uint32_t> tids;
    for (const Thread& t : trace.threads)
        tids.insert(t.tid.value);
    CHECK(tids == std::set<uint32_t> {1, 2});

    // The call of correlation 5 gets the backtrace of its copy; the copy of a call that is not
    // there and a callchainId without rows give none.
    REQUIRE(trace.cpu.eventStacks.size() == 1);
    CHECK(trace.cpu.eventStacks[0].start == 1000);
    CHECK(functionNames(trace, trace.cpu.eventStacks[0].stack)
        == std::vector<std::string> {"cudaMemcpy_v3020", "main"});

    for (const char* text :
        {"3 rows of COMPOSITE_EVENTS lack a value", "1 rows of SAMPLING_CALLCHAINS lack a value",
            "1 rows of SCHED_EVENTS lack a value", "2 call stacks in SAMPLING_CALLCHAINS belong to no sample",
            "2 call stacks have stackDepth values", "2 SCHED_EVENTS rows begin no thread state",
            "2 CUDA or OS runtime calls name a callchainId", "strings that are missing"}) {
        INFO(text);
        CHECK(hasDiagnostic(trace, text));
    }

    // What was kept writes back as many scheduling rows as it holds states, plus the end.
    const SqliteFile out(exportToScratch(trace, "nsys-cpu-damaged-export"));
    CHECK(out.integer("SELECT COUNT(*) FROM SCHED_EVENTS") == 3);
    CHECK(out.integer("SELECT COUNT(*) FROM COMPOSITE_EVENTS") == 5);
}
