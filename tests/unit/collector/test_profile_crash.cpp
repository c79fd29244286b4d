// A target that dies (SIGSEGV) or is killed (SIGKILL) mid-run still leaves a report that opens,
// holding what was flushed before the end; the launcher reports the death as a shell would.
#include "../../test_paths.h"
#include "../support/run_command.h"
#include "collector_test_support.h"
#include "model/format/report_io.h"

#include <catch2/catch.hpp>
#include <csignal>
#include <regex>

using namespace sightline;
using namespace sightline::test;

namespace {

void checkCrashReport(const std::string& scenario, int signal)
{
    const auto dir = scratchDir("collector-crash-" + scenario);
    const std::string report = (dir / "crash.rep").string();
    const CommandResult run = runCommand(profileCommand() + " --trace=nvtx,osrt -o " + shellQuote(report)
        + " " + shellQuote(COLLECTOR_TARGET) + " " + scenario);
    INFO(run.err);
    CHECK(run.exitCode == 128 + signal);
    CHECK(run.err.find("Generated: ") != std::string::npos);
    Result<Trace> trace = readReport(report);
    REQUIRE(trace);
    std::smatch match;
    REQUIRE(std::regex_search(run.out, match, std::regex("main-tid (\\d+)")));
    const auto tid = uint32_t(std::stoul(match[1]));
    bool before = false, open = false;
    for (const NvtxRow& row : nvtxRows(trace.value(), Pid(tid), Tid(tid), DomainId())) {
        before = before || row.name == "before-crash";
        open = open || row.name == "open-at-crash";
    }
    CHECK(before);
    CHECK(open); // still open when the process died: closed at its last event
    bool usleep = false;
    for (const std::string& name : osCallNames(trace.value(), Pid(tid), Tid(tid)))
        usleep = usleep || name == "usleep";
    CHECK(usleep);
}

} // namespace

TEST_CASE("a target that dies of SIGSEGV leaves a report that opens")
{
    checkCrashReport("segv", SIGSEGV);
}

TEST_CASE("a target killed with SIGKILL leaves a report that opens")
{
    checkCrashReport("sigkill", SIGKILL);
}

TEST_CASE("SIGINT or SIGTERM sent to sightline profile reaches the target and the report is still written")
{
    for (const char* signal : {"INT", "TERM"}) {
        const auto dir = scratchDir(std::string("collector-forward-") + signal);
        const std::string report = (dir / "stopped.rep").string();
        // The launcher runs in the background of a shell that signals it, then waits for it.
        const std::string script = profileCommand() + " --trace=nvtx,osrt -o " + shellQuote(report) + " "
            + shellQuote(COLLECTOR_TARGET) + " sleep & launcher=$!; sleep 1; kill -" + signal
            + " $launcher; wait $launcher";
        const CommandResult run = runCommand("sh -c " + shellQuote(script));
        INFO(run.err);
        CHECK(run.exitCode == 128 + (std::string(signal) == "INT" ? SIGINT : SIGTERM));
        CHECK(run.err.find("Generated: ") != std::string::npos);
        Result<Trace> trace = readReport(report);
        REQUIRE(trace);
        std::smatch match;
        REQUIRE(std::regex_search(run.out, match, std::regex("main-tid (\\d+)")));
        const auto tid = uint32_t(std::stoul(match[1]));
        const auto rows = nvtxRows(trace.value(), Pid(tid), Tid(tid), DomainId());
        REQUIRE(rows.size() == 1);
        CHECK(rows[0].name == "waiting");
    }
}
