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
    const bool sizes = info.unit == StatsUnit::Bytes;
    table.columns = sizes ? sizeColumns(info) : durationColumns(info);
    table.rows.reserve(report.rows.size());
    for (const StatsRow& row : report.rows)
        table.rows.push_back(sizes ? sizeCells(row) : durationCells(report, row));
    return table;
}

} // namespace sightline
