// The CPU reports of the stats engine: cpu_samples_sum (functions by self samples, from the
// call trees) and cpu_thread_sum (each thread's Running time), their tables, their ranges and
// the CLI's text and CSV writers over them.
#include "../support/text_lines.h"
#include "app/cli/stats_output.h"
#include "model/stats/stats_engine.h"
#include "model/stats/stats_table.h"
#include "unit/support/cpu_sample_trace.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace sightline;
using namespace sightline::test;

namespace {

// The main thread runs [0, 60) and [70, 95), sleeping between; the worker runs [0, 10).
Trace cpuTraceWithStates()
{
    TraceBuilder b;
    addCpuSamples(b);
    b.addThreadState({0, 60, kCpuMainThread, ThreadState::Running, kNoCallStack});
    b.addThreadState({60, 70, kCpuMainThread, ThreadState::Sleeping, kNoCallStack});
    b.addThreadState({70, 95, kCpuMainThread, ThreadState::Running, kNoCallStack});
    b.addThreadState({0, 10, kCpuWorkerThread, ThreadState::Running, kNoCallStack});
    b.addThreadState({10, 90, kCpuWorkerThread, ThreadState::Blocked, kNoCallStack});
    return b.build(1);
}

} // namespace

TEST_CASE("cpu_samples_sum lists functions by self samples with their total samples")
{
    const Trace trace = cpuSampleTrace();
    const StatsReport report = computeReport(trace, StatsReportId::CpuSamplesSum);
    REQUIRE(report.rows.size() == 5);
    CHECK(report.total() == 10);
    const StatsRow& hotA = report.rows[0];
    CHECK(hotA.name == "hot_a");
    CHECK(hotA.module == "libhot.so");
    CHECK(hotA.values.total == 7);
    CHECK(hotA.inclusive == 8);
    CHECK(hotA.percent == Approx(70.0));
    CHECK(report.rows[1].name == "hot_b");
    CHECK(report.rows[1].module == "libm.so.6");
    CHECK(report.rows[1].percent == Approx(30.0));
    CHECK(report.find("rec")->inclusive == 4);
    CHECK(report.find("rec")->values.total == 0);
    CHECK(report.find("main")->inclusive == 10);

    const StatsTable table = toTable(report);
    CHECK(table.name == "cpu_samples_sum");
    REQUIRE(table.rows.size() == 5);
    const std::vector<StatsCell> first {70.0, int64_t(7), 80.0, int64_t(8), "hot_a", "libhot.so"};
    CHECK(table.rows[0] == first);
    const std::vector<StatsCell> main {0.0, int64_t(0), 100.0, int64_t(10), "main", "app"};
    CHECK(table.rows[2] == main);
}

TEST_CASE("cpu_samples_sum counts the samples taken in the range")
{
    const Trace trace = cpuSampleTrace(2);
    const StatsReport early = computeReport(trace, StatsReportId::CpuSamplesSum, TimeRange {0, 45});
    CHECK(early.total() == 6);
    REQUIRE(early.find("hot_a"));
    CHECK(early.find("hot_a")->values.total == 5);
    CHECK(early.find("hot_a")->inclusive == 6);
    CHECK(early.find("hot_a")->percent == Approx(500.0 / 6));
    const StatsReport second = computeReport(trace, StatsReportId::CpuSamplesSum, TimeRange {100, 200});
    CHECK(second.total() == 10);
    CHECK(second.rows[0].percent == Approx(70.0));
    CHECK(computeReport(trace, StatsReportId::CpuSamplesSum, TimeRange {500, 600}).rows.empty());
}

TEST_CASE("cpu_thread_sum sums each thread's Running time, cut to the range")
{
    const Trace trace = cpuTraceWithStates();
    const StatsReport whole = computeReport(trace, StatsReportId::CpuThreadSum);
    REQUIRE(whole.rows.size() == 2);
    CHECK(whole.rows[0].name == "main [11]");
    CHECK(whole.rows[0].values.count == 2);
    CHECK(whole.rows[0].values.total == 85);
    CHECK(whole.rows[0].values.minimum == 25);
    CHECK(whole.rows[1].name == "worker [12]");
    CHECK(whole.rows[1].values.total == 10);
    CHECK(whole.rows[0].percent == Approx(85.0 / 95 * 100));

    // [50, 80): 10 ns of the first Running state and 10 of the second; the worker is blocked.
    const StatsReport ranged = computeReport(trace, StatsReportId::CpuThreadSum, TimeRange {50, 80});
    REQUIRE(ranged.rows.size() == 1);
    CHECK(ranged.rows[0].name == "main [11]");
    CHECK(ranged.rows[0].values.count == 2);
    CHECK(ranged.rows[0].values.total == 20);
    CHECK(ranged.rows[0].percent == Approx(100.0));
    CHECK(computeReport(cpuSampleTrace(), StatsReportId::CpuThreadSum).rows.empty());
}

TEST_CASE("the CLI writers print cpu_samples_sum as text and CSV")
{
    const Trace trace = cpuSampleTrace();
    const StatsTable table = toTable(computeReport(trace, StatsReportId::CpuSamplesSum));
    std::ostringstream text;
    cli::writeTextTable(text, table, "SKIPPED");
    const std::vector<std::string> lines = linesOf(text.str());
    REQUIRE(lines.size() >= 6);
    CHECK(lines[0] == " ** CPU Sampling Summary (by Function) (cpu_samples_sum):");
    const std::string header = lines[2];
    CHECK(header.find("Self (%)") < header.find("Self Samples"));
    CHECK(header.find("Total Samples") < header.find("Function"));
    CHECK(header.find("Function") < header.find("Module"));
    const std::string hotA = lines[4];
    CHECK(hotA.find("70.0") != std::string::npos);
    CHECK(hotA.find("80.0") != std::string::npos);
    CHECK(hotA.find("hot_a") < hotA.find("libhot.so"));

    std::ostringstream csv;
    cli::writeCsv(csv, table);
    const std::vector<std::string> rows = linesOf(csv.str());
    REQUIRE(rows.size() == 6);
    CHECK(rows[0] == "Self (%),Self Samples,Total (%),Total Samples,Function,Module");
    CHECK(rows[1] == "70,7,80,8,hot_a,libhot.so");
    CHECK(rows[2] == "30,3,30,3,hot_b,libm.so.6");
}
