// The numbers behind the Analysis Summary's charts, computed from the Trace and the stats
// reports without any Qt: the top rows of a report (kernels by total GPU time, memory
// operations by bytes moved), the duration histogram of one name, and each GPU's utilization
// over time from the level-of-detail summaries (so it costs O(columns x lanes), not O(events)).
// Ranges follow the stats engine: an event counts when its start lies in the range.
#pragma once

#include "model/stats/stats_report.h"
#include "model/trace/trace.h"

#include <optional>
#include <string>
#include <vector>

namespace sightline::views {

struct NamedTotal
{
    std::string name;
    int64_t total = 0; // nanoseconds or bytes, as the report measures
    int64_t count = 0;
};

// The first `limit` rows of a report (reports are sorted by total, largest first).
std::vector<NamedTotal> topRows(const StatsReport& report, size_t limit);

struct Histogram
{
    std::vector<double> edges; // bins + 1 bin edges, in nanoseconds
    std::vector<int64_t> counts; // per bin
    int64_t total = 0;
    Duration minimum = 0;
    Duration maximum = 0;
};

// Durations of the events of `kind` named `name`, in `bins` bins: evenly spaced, or spaced
// evenly in log10 (durations span orders of magnitude) when `logBins`.
Histogram durationHistogram(const Trace& trace, TrackKind kind, std::string_view name,
    std::optional<TimeRange> range, int bins, bool logBins);

struct UtilizationSeries
{
    DeviceId device;
    std::vector<double> busy; // per column, 0..1: the share of the column a kernel ran
};

// Per GPU with kernels, the busy fraction of `columns` equal slices of `window`. Concurrent
// streams are added and capped at 1, so overlapping kernels count once at most.
std::vector<UtilizationSeries> gpuUtilization(const Trace& trace, TimeRange window, int columns);

// A GPU metric (SMs Active, Tensor Active) over `columns` equal spans of a window: the
// time-weighted mean in each, NaN where nothing is known.
struct MetricCurve
{
    DeviceId device;
    std::string name;
    std::vector<double> values;
};
std::vector<MetricCurve> gpuMetricCurves(const Trace& trace, TimeRange window, int columns);

} // namespace sightline::views
