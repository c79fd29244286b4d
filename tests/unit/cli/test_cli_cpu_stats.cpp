// `sightline stats` over a report with CPU samples: cpu_samples_sum and cpu_thread_sum as the
// built binary prints them, for the whole report and with --range.
#include "../../test_paths.h"
#include "../support/cpu_sample_trace.h"
#include "../support/run_command.h"
#include "../support/text_lines.h"
#include "model/format/report_io.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace sightline;
using namespace sightline::test;

namespace {

// The 70/30 profile of cpu_sample_trace.h with the main thread running [0, 60) and [70, 95).
std::string writeCpuReport(const std::string& testName)
{
    TraceBuilder b;
    addCpuSamples(b);
    b.addThreadState({0, 60, kCpuMainThread, ThreadState::Running, kNoCallStack});
    b.addThreadState({60, 70, kCpuMainThread, ThreadState::Sleeping, kNoCallStack});
    b.addThreadState({70, 95, kCpuMainThread, ThreadState::Running, kNoCallStack});
    const std::string path = (scratchDir(testName) / "cpu.rep").string();
    const Status written = writeReport(b.build(1), path);
    INFO(written.error());
    REQUIRE(written);
    return path;
}

CommandResult stats(const std::string& arguments, const std::string& report)
{
    return runCommand(
        shellQuote((binDir() / "sightline").string()) + " stats " + arguments + " " + shellQuote(report));
}

} // namespace

TEST_CASE("sightline stats --report cpu_samples_sum lists functions by self samples")
{
    const std::string report = writeCpuReport("cli_cpu_samples_sum");
    CommandResult r = stats("--report cpu_samples_sum --format csv", report);
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    CHECK(linesOf(r.out)
        == std::vector<std::string> {"Self (%),Self Samples,Total (%),Total Samples,Function,Module",
            "70,7,80,8,hot_a,libhot.so", "30,3,30,3,hot_b,libm.so.6", "0,0,100,10,main,app",
            "0,0,90,9,run,app", "0,0,40,4,rec,app"});

    // [0, 45): five samples of the main thread and the worker's one.
    r = stats("--report cpu_samples_sum --format csv --range 0:45", report);
    REQUIRE(r.exitCode == 0);
    const std::vector<std::string> ranged = linesOf(r.out);
    REQUIRE(ranged.size() == 6);
    CHECK(ranged[1].ends_with(",5,100,6,hot_a,libhot.so"));

    r = stats("--report cpu_samples_sum,cpu_thread_sum", report);
    REQUIRE(r.exitCode == 0);
    CHECK_THAT(r.out, Catch::Contains(" ** CPU Sampling Summary (by Function) (cpu_samples_sum):"));
    CHECK_THAT(r.out, Catch::Contains(" ** CPU Time Summary (by Thread) (cpu_thread_sum):"));
    CHECK_THAT(r.out, Catch::Contains("main [11]"));
    const std::vector<std::string> lines = linesOf(r.out);
    const auto hotA = std::find_if(
        lines.begin(), lines.end(), [](const std::string& l) { return l.ends_with("libhot.so"); });
    REQUIRE(hotA != lines.end());
    CHECK(hotA->find("70.0") != std::string::npos);
    CHECK(hotA->find("hot_a") != std::string::npos);

    r = stats("--report cpu_samples_sum --range 500:600", report);
    REQUIRE(r.exitCode == 0);
    CHECK_THAT(r.out, Catch::Contains("has no CPU sample data in the range."));
}
