// `sightline profile --trace=nvtx,osrt` end to end on the test program (target_program.cpp):
// the report read back from disk holds every NVTX range with its depth, name, colour and
// thread, the OS-runtime calls above the threshold and none below, and the program's output
// and exit code are what it gives alone.
#include "../../test_paths.h"
#include "../support/run_command.h"
#include "collector_test_support.h"
#include "model/format/report_io.h"

#include <catch2/catch.hpp>
#include <map>
#include <regex>
#include <set>

using namespace sightline;
using namespace sightline::test;

namespace {

struct Profiled
{
    CommandResult run;
    Trace trace;
    uint32_t pid = 0;
    uint32_t mainTid = 0;
    uint32_t workerTid = 0;
};

uint32_t printedNumber(const std::string& out, const std::string& key)
{
    std::smatch match;
    return std::regex_search(out, match, std::regex(key + " (\\d+)")) ? uint32_t(std::stoul(match[1])) : 0;
}

Profiled profile(
    const std::string& name, const std::string& options, const std::string& scenario = "nvtx-osrt")
{
    const auto dir = scratchDir(name);
    const std::string report = (dir / "run.rep").string();
    Profiled p;
    p.run = runCommand(profileCommand() + " " + options + " -o " + shellQuote(report) + " "
        + shellQuote(COLLECTOR_TARGET) + " " + scenario + " " + shellQuote(dir.string()));
    INFO(p.run.err);
    Result<Trace> trace = readReport(report);
    REQUIRE(trace);
    p.trace = std::move(trace.value());
    p.mainTid = printedNumber(p.run.out, "main-tid");
    p.workerTid = printedNumber(p.run.out, "worker-tid");
    p.pid = p.mainTid; // the main thread's id is the process id
    return p;
}

std::map<std::string, NvtxRow> byName(const std::vector<NvtxRow>& rows)
{
    std::map<std::string, NvtxRow> named;
    for (const NvtxRow& row : rows)
        named[row.name] = row;
    return named;
}

} // namespace

TEST_CASE("profiling NVTX and OS runtime keeps the program's output and exit code")
{
    const auto dir = scratchDir("collector-e2e-direct");
    const CommandResult alone
        = runCommand(shellQuote(COLLECTOR_TARGET) + " nvtx-osrt " + shellQuote(dir.string()));
    const Profiled p = profile("collector-e2e-output", "--trace=nvtx,osrt");
    CHECK(p.run.exitCode == 7);
    CHECK(alone.exitCode == 7);
    const std::regex tids("(main|worker)-tid \\d+\n");
    CHECK(std::regex_replace(p.run.out, tids, "") == std::regex_replace(alone.out, tids, ""));
    CHECK(p.run.err.find("target warns") != std::string::npos);
    CHECK(p.run.err.find("Generated: ") != std::string::npos);
    CHECK(p.trace.findProcess(Pid(p.pid)));
}

TEST_CASE("every NVTX range is in the report with its depth, name, colour and thread")
{
    const Profiled p = profile("collector-e2e-nvtx", "--trace=nvtx,osrt");
    REQUIRE(p.mainTid != 0);
    REQUIRE(p.workerTid != 0);
    const auto main = byName(nvtxRows(p.trace, Pid(p.pid), Tid(p.mainTid), DomainId()));
    for (const char* name : {"outer", "middle", "inner", "checkpoint", "cross-thread"})
        REQUIRE(main.count(name));
    CHECK(main.at("outer").lane == 0);
    CHECK(main.at("middle").lane == 1);
    CHECK(main.at("inner").lane == 2);
    CHECK(main.at("outer").event.attributes.hasColor);
    CHECK(main.at("outer").event.attributes.color == 0xFF00FF00u);
    CHECK_FALSE(main.at("middle").event.attributes.hasColor);
    CHECK(main.at("inner").event.end - main.at("inner").event.start >= 2'000'000); // slept 2 ms inside
    CHECK(main.at("outer").event.start <= main.at("middle").event.start);
    CHECK(main.at("middle").event.end <= main.at("outer").event.end);
    CHECK(main.at("checkpoint").event.attributes.style == NvtxStyle::Mark);
    CHECK(main.at("checkpoint").event.start == main.at("checkpoint").event.end);
    const NvtxEvent& cross = main.at("cross-thread").event;
    CHECK(cross.attributes.style == NvtxStyle::StartEnd);
    CHECK(cross.attributes.endThread == Tid(p.workerTid));
    CHECK(cross.end - cross.start >= 20'000'000); // ended by the worker after the 30 ms hold

    const NvtxDomain* domain = findDomain(p.trace, "app-domain");
    REQUIRE(domain);
    const auto app = byName(nvtxRows(p.trace, Pid(p.pid), Tid(p.mainTid), domain->id));
    REQUIRE(app.count("registered-range"));
    const NvtxAttributes& a = app.at("registered-range").event.attributes;
    CHECK((a.hasColor && a.color == 0xFF0000FFu && a.category == 7));
    CHECK(a.payloadType == PayloadType::Int64);
    CHECK(int64_t(a.payload) == -42);
    REQUIRE(app.count("domain-mark"));
    CHECK(app.at("domain-mark").event.attributes.color == 0xFFFF0000u);

    const Thread* worker = p.trace.findThread(Tid(p.workerTid));
    REQUIRE(worker);
    CHECK(worker->name == "worker-1");
}

