// A stats report as a generic table: column headers with their units as nsys writes them
// ("Total Time (ns)", "Avg (MB)"), and typed cells (integer, real or text). The CLI's
// table/CSV/JSON writers and the GUI's Analysis Summary render this one shape, so they all
// show the same columns. Invariant: every row has one cell per column, of the column's kind.
#pragma once

#include "model/stats/stats_report.h"

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace sightline {

enum class CellKind : uint8_t { Integer, Real, Text };

struct StatsColumn
{
    std::string header; // "Med (ns)"
    CellKind kind = CellKind::Integer;
    int decimals = 0; // digits after the point when a Real cell is displayed
};

using StatsCell = std::variant<int64_t, double, std::string>;

struct StatsTable
{
    std::string name; // "cuda_gpu_kern_sum"
    std::string title; // "CUDA GPU Kernel Summary"
    std::string dataKind; // "CUDA kernel": what an empty table has no data of
    std::vector<StatsColumn> columns;
    std::vector<std::vector<StatsCell>> rows;

    // The index of the column with this header, or -1.
    int columnIndex(std::string_view header) const;
};

// The nsys columns of the report: Time (%), Total Time (ns), count, Avg, Med, Min, Max, StdDev,
// [Style,] Name; for cuda_gpu_mem_size_sum sizes in MB (1e6 bytes) and no Time (%); for
// cpu_samples_sum Self (%), Self Samples, Total (%), Total Samples, Function, Module.
StatsTable toTable(const StatsReport& report);

} // namespace sightline
