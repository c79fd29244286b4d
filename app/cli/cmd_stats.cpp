// `sightline stats`: the nsys-style summary reports of a trace file, as a text table, CSV or
// JSON, for the whole trace or a time range.
#include "app/cli/cli_args.h"
#include "app/cli/commands.h"
#include "app/cli/stats_output.h"
#include "model/stats/counter_stats.h"
#include "model/stats/nvtx_projection_sum.h"
#include "model/stats/stats_engine.h"
#include "model/stats/stats_table.h"
#include "model/text/time_text.h"

#include <algorithm>
#include <iostream>
#include <optional>

namespace sightline::cli {
namespace {

void printStatsUsage(std::ostream& out)
{
    out << "Usage: sightline stats [--report NAME[,NAME...]] [--format table|csv|json] [--range START:END] "
           "FILE\n"
           "\n"
           "Prints Nsight Systems-style summary reports of a trace file.\n"
           "\n"
           "Options:\n"
           "  -r, --report NAMES   comma-separated reports (default: all, in this order):\n"
           "                       ";
    const std::vector<std::string_view> names = statsReportNames();
    for (size_t i = 0; i < names.size(); ++i)
        out << (i > 0 ? ", " : "") << names[i];
    out << "\n"
           "                       and, for reports with GPU metrics: ";
    const std::vector<std::string_view> counters = counterReportNames();
    for (size_t i = 0; i < counters.size(); ++i)
        out << (i > 0 ? ", " : "") << counters[i];
    out << "\n"
           "                       and, only when named: "
        << kNvtxGpuProjectionSum << '\n';
    out << "  -f, --format FORMAT  table (default), csv or json\n"
           "      --range S:E      only events that START in [S, E); times in ns, or with a unit\n"
           "                       (ns, us, ms, s), e.g. --range 1.5s:2s\n"
           "  -h, --help           show this help\n";
}

// One report asked for: an nsys-style report, or by name one built directly as a table (the
// counter reports of counter_stats.h and nvtx_gpu_proj_sum).
struct ReportRequest
{
    std::optional<StatsReportId> id;
    std::string tableName;
};

std::vector<std::string_view> tableReportNames()
{
    std::vector<std::string_view> names = counterReportNames();
    names.push_back(kNvtxGpuProjectionSum);
    return names;
}

bool isTableReport(std::string_view name)
{
    const std::vector<std::string_view> names = tableReportNames();
    return std::find(names.begin(), names.end(), name) != names.end();
}

StatsTable tableReport(const std::string& name, const Trace& trace, std::optional<TimeRange> range)
{
    if (name == kNvtxGpuProjectionSum) return nvtxGpuProjectionSum(trace, range);
    return *counterReport(name, trace, range);
}

// "cuda_api_sum,nvtx_sum" -> requests; the first unknown name is a usage error.
Result<std::vector<ReportRequest>> parseReportList(const std::string& list)
{
    using Failure = Result<std::vector<ReportRequest>>;
    std::vector<ReportRequest> requests;
    size_t begin = 0;
    while (begin <= list.size()) {
        const size_t comma = std::min(list.find(',', begin), list.size());
        const std::string_view name = std::string_view(list).substr(begin, comma - begin);
        begin = comma + 1;
        if (name.empty()) continue;
        if (isTableReport(name)) {
            requests.push_back({std::nullopt, std::string(name)});
            continue;
        }
        Result<StatsReportId> id = findStatsReport(name);
        if (!id) {
            std::string tables;
            for (std::string_view table : tableReportNames())
                tables += ", " + std::string(table);
            // "...: nvtx_sum, ...." gains the table reports before its final period.
            return Failure::failure(id.error().substr(0, id.error().size() - 1) + tables + ".");
        }
        requests.push_back({id.value(), {}});
    }
    if (requests.empty()) return Failure::failure("--report needs at least one report name.");
    return requests;
}

// The tables in the order asked; nsys-style reports are computed together (on all cores).
std::vector<StatsTable> computeTables(
    const Trace& trace, const std::vector<ReportRequest>& requests, std::optional<TimeRange> range)
{
    std::vector<StatsReportId> ids;
    for (const ReportRequest& request : requests)
        if (request.id) ids.push_back(*request.id);
    std::vector<StatsReport> reports = computeReports(trace, ids, range);
    std::vector<StatsTable> tables;
    size_t next = 0;
    for (const ReportRequest& request : requests)
        tables.push_back(
            request.id ? toTable(reports[next++]) : tableReport(request.tableName, trace, range));
    return tables;
}

// What the reports asked for read, so that only that is decoded: a report keeps each kind of
// event, the counters and the CPU profile in batches of their own, and says where each batch
// starts. Every report counts events by their start (the stats rule), so with a range only the
// batches reaching into it are needed; the NVTX projection follows work launched inside a range
// wherever it ran, and reads everything.
DecodeSelection selectionFor(
    const std::vector<ReportRequest>& requests, bool allReports, std::optional<TimeRange> range)
{
    DecodeSelection select = allReports ? DecodeSelection {} : DecodeSelection::nothing();
    select.startsIn = range;
    const auto add = [&](TrackKind kind) { select.trackKinds |= 1u << unsigned(kind); };
    for (const ReportRequest& request : requests) {
        if (request.id) {
            if (const std::optional<TrackKind> kind = trackKindOf(*request.id))
                add(*kind);
            else
                select.cpu = true;
        } else if (request.tableName == kNvtxGpuProjectionSum) {
            return {};
        } else {
            select.counters = true;
            if (request.tableName == "gpu_metrics_kern_sum") add(TrackKind::Kernels);
        }
    }
    return select;
}

std::string emptyNote(const StatsTable& table, const std::string& file, bool ranged)
{
    return "SKIPPED: " + file + " has no " + table.dataKind + " data" + (ranged ? " in the range" : "") + ".";
}

} // namespace

int runStats(const std::vector<std::string>& arguments)
{
    static constexpr OptionSpec kOptions[]
        = {{"report", "r", true}, {"format", "f", true}, {"range", "", true}, {"help", "h", false}};
    const Result<Args> scanned = Args::scan(arguments, kOptions, OptionsEnd::AtDoubleDash);
    if (!scanned) return usageError("stats", scanned.error());
    const Args& args = scanned.value();
    if (args.flag("help")) {
        printStatsUsage(std::cout);
        return 0;
    }
    const std::optional<std::string> reportOption = args.value("report");
    const std::optional<std::string> formatOption = args.value("format");
    const std::optional<std::string> rangeOption = args.value("range");
    const std::vector<std::string>& files = args.positional();
    if (files.size() != 1) return usageError("stats", "expected exactly one trace file.");

    std::vector<ReportRequest> requests;
    if (reportOption) {
        Result<std::vector<ReportRequest>> parsed = parseReportList(*reportOption);
        if (!parsed) return usageError("stats", parsed.error());
        requests = std::move(parsed.value());
    } else {
        for (const StatsReportInfo& info : statsReportCatalog())
            requests.push_back({info.id, {}});
    }

    StatsFormat format = StatsFormat::Table;
    if (formatOption) {
        const std::optional<StatsFormat> parsed = parseStatsFormat(*formatOption);
        if (!parsed)
            return usageError("stats", "unknown format '" + *formatOption + "'; use table, csv or json.");
        format = *parsed;
    }

    std::optional<TimeRange> range;
    if (rangeOption) {
        range = parseTimeRange(*rangeOption);
        if (!range)
            return usageError("stats",
                "--range '" + *rangeOption + "' is not START:END with END at or after START (e.g. 0:500ms).");
        if (range->empty())
            return usageError("stats", "--range '" + *rangeOption + "' is empty; END must be after START.");
    }

    // Without --report every report is printed, the counter ones too when there are counters.
    const std::optional<Trace> trace
        = openTraceOrReport(files.front(), selectionFor(requests, !reportOption, range));
    if (!trace) return 1;

    if (!reportOption && !trace->counterSeries.empty())
        for (std::string_view name : counterReportNames())
            requests.push_back({std::nullopt, std::string(name)});
    const std::vector<StatsTable> tables = computeTables(*trace, requests, range);

    switch (format) {
    case StatsFormat::Table:
        std::cout << '\n';
        for (const StatsTable& table : tables)
            writeTextTable(std::cout, table, emptyNote(table, files.front(), range.has_value()));
        break;
    case StatsFormat::Csv:
        for (size_t t = 0; t < tables.size(); ++t) {
            // A single report is plain CSV; several are told apart by a title line and a blank line.
            if (tables.size() > 1)
                std::cout << (t > 0 ? "\n" : "") << tables[t].title << " (" << tables[t].name << ")\n";
            writeCsv(std::cout, tables[t]);
        }
        break;
    case StatsFormat::Json:
        writeJson(std::cout, tables);
        break;
    }
    std::cout.flush();
    return std::cout ? 0 : 1;
}

} // namespace sightline::cli
