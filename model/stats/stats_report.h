// The `nsys stats`-style summary reports in typed form, and the catalog that names them.
// A StatsReport holds one row per group (API name, kernel name, memory operation, NVTX range,
// OS runtime call, sampled function) with exact integer totals, so they compare exactly with
// SQL SUM(end - start) over an export. Invariant: rows are sorted by total descending, then by
// name (then style; cpu_samples_sum: then by inclusive samples, then name and module), and the
// percentages of a report's rows add up to 100 (or are all 0).
#pragma once

#include "model/common/result.h"
#include "model/core/enums.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sightline {

enum class StatsReportId : uint8_t {
    NvtxSum,
    OsrtSum,
    CudaApiSum,
    CudaGpuKernSum,
    CudaGpuMemTimeSum,
    CudaGpuMemSizeSum,
    CpuSamplesSum, // CPU samples per function (call_tree.h)
    CpuThreadSum, // the threads' time on a CPU, from their Running states
};

// What a report's values measure: event durations in nanoseconds, memory operation sizes
// in bytes (shown in MB, 1 MB = 1e6 bytes, as nsys does), or CPU samples (each weighs 1).
enum class StatsUnit : uint8_t { Nanoseconds, Bytes, Samples };

// Descriptive statistics of one group of values.
struct ValueSummary
{
    int64_t count = 0;
    int64_t total = 0; // exact sum
    int64_t minimum = 0;
    int64_t maximum = 0;
    double average = 0;
    double median = 0; // the middle value; the mean of the two middle ones for an even count
    double stdDev = 0; // sample standard deviation (n - 1); 0 for a single value
    friend bool operator==(const ValueSummary&, const ValueSummary&) = default;
};

struct StatsRow
{
    std::string name; // Name, Operation, Range or Function; NVTX ranges of a named domain read "domain:text"
    NvtxStyle style = NvtxStyle::PushPop; // nvtx_sum only
    ValueSummary values; // cpu_samples_sum: the samples with the function as the leaf (self)
    double percent = 0; // share of the report's total over the rows listed, 0..100
    // cpu_samples_sum only: the function's module, and the samples with it anywhere on the stack.
    std::string module;
    int64_t inclusive = 0;
};

struct StatsReport
{
    StatsReportId id = StatsReportId::CudaApiSum;
    std::vector<StatsRow> rows;

    // The sum of the rows' totals.
    int64_t total() const;
    // The (first) row with this name (and style, for nvtx_sum), or null.
    const StatsRow* find(std::string_view name, NvtxStyle style = NvtxStyle::PushPop) const;
};

// Static facts about one report: its command-line name, nsys title and column wording.
struct StatsReportInfo
{
    StatsReportId id;
    std::string_view name; // "cuda_gpu_kern_sum"
    std::string_view title; // "CUDA GPU Kernel Summary"
    std::string_view countHeader; // "Instances", "Num Calls", "Count" or "Self Samples"
    std::string_view nameHeader; // "Name", "Operation", "Range" or "Function"
    std::string_view dataKind; // "CUDA kernel", used in "no CUDA kernel data"
    StatsUnit unit;
};

// Every report, in the order nsys prints them by default, then Sightline's own.
std::span<const StatsReportInfo> statsReportCatalog();
const StatsReportInfo& statsReportInfo(StatsReportId id);
std::vector<std::string_view> statsReportNames();
// Looks a report up by name (nsys' older aliases such as "gpukernsum" are accepted too); an
// unknown name gets one sentence listing the valid names.
Result<StatsReportId> findStatsReport(std::string_view name);

} // namespace sightline
