// The report catalog, the generic table's nsys columns, and the CLI's table/CSV/JSON writers.
#include "../support/text_lines.h"
#include "app/cli/stats_output.h"
#include "model/stats/stats_engine.h"
#include "model/stats/stats_table.h"
#include "stats_fixtures.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>

using namespace sightline;
using namespace sightline::test;

namespace {

std::vector<std::string> headersOf(const StatsTable& table)
{
    std::vector<std::string> headers;
    for (const StatsColumn& column : table.columns)
        headers.push_back(column.header);
    return headers;
}

Trace kernelTrace()
{
    TraceBuilder b;
    addKernel(b, StreamId(7), "k1", 0, 10);
    addKernel(b, StreamId(7), "k1", 100, 120);
    addKernel(b, StreamId(7), "k1", 200, 230);
    addKernel(b, StreamId(7), "k1", 300, 340);
    addKernel(b, StreamId(8), "void f<int, float>(\"x\")", 1000, 1'235'567);
    return b.build(1);
}

} // namespace

TEST_CASE("the catalog lists the reports in nsys order, then the CPU ones, and finds them by name")
{
    const std::vector<std::string_view> expected {"nvtx_sum", "osrt_sum", "cuda_api_sum", "cuda_gpu_kern_sum",
        "cuda_gpu_mem_time_sum", "cuda_gpu_mem_size_sum", "cpu_samples_sum", "cpu_thread_sum"};
    CHECK(statsReportNames() == expected);

    const Result<StatsReportId> kern = findStatsReport("cuda_gpu_kern_sum");
    REQUIRE(kern);
    CHECK(kern.value() == StatsReportId::CudaGpuKernSum);
    const Result<StatsReportId> alias = findStatsReport("gpumemsizesum");
    REQUIRE(alias);
    CHECK(alias.value() == StatsReportId::CudaGpuMemSizeSum);

    const Result<StatsReportId> unknown = findStatsReport("cuda_gpu_kern_summ");
    REQUIRE_FALSE(unknown);
    CHECK_THAT(unknown.error(), Catch::Contains("'cuda_gpu_kern_summ'"));
    for (std::string_view name : expected)
        CHECK_THAT(unknown.error(), Catch::Contains(std::string(name)));
}

TEST_CASE("tables carry Nsight Systems' column headers and cell kinds")
{
    const Trace empty = TraceBuilder().build(1);
    auto headers = [&](StatsReportId id) { return headersOf(toTable(computeReport(empty, id))); };
    using V = std::vector<std::string>;
    CHECK(headers(StatsReportId::CudaApiSum)
        == V {"Time (%)", "Total Time (ns)", "Num Calls", "Avg (ns)", "Med (ns)", "Min (ns)", "Max (ns)",
            "StdDev (ns)", "Name"});
    CHECK(headers(StatsReportId::CudaGpuKernSum)
        == V {"Time (%)", "Total Time (ns)", "Instances", "Avg (ns)", "Med (ns)", "Min (ns)", "Max (ns)",
            "StdDev (ns)", "Name"});
    CHECK(headers(StatsReportId::CudaGpuMemTimeSum)
        == V {"Time (%)", "Total Time (ns)", "Count", "Avg (ns)", "Med (ns)", "Min (ns)", "Max (ns)",
            "StdDev (ns)", "Operation"});
    CHECK(headers(StatsReportId::CudaGpuMemSizeSum)
        == V {"Total (MB)", "Count", "Avg (MB)", "Med (MB)", "Min (MB)", "Max (MB)", "StdDev (MB)",
            "Operation"});
    CHECK(headers(StatsReportId::NvtxSum)
        == V {"Time (%)", "Total Time (ns)", "Instances", "Avg (ns)", "Med (ns)", "Min (ns)", "Max (ns)",
            "StdDev (ns)", "Style", "Range"});
    CHECK(headers(StatsReportId::OsrtSum)
        == V {"Time (%)", "Total Time (ns)", "Num Calls", "Avg (ns)", "Med (ns)", "Min (ns)", "Max (ns)",
            "StdDev (ns)", "Name"});
    CHECK(headers(StatsReportId::CpuSamplesSum)
        == V {"Self (%)", "Self Samples", "Total (%)", "Total Samples", "Function", "Module"});
    CHECK(headers(StatsReportId::CpuThreadSum)
        == V {"Time (%)", "Total Time (ns)", "Intervals", "Avg (ns)", "Med (ns)", "Min (ns)", "Max (ns)",
            "StdDev (ns)", "Thread"});

    const StatsTable table = toTable(computeReport(kernelTrace(), StatsReportId::CudaGpuKernSum));
    REQUIRE(table.rows.size() == 2);
    for (const std::vector<StatsCell>& row : table.rows) {
        REQUIRE(row.size() == table.columns.size());
        for (size_t c = 0; c < row.size(); ++c) {
            const CellKind kind = table.columns[c].kind;
            CHECK(row[c].index() == (kind == CellKind::Integer ? 0u : kind == CellKind::Real ? 1u : 2u));
        }
    }
    CHECK(std::get<int64_t>(table.rows[1][1]) == 100);
    CHECK(std::get<std::string>(table.rows[1][8]) == "k1");
}