TEST_CASE("OS-runtime calls above the threshold are recorded, none below, uncontended locks never")
{
    const Profiled p = profile("collector-e2e-osrt", "--trace=nvtx,osrt");
    const auto mainCalls = osCalls(p.trace, Pid(p.pid), Tid(p.mainTid));
    const auto workerCalls = osCalls(p.trace, Pid(p.pid), Tid(p.workerTid));
    std::map<std::string, Duration> longest;
    std::map<std::string, int> count;
    for (const auto* calls : {&mainCalls, &workerCalls})
        for (const OsCall& c : *calls) {
            CHECK(c.end - c.start >= 1000);
            const std::string key
                = std::string(p.trace.strings[c.name]) + (calls == &mainCalls ? "@main" : "@worker");
            longest[key] = std::max(longest[key], c.end - c.start);
            ++count[key];
        }
    CHECK(longest["usleep@main"] >= 20'000'000);
    // sleeps of 2, 1 and 30 ms (sleep_for) and the explicit 3 ms nanosleep
    CHECK(count["nanosleep@main"] == 4);
    CHECK(longest["write@main"] > 0);
    CHECK(longest["read@main"] > 0);
    CHECK(longest["fsync@main"] > 0);
    CHECK(longest["pthread_mutex_lock@worker"] >= 20'000'000); // waited for main's 30 ms hold
    CHECK(longest.count("pthread_mutex_lock@main") == 0); // 1001 locks, none contended
}

TEST_CASE("a higher OS-runtime threshold drops the shorter calls")
{
    const Profiled p = profile("collector-e2e-threshold", "--trace=osrt --osrt-threshold=10000000");
    std::vector<std::string> names;
    for (const OsCall& c : osCalls(p.trace, Pid(p.pid), Tid(p.mainTid))) {
        CHECK(c.end - c.start >= 10'000'000);
        names.emplace_back(p.trace.strings[c.name]);
    }
    CHECK(std::count(names.begin(), names.end(), "usleep") == 1); // 20 ms
    CHECK(std::count(names.begin(), names.end(), "nanosleep") == 1); // the 30 ms hold, not 1, 2 or 3 ms
    CHECK(nvtxRows(p.trace, Pid(p.pid), Tid(p.mainTid), DomainId()).empty()); // NVTX not traced
}

TEST_CASE("an NVTX capture range keeps only what overlaps the named range")
{
    const Profiled p
        = profile("collector-e2e-nvtx-capture", "--trace=nvtx,osrt -c nvtx --nvtx-capture=middle");
    const auto main = byName(nvtxRows(p.trace, Pid(p.pid), Tid(p.mainTid), DomainId()));
    CHECK(main.count("outer") == 1);
    CHECK(main.count("middle") == 1);
    CHECK(main.count("inner") == 1);
    CHECK(main.count("checkpoint") == 0);
    CHECK(osCallNames(p.trace, Pid(p.pid), Tid(p.mainTid)).size() <= 1); // at most the sleep inside "inner"
}

TEST_CASE("a forked child is recorded as its own process in the same report")
{
    const Profiled p = profile("collector-e2e-fork", "--trace=nvtx", "fork");
    CHECK(p.run.exitCode == 7);
    const uint32_t child = printedNumber(p.run.out, "child-pid");
    REQUIRE(child != 0);
    CHECK(byName(nvtxRows(p.trace, Pid(p.pid), Tid(p.mainTid), DomainId())).count("parent-range") == 1);
    CHECK(byName(nvtxRows(p.trace, Pid(child), Tid(child), DomainId())).count("child-range") == 1);
    CHECK(p.trace.findProcess(Pid(child)));
}

TEST_CASE("short-lived threads each keep their ranges (thread buffers are reused after exit)")
{
    const Profiled p = profile("collector-e2e-threads", "--trace=nvtx", "threads");
    CHECK(p.run.exitCode == 7);
    std::set<std::string> names;
    std::set<uint32_t> threads;
    for (const Track& track : p.trace.tracks)
        if (track.key.kind == TrackKind::Nvtx && track.key.pid == Pid(p.pid))
            for (const NvtxRow& row : nvtxRows(p.trace, Pid(p.pid), track.key.tid, DomainId())) {
                names.insert(row.name);
                threads.insert(track.key.tid.value);
                CHECK(row.event.end - row.event.start >= 100'000);
            }
    CHECK(names.size() == 64);
    CHECK(threads.size() == 64);
}

TEST_CASE("a program the target spawns is recorded as another process of the report")
{
    const Profiled p = profile("collector-e2e-spawn", "--trace=nvtx,osrt", "spawn");
    CHECK(p.run.exitCode == 7);
    const uint32_t child = printedNumber(p.run.out, "child-pid");
    REQUIRE(child != 0);
    CHECK(byName(nvtxRows(p.trace, Pid(child), Tid(child), DomainId())).count("spawned-range") == 1);
    REQUIRE(p.trace.findProcess(Pid(child)));
    CHECK(p.trace.findProcess(Pid(child))->commandLine.back() == "child-work");
}

TEST_CASE("quiet runs print nothing of their own, --show-output=false hides the program's output")
{
    const Profiled p = profile("collector-e2e-quiet", "-q --show-output=false --trace=nvtx");
    CHECK(p.run.exitCode == 7);
    CHECK(p.run.out.empty());
    CHECK(p.run.err.empty());
}
