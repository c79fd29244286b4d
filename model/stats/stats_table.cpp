#include "model/stats/stats_table.h"

namespace sightline {
namespace {

constexpr double kBytesPerMegabyte = 1e6;

StatsColumn integerColumn(std::string header)
{
    return {std::move(header), CellKind::Integer, 0};
}

StatsColumn realColumn(std::string header, int decimals)
{
    return {std::move(header), CellKind::Real, decimals};
}

StatsColumn textColumn(std::string_view header)
{
    return {std::string(header), CellKind::Text, 0};
}

std::vector<StatsColumn> durationColumns(const StatsReportInfo& info)
{
    std::vector<StatsColumn> columns {
        realColumn("Time (%)", 1),
        integerColumn("Total Time (ns)"),
        integerColumn(std::string(info.countHeader)),
        realColumn("Avg (ns)", 1),
        realColumn("Med (ns)", 1),
        integerColumn("Min (ns)"),
        integerColumn("Max (ns)"),
        realColumn("StdDev (ns)", 1),
    };
    if (info.id == StatsReportId::NvtxSum) columns.push_back(textColumn("Style"));
    columns.push_back(textColumn(info.nameHeader));
    return columns;
}

std::vector<StatsCell> durationCells(const StatsReport& report, const StatsRow& row)
{
    const ValueSummary& v = row.values;
    std::vector<StatsCell> cells {
        row.percent, v.total, v.count, v.average, v.median, v.minimum, v.maximum, v.stdDev};
    if (report.id == StatsReportId::NvtxSum) cells.emplace_back(std::string(label(row.style)));
    cells.emplace_back(row.name);
    return cells;
}

std::vector<StatsColumn> sizeColumns(const StatsReportInfo& info)
{
    return {
        realColumn("Total (MB)", 3),
        integerColumn(std::string(info.countHeader)),
        realColumn("Avg (MB)", 3),
        realColumn("Med (MB)", 3),
        realColumn("Min (MB)", 3),
        realColumn("Max (MB)", 3),
        realColumn("StdDev (MB)", 3),
        textColumn(info.nameHeader),
    };
}

std::vector<StatsCell> sizeCells(const StatsRow& row)
{
    const ValueSummary& v = row.values;
    auto mb = [](double bytes) { return StatsCell(bytes / kBytesPerMegabyte); };
    return {mb(double(v.total)), v.count, mb(v.average), mb(v.median), mb(double(v.minimum)),
        mb(double(v.maximum)), mb(v.stdDev), row.name};
}

std::vector<StatsColumn> sampleColumns(const StatsReportInfo& info)
{
    return {
        realColumn("Self (%)", 1),
        integerColumn(std::string(info.countHeader)),
        realColumn("Total (%)", 1),
        integerColumn("Total Samples"),
        textColumn(info.nameHeader),
        textColumn("Module"),
    };
}

// Every sample has one leaf function, so the rows' self samples add up to the samples in scope.
std::vector<StatsCell> sampleCells(const StatsRow& row, double samplesInScope)
{
    const double totalPercent = samplesInScope > 0 ? 100.0 * double(row.inclusive) / samplesInScope : 0.0;
    return {row.percent, row.values.total, totalPercent, row.inclusive, row.name, row.module};
}

} // namespace

int StatsTable::columnIndex(std::string_view header) const
{
    for (size_t c = 0; c < columns.size(); ++c)
        if (columns[c].header == header) return int(c);
    return -1;
}

StatsTable toTable(const StatsReport& report)
{
    const StatsReportInfo& info = statsReportInfo(report.id);
    StatsTable table;
    table.name = info.name;
    table.title = info.title;
    table.dataKind = info.dataKind;
    table.rows.reserve(report.rows.size());
    switch (info.unit) {
    case StatsUnit::Bytes:
        table.columns = sizeColumns(info);
        for (const StatsRow& row : report.rows)
            table.rows.push_back(sizeCells(row));
        break;
    case StatsUnit::Samples:
        table.columns = sampleColumns(info);
        for (const StatsRow& row : report.rows)
            table.rows.push_back(sampleCells(row, double(report.total())));
        break;
    case StatsUnit::Nanoseconds:
        table.columns = durationColumns(info);
        for (const StatsRow& row : report.rows)
            table.rows.push_back(durationCells(report, row));
        break;
    }
    return table;
}

} // namespace sightline
