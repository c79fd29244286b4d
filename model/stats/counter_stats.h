// Summary tables over counter series (GPU metrics), in the one table shape the CLI and the
// Analysis Summary render (stats_table.h):
//
//   gpu_metrics_sum       per device and metric: samples, time-weighted mean, min, max, the
//                         share of time above 50% (for percentages; for rates, above half of the
//                         series' peak in the whole report), the mean sample interval
//   gpu_metrics_kern_sum  per kernel name: instances, total time, and the mean SMs Active, Warp
//                         Occupancy and Tensor Active while its instances ran (weighted by their
//                         time), which no peer shows without selecting each kernel by hand
//   cuda_gpu_mem_usage_sum  per device: peak bytes in use, allocations and releases
//                         (--cuda-memory-usage)
//
// Over a range, counters count for their overlap with it; kernels follow the stats rule (those
// starting in it).
#pragma once

#include "model/stats/stats_table.h"
#include "model/trace/trace.h"

#include <map>
#include <optional>
#include <string_view>
#include <vector>

namespace sightline {

std::vector<std::string_view> counterReportNames();

// gpu_metrics_kern_sum's figures per kernel name: instances, total time, and the mean SMs
// Active, Warp Occupancy and Tensor Active (%) while they ran. Empty without GPU metrics.
struct KernelMetricMeans
{
    int64_t instances = 0;
    int64_t total = 0;
    double smsActive = 0;
    double warpOccupancy = 0;
    double tensorActive = 0;
};
enum class KernelNaming { Demangled, Short };
std::map<StringId, KernelMetricMeans> kernelMetricMeans(
    const Trace& trace, std::optional<TimeRange> range, KernelNaming naming);

// The table of the named counter report, or nothing for a name that is not one.
std::optional<StatsTable> counterReport(
    std::string_view name, const Trace& trace, std::optional<TimeRange> range);

} // namespace sightline
