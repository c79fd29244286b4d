// Each stats report on small traces whose expected figures were worked out by hand.
#include "model/stats/stats_engine.h"
#include "model/stats/stats_table.h"
#include "stats_fixtures.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace sightline;
using namespace sightline::test;

namespace {

const StatsRow& rowNamed(
    const StatsReport& report, std::string_view name, NvtxStyle style = NvtxStyle::PushPop)
{
    const StatsRow* row = report.find(name, style);
    INFO("row " << name);
    REQUIRE(row != nullptr);
    return *row;
}

} // namespace

TEST_CASE("kernel summary matches hand-computed figures")
{
    TraceBuilder b;
    // k1: durations 10, 20, 30, 40 -> total 100, avg 25, median (20 + 30) / 2 = 25,
    // sample variance (15^2 + 5^2 + 5^2 + 15^2) / 3 = 500 / 3.
    addKernel(b, StreamId(7), "k1", 0, 10);
    addKernel(b, StreamId(7), "k1", 100, 120);
    addKernel(b, StreamId(8), "k1", 200, 230);
    addKernel(b, StreamId(7), "k1", 300, 340);
    // k2: one instance of 200.
    addKernel(b, StreamId(8), "k2", 400, 600);
    const Trace trace = b.build(1);

    const StatsReport report = computeReport(trace, StatsReportId::CudaGpuKernSum);
    REQUIRE(report.rows.size() == 2);
    CHECK(report.rows[0].name == "k2");
    CHECK(report.rows[1].name == "k1");
    CHECK(report.total() == 300);

    const ValueSummary& k1 = report.rows[1].values;
    CHECK(k1.count == 4);
    CHECK(k1.total == 100);
    CHECK(k1.average == Approx(25.0));
    CHECK(k1.median == Approx(25.0));
    CHECK(k1.minimum == 10);
    CHECK(k1.maximum == 40);
    CHECK(k1.stdDev == Approx(std::sqrt(500.0 / 3.0)));
    CHECK(report.rows[1].percent == Approx(100.0 / 3.0));

    const ValueSummary& k2 = report.rows[0].values;
    CHECK(k2.count == 1);
    CHECK(k2.median == Approx(200.0));
    CHECK(k2.stdDev == 0.0);
    CHECK(report.rows[0].percent == Approx(200.0 / 3.0));
}

TEST_CASE("CUDA API summary merges threads, counts nested calls and breaks ties by name")
{
    TraceBuilder b;
    // cudaMemcpy: 5 and 1 on thread 1, 9 on thread 2 -> median 5, mean 5, variance (0 + 16 + 16) / 2 = 16.
    addApiCall(b, Tid(1), "cudaMemcpy", 0, 5);
    addApiCall(b, Tid(1), "cudaMemcpy", 10, 11);
    addApiCall(b, Tid(2), "cudaMemcpy", 0, 9);
    // cudaLaunchKernel: 7 and 8 -> total 15 like cudaMemcpy; the name decides the order.
    addApiCall(b, Tid(1), "cudaLaunchKernel", 20, 27);
    addApiCall(b, Tid(2), "cudaLaunchKernel", 20, 28);
    // A driver call nested inside the second launch counts on its own.
    addApiCall(b, Tid(2), "cuLaunchKernel", 21, 25);
    const Trace trace = b.build(1);

    const StatsReport report = computeReport(trace, StatsReportId::CudaApiSum);
    REQUIRE(report.rows.size() == 3);
    CHECK(report.rows[0].name == "cudaLaunchKernel");
    CHECK(report.rows[1].name == "cudaMemcpy");
    CHECK(report.rows[2].name == "cuLaunchKernel");

    const ValueSummary& memcpy = rowNamed(report, "cudaMemcpy").values;
    CHECK(memcpy.count == 3);
    CHECK(memcpy.total == 15);
    CHECK(memcpy.median == Approx(5.0));
    CHECK(memcpy.stdDev == Approx(4.0));
    CHECK(memcpy.minimum == 1);
    CHECK(memcpy.maximum == 9);

    const ValueSummary& launch = rowNamed(report, "cudaLaunchKernel").values;
    CHECK(launch.median == Approx(7.5));
    CHECK(launch.stdDev == Approx(std::sqrt(0.5)));
    CHECK(rowNamed(report, "cuLaunchKernel").values.total == 4);
    CHECK(rowNamed(report, "cuLaunchKernel").percent == Approx(100.0 * 4 / 34));
}

