// nvtx_gpu_proj_sum, Nsight Systems' NVTX GPU Projection Summary: per NVTX range name and
// style, the GPU time of the work launched inside the ranges (nvtx_projection.h), beside the
// ranges' own time on the CPU. One instance is one range: its projections onto every GPU
// joined, from the earliest start to the latest end of its work; ranges whose projection is
// empty (no work, or work of no duration) are left out, as nsys leaves them out.
//
// Columns: Range, Style, Total Proj Time, Total Range Time, Range Instances, Proj Avg, Med,
// Min, Max, StdDev (of the projected durations), Total GPU Ops, Avg GPU Ops, Avg Range Lvl (0:
// outermost) and Avg Num Child (ranges directly inside). Rows by total projected time, then
// name, then style. It is a table built directly, like the counter reports (counter_stats.h):
// its columns do not fit StatsRow. Over a range of time, a range counts when its start on
// the CPU lies in it (the stats rule).
#pragma once

#include "model/stats/stats_table.h"
#include "model/trace/trace.h"

#include <optional>
#include <string_view>

namespace sightline {

constexpr std::string_view kNvtxGpuProjectionSum = "nvtx_gpu_proj_sum";

StatsTable nvtxGpuProjectionSum(const Trace& trace, std::optional<TimeRange> range = {});

} // namespace sightline
