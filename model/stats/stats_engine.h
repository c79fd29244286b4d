// The stats engine: computes the `nsys stats` summary reports (stats_report.h) over a loaded
// Trace, for the whole trace or a half-open range [t0, t1). With a range, an event counts when
// its START lies in [t0, t1), whatever its end: an event that starts before t0 is left out
// even if it runs into the range, and one that starts inside is counted whole. The CPU
// reports follow their data: cpu_samples_sum counts the samples taken in the range, and
// cpu_thread_sum the part of each Running state that overlaps it. The CLI, the Analysis
// Summary and the benchmarks all call these functions. The Trace is only read, so reports are
// computed in parallel, one report per worker.
#pragma once

#include "model/core/time.h"
#include "model/stats/stats_report.h"
#include "model/trace/trace.h"

#include <optional>
#include <span>
#include <vector>

namespace sightline {

// One report. `range`: no value for the whole trace.
StatsReport computeReport(const Trace& trace, StatsReportId id, std::optional<TimeRange> range = {});

// Several reports, in the order asked, spread over `threads` workers (0: one per core, at most
// one per report).
std::vector<StatsReport> computeReports(const Trace& trace, std::span<const StatsReportId> ids,
    std::optional<TimeRange> range = {}, unsigned threads = 0);

// The kind of track a report reads (nvtx_sum: Nvtx, cuda_gpu_kern_sum: Kernels, ...); none for
// the CPU reports, which read the CPU profile (Trace::cpu).
std::optional<TrackKind> trackKindOf(StatsReportId id);

// Every report in catalog order (statsReportCatalog()).
std::vector<StatsReport> computeAllReports(
    const Trace& trace, std::optional<TimeRange> range = {}, unsigned threads = 0);

} // namespace sightline