TEST_CASE("memory reports group by operation, by time and by size in MB")
{
    TraceBuilder b;
    // Host-to-Device: a pageable and a pinned copy share one row.
    addMemoryOp(
        b, StreamId(7), copyOp(CopyKind::HtoD, MemoryKind::Pageable, MemoryKind::Device), 1'000'000, 0, 100);
    addMemoryOp(
        b, StreamId(8), copyOp(CopyKind::HtoD, MemoryKind::Pinned, MemoryKind::Device), 3'000'000, 50, 350);
    addMemoryOp(
        b, StreamId(7), copyOp(CopyKind::DtoH, MemoryKind::Device, MemoryKind::Pageable), 500'000, 400, 450);
    addMemoryOp(b, StreamId(7), memsetOp(0), 2'000'000, 500, 520);
    const Trace trace = b.build(1);

    const StatsReport byTime = computeReport(trace, StatsReportId::CudaGpuMemTimeSum);
    REQUIRE(byTime.rows.size() == 3);
    CHECK(byTime.rows[0].name == "[CUDA memcpy Host-to-Device]");
    CHECK(byTime.rows[1].name == "[CUDA memcpy Device-to-Host]");
    CHECK(byTime.rows[2].name == "[CUDA memset]");
    const ValueSummary& htodTime = byTime.rows[0].values;
    CHECK(htodTime.count == 2);
    CHECK(htodTime.total == 400);
    CHECK(htodTime.median == Approx(200.0));
    CHECK(htodTime.stdDev == Approx(std::sqrt(2.0) * 100.0));
    CHECK(byTime.rows[0].percent == Approx(100.0 * 400 / 470));

    const StatsReport bySize = computeReport(trace, StatsReportId::CudaGpuMemSizeSum);
    REQUIRE(bySize.rows.size() == 3);
    CHECK(bySize.rows[0].name == "[CUDA memcpy Host-to-Device]");
    CHECK(bySize.rows[1].name == "[CUDA memset]");
    CHECK(bySize.rows[2].name == "[CUDA memcpy Device-to-Host]");
    const ValueSummary& htodSize = bySize.rows[0].values;
    CHECK(htodSize.total == 4'000'000);
    CHECK(htodSize.minimum == 1'000'000);
    CHECK(htodSize.maximum == 3'000'000);
    CHECK(htodSize.stdDev == Approx(std::sqrt(2.0) * 1e6));

    // The table shows sizes in MB of 1e6 bytes.
    const StatsTable table = toTable(bySize);
    const std::vector<StatsCell>& htod = table.rows[0];
    CHECK(std::get<double>(htod[size_t(table.columnIndex("Total (MB)"))]) == Approx(4.0));
    CHECK(std::get<int64_t>(htod[size_t(table.columnIndex("Count"))]) == 2);
    CHECK(std::get<double>(htod[size_t(table.columnIndex("Avg (MB)"))]) == Approx(2.0));
    CHECK(std::get<double>(htod[size_t(table.columnIndex("Med (MB)"))]) == Approx(2.0));
    CHECK(std::get<double>(htod[size_t(table.columnIndex("Min (MB)"))]) == Approx(1.0));
    CHECK(std::get<double>(htod[size_t(table.columnIndex("Max (MB)"))]) == Approx(3.0));
    CHECK(std::get<double>(htod[size_t(table.columnIndex("StdDev (MB)"))]) == Approx(std::sqrt(2.0)));
    CHECK(std::get<double>(table.rows[2][0]) == Approx(0.5));
}

TEST_CASE("NVTX summary separates styles and domains and leaves marks out")
{
    TraceBuilder b;
    const DomainId io = b.addDomain("io");
    addNvtx(b, Tid(1), DomainId {}, NvtxStyle::PushPop, "outer", 0, 1000);
    addNvtx(b, Tid(1), DomainId {}, NvtxStyle::PushPop, "step", 100, 200);
    addNvtx(b, Tid(1), DomainId {}, NvtxStyle::PushPop, "step", 300, 600);
    addNvtx(b, Tid(2), DomainId {}, NvtxStyle::StartEnd, "step", 50, 250);
    addNvtx(b, Tid(2), DomainId {}, NvtxStyle::StartEnd, "step", 60, 70); // overlaps the one above
    addNvtx(b, Tid(1), io, NvtxStyle::PushPop, "read", 10, 80);
    addNvtx(b, Tid(1), DomainId {}, NvtxStyle::Mark, "tick", 150, 150);
    const Trace trace = b.build(1);

    const StatsReport report = computeReport(trace, StatsReportId::NvtxSum);
    REQUIRE(report.rows.size() == 4);
    CHECK(report.rows[0].name == "outer");
    CHECK(report.rows[1].name == "step");
    CHECK(report.rows[1].style == NvtxStyle::PushPop);
    CHECK(report.rows[1].values.total == 400);
    CHECK(report.rows[1].values.count == 2);
    CHECK(report.rows[2].name == "step");
    CHECK(report.rows[2].style == NvtxStyle::StartEnd);
    CHECK(report.rows[2].values.total == 210);
    CHECK(report.rows[2].values.median == Approx(105.0));
    CHECK(report.rows[3].name == "io:read");
    CHECK(report.rows[3].values.total == 70);
    CHECK(report.find("tick") == nullptr);
    CHECK(report.total() == 1680);

    const StatsTable table = toTable(report);
    const int style = table.columnIndex("Style");
    REQUIRE(style >= 0);
    CHECK(std::get<std::string>(table.rows[2][size_t(style)]) == "StartEnd");
    CHECK(std::get<std::string>(table.rows[2][size_t(table.columnIndex("Range"))]) == "step");
}

TEST_CASE("OS runtime summary")
{
    TraceBuilder b;
    addOsCall(b, Tid(1), "pthread_mutex_lock", 0, 3);
    addOsCall(b, Tid(1), "pthread_mutex_lock", 10, 13);
    addOsCall(b, Tid(2), "pthread_mutex_lock", 0, 9);
    addOsCall(b, Tid(2), "poll", 20, 1020);
    const Trace trace = b.build(1);

    const StatsReport report = computeReport(trace, StatsReportId::OsrtSum);
    REQUIRE(report.rows.size() == 2);
    CHECK(report.rows[0].name == "poll");
    const ValueSummary& lock = report.rows[1].values;
    CHECK(lock.count == 3);
    CHECK(lock.total == 15);
    CHECK(lock.median == Approx(3.0));
    CHECK(lock.stdDev == Approx(std::sqrt(12.0))); // mean 5: (4 + 4 + 16) / 2
}

TEST_CASE("a range counts the events that start inside it")
{
    TraceBuilder b;
    addKernel(b, StreamId(7), "k", 0, 150); // starts before: left out though it ends inside
    addKernel(b, StreamId(8), "k", 100, 110); // starts at t0: in
    addKernel(b, StreamId(8), "k", 150, 650); // starts inside, ends past t1: in, whole
    addKernel(b, StreamId(7), "k", 200, 205); // starts at t1: out
    addNvtx(b, Tid(1), DomainId {}, NvtxStyle::PushPop, "outer", 90, 400);
    addNvtx(b, Tid(1), DomainId {}, NvtxStyle::PushPop, "inner", 120, 130); // depth 1, in
    addNvtx(b, Tid(1), DomainId {}, NvtxStyle::PushPop, "inner", 300, 310); // depth 1, out
    const Trace trace = b.build(1);

    const TimeRange range {100, 200};
    const StatsReport kernels = computeReport(trace, StatsReportId::CudaGpuKernSum, range);
    REQUIRE(kernels.rows.size() == 1);
    CHECK(kernels.rows[0].values.count == 2);
    CHECK(kernels.rows[0].values.total == 510);
    CHECK(kernels.rows[0].values.minimum == 10);
    CHECK(kernels.rows[0].values.maximum == 500);

    const StatsReport nvtx = computeReport(trace, StatsReportId::NvtxSum, range);
    REQUIRE(nvtx.rows.size() == 1);
    CHECK(nvtx.rows[0].name == "inner");
    CHECK(nvtx.rows[0].values.count == 1);

    CHECK(
        computeReport(trace, StatsReportId::CudaGpuKernSum, TimeRange {0, 1}).rows.at(0).values.total == 150);
    CHECK(computeReport(trace, StatsReportId::CudaGpuKernSum, TimeRange {1000, 2000}).rows.empty());
    CHECK(computeReport(trace, StatsReportId::CudaGpuKernSum, TimeRange {200, 100}).rows.empty());
}

TEST_CASE("an empty trace gives empty reports with their columns")
{
    TraceBuilder b;
    const Trace trace = b.build(1);
    const std::vector<StatsReport> reports = computeAllReports(trace);
    REQUIRE(reports.size() == statsReportCatalog().size());
    for (const StatsReport& report : reports) {
        INFO(statsReportInfo(report.id).name);
        CHECK(report.rows.empty());
        CHECK(report.total() == 0);
        const StatsTable table = toTable(report);
        CHECK(table.rows.empty());
        CHECK(table.columns.size() >= (report.id == StatsReportId::CpuSamplesSum ? 6u : 8u));
    }
}