TEST_CASE("numbers get thousands separators and fixed decimals")
{
    using cli::withThousands;
    CHECK(withThousands(int64_t(0)) == "0");
    CHECK(withThousands(int64_t(999)) == "999");
    CHECK(withThousands(int64_t(1000)) == "1,000");
    CHECK(withThousands(int64_t(1234567)) == "1,234,567");
    CHECK(withThousands(int64_t(-1234)) == "-1,234");
    CHECK(withThousands(1234567.26, 1) == "1,234,567.3");
    CHECK(withThousands(-999.94, 1) == "-999.9");
    CHECK(withThousands(0.5, 3) == "0.500");
    CHECK(withThousands(25.0, 1) == "25.0");
    CHECK(withThousands(999.96, 1) == "1,000.0");
}

TEST_CASE("text table: title, underlined headers, right-aligned numbers, note when empty")
{
    const StatsTable table = toTable(computeReport(kernelTrace(), StatsReportId::CudaGpuKernSum));
    std::ostringstream out;
    cli::writeTextTable(out, table, "unused");
    const std::vector<std::string> lines = linesOf(out.str());
    REQUIRE(lines.size() >= 6);
    CHECK(lines[0] == " ** CUDA GPU Kernel Summary (cuda_gpu_kern_sum):");
    CHECK(lines[1].empty());
    const std::string& header = lines[2];
    const std::string& rule = lines[3];
    CHECK(header.rfind(" Time (%)  Total Time (ns)", 0) == 0);
    CHECK(rule.find_first_not_of(" -") == std::string::npos);
    CHECK(rule.find("---------------") != std::string::npos);

    // Every number of a column ends where its header ends.
    const size_t totalEnd = header.find("Total Time (ns)") + std::string("Total Time (ns)").size();
    const std::string& longRow = lines[4];
    const std::string& k1Row = lines[5];
    CHECK(longRow.substr(0, totalEnd).ends_with("1,234,567"));
    CHECK(k1Row.substr(0, totalEnd).ends_with(" 100"));
    CHECK(k1Row.find("25.0") != std::string::npos);
    CHECK(k1Row.find("12.9") != std::string::npos); // sqrt(500 / 3)
    CHECK(k1Row.ends_with("k1"));
    CHECK(longRow.find("void f<int, float>(\"x\")") != std::string::npos);

    std::ostringstream emptyOut;
    const Trace empty = TraceBuilder().build(1);
    cli::writeTextTable(emptyOut, toTable(computeReport(empty, StatsReportId::OsrtSum)),
        "SKIPPED: x.rep has no OS runtime data.");
    CHECK(emptyOut.str()
        == " ** OS Runtime Summary (osrt_sum):\n\n SKIPPED: x.rep has no OS runtime data.\n\n");
}

TEST_CASE("CSV has a header row, plain numbers and quoted names")
{
    const StatsTable table = toTable(computeReport(kernelTrace(), StatsReportId::CudaGpuKernSum));
    std::ostringstream out;
    cli::writeCsv(out, table);
    const std::vector<std::string> lines = linesOf(out.str());
    REQUIRE(lines.size() == 3);
    CHECK(lines[0]
        == "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name");
    CHECK(lines[1].ends_with(",1234567,1234567,0,\"void f<int, float>(\"\"x\"\")\""));
    CHECK(lines[2].find(",100,4,25,25,10,40,") != std::string::npos);
    CHECK(lines[2].ends_with(",k1"));
}

TEST_CASE("JSON is an object of reports, each an array of rows keyed by header")
{
    const Trace trace = kernelTrace();
    std::vector<StatsTable> tables {toTable(computeReport(trace, StatsReportId::CudaGpuKernSum)),
        toTable(computeReport(trace, StatsReportId::OsrtSum))};
    std::ostringstream out;
    cli::writeJson(out, tables);
    const std::string json = out.str();
    CHECK(json.front() == '{');
    CHECK(json.find("\"cuda_gpu_kern_sum\": [") != std::string::npos);
    CHECK(json.find("\"osrt_sum\": []") != std::string::npos);
    CHECK(json.find("\"Total Time (ns)\": 100, \"Instances\": 4, \"Avg (ns)\": 25") != std::string::npos);
    CHECK(json.find("\"Name\": \"void f<int, float>(\\\"x\\\")\"") != std::string::npos);
    CHECK(json.find("\"Name\": \"k1\"}") != std::string::npos);
    CHECK(std::count(json.begin(), json.end(), '{') == std::count(json.begin(), json.end(), '}'));
    CHECK(std::count(json.begin(), json.end(), '[') == std::count(json.begin(), json.end(), ']'));
}

TEST_CASE("formats parse by name")
{
    CHECK(cli::parseStatsFormat("table") == cli::StatsFormat::Table);
    CHECK(cli::parseStatsFormat("csv") == cli::StatsFormat::Csv);
    CHECK(cli::parseStatsFormat("json") == cli::StatsFormat::Json);
    CHECK_FALSE(cli::parseStatsFormat("xml").has_value());
}
