#include "model/stats/counter_stats.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace sightline {

namespace {

constexpr std::string_view kMetricsSum = "gpu_metrics_sum";
constexpr std::string_view kKernelMetricsSum = "gpu_metrics_kern_sum";
constexpr std::string_view kMemoryUsageSum = "cuda_gpu_mem_usage_sum";
constexpr const char* kKernelSeries[]
    = {gpu_metric::kSmsActive, gpu_metric::kWarpOccupancy, gpu_metric::kTensorActive};

TimeRange wholeOr(const Trace& trace, std::optional<TimeRange> range)
{
    if (range) return *range;
    TimeRange all = trace.span;
    for (const CounterTimeline& timeline : trace.counterTimelines)
        if (!timeline.starts.empty()) {
            all.start = std::min(all.start, timeline.starts.front());
            all.end = std::max(all.end, timeline.end);
        }
    return all;
}

// The share (0..100) of the known time in `range` in which the series exceeded `threshold`.
double shareAbove(const Trace& trace, const CounterSeries& series, TimeRange range, double threshold)
{
    const CounterTimeline& timeline = trace.timelineOf(series);
    const auto& starts = timeline.starts;
    size_t i = size_t(std::upper_bound(starts.begin(), starts.end(), range.start) - starts.begin());
    if (i > 0) --i;
    Duration known = 0, above = 0;
    for (; i < starts.size() && starts[i] < range.end; ++i) {
        const double value = series.values[i];
        const Duration overlap
            = std::min(timeline.sampleEnd(i), range.end) - std::max(starts[i], range.start);
        if (overlap <= 0 || std::isnan(value)) continue;
        known += overlap;
        if (value > threshold) above += overlap;
    }
    return known > 0 ? 100.0 * double(above) / double(known) : std::nan("");
}

StatsTable metricsSum(const Trace& trace, std::optional<TimeRange> range)
{
    StatsTable table;
    table.name = std::string(kMetricsSum);
    table.title = "GPU Metrics Summary";
    table.dataKind = "GPU metrics";
    table.columns = {{"Device", CellKind::Integer, 0}, {"Metric", CellKind::Text, 0},
        {"Unit", CellKind::Text, 0}, {"Samples", CellKind::Integer, 0}, {"Mean", CellKind::Real, 2},
        {"Min", CellKind::Real, 2}, {"Max", CellKind::Real, 2}, {"Above 50% (%)", CellKind::Real, 1},
        {"Mean Interval (ns)", CellKind::Real, 0}};
    const TimeRange window = wholeOr(trace, range);
    for (uint32_t s = 0; s < trace.counterSeries.size(); ++s) {
        const CounterSeries& series = trace.counterSeries[s];
        if (series.source != CounterSource::GpuMetrics) continue;
        const CounterSummary summary = trace.counterSummary(s, window);
        if (summary.empty()) continue;
        // Percentages above 50; other units above half of the series' peak in the whole report.
        const double half
            = series.unit == "%" ? 50.0 : trace.counterSummary(s, wholeOr(trace, std::nullopt)).max / 2;
        const double above = shareAbove(trace, series, window, half);
        table.rows.push_back(
            {int64_t(series.device.value), series.name, series.unit, int64_t(summary.samples), summary.mean(),
                summary.min, summary.max, above, double(summary.covered) / double(summary.samples)});
    }
    return table;
}

StatsTable kernelMetricsSum(const Trace& trace, std::optional<TimeRange> range)
{
    StatsTable table;
    table.name = std::string(kKernelMetricsSum);
    table.title = "GPU Metrics per CUDA Kernel";
    table.dataKind = "GPU metrics during CUDA kernel";
    table.columns = {{"Instances", CellKind::Integer, 0}, {"Total Time (ns)", CellKind::Integer, 0}};
    for (const char* name : kKernelSeries)
        table.columns.push_back({std::string(name) + " (%)", CellKind::Real, 1});
    table.columns.push_back({"Name", CellKind::Text, 0});

    const std::map<StringId, KernelMetricMeans> byName
        = kernelMetricMeans(trace, range, KernelNaming::Demangled);
    std::vector<std::pair<StringId, KernelMetricMeans>> rows(byName.begin(), byName.end());
    std::sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) {
        return a.second.total != b.second.total ? a.second.total > b.second.total
                                                : trace.strings[a.first] < trace.strings[b.first];
    });
    for (const auto& [name, means] : rows) {
        std::vector<StatsCell> row {
            means.instances, means.total, means.smsActive, means.warpOccupancy, means.tensorActive};
        row.emplace_back(std::string(trace.strings[name]));
        table.rows.push_back(std::move(row));
    }
    return table;
}

// Per device: the most bytes in use over the range, and the steps up (allocations) and down
// (releases) that start in it.
StatsTable memoryUsageSum(const Trace& trace, std::optional<TimeRange> range)
{
    StatsTable table;
    table.name = std::string(kMemoryUsageSum);
    table.title = "CUDA GPU Memory Usage Summary";
    table.dataKind = "CUDA memory usage";
    table.columns = {{"Device", CellKind::Integer, 0}, {"Peak Bytes", CellKind::Integer, 0},
        {"Allocations", CellKind::Integer, 0}, {"Frees", CellKind::Integer, 0}};
    const TimeRange window = wholeOr(trace, range);
    for (uint32_t s = 0; s < trace.counterSeries.size(); ++s) {
        const CounterSeries& series = trace.counterSeries[s];
        if (series.source != CounterSource::GpuMemory) continue;
        const CounterSummary summary = trace.counterSummary(s, window);
        if (summary.empty()) continue;
        const CounterTimeline& timeline = trace.timelineOf(series);
        int64_t allocations = 0, frees = 0;
        for (size_t i = 0; i < timeline.size(); ++i) {
            if (!window.contains(timeline.starts[i])) continue;
            const double before = i > 0 ? series.values[i - 1] : 0.0;
            allocations += series.values[i] > before ? 1 : 0;
            frees += series.values[i] < before ? 1 : 0;
        }
        table.rows.push_back({int64_t(series.device.value), int64_t(summary.max), allocations, frees});
    }
    return table;
}

} // namespace

std::vector<std::string_view> counterReportNames()
{
    return {kMetricsSum, kKernelMetricsSum, kMemoryUsageSum};
}

std::optional<StatsTable> counterReport(
    std::string_view name, const Trace& trace, std::optional<TimeRange> range)
{
    if (name == kMetricsSum) return metricsSum(trace, range);
    if (name == kKernelMetricsSum) return kernelMetricsSum(trace, range);
    if (name == kMemoryUsageSum) return memoryUsageSum(trace, range);
    return std::nullopt;
}

std::map<StringId, KernelMetricMeans> kernelMetricMeans(
    const Trace& trace, std::optional<TimeRange> range, KernelNaming naming)
{
    // The series of each kernel metric per device.
    std::map<std::pair<uint32_t, size_t>, uint32_t> seriesOf;
    for (uint32_t s = 0; s < trace.counterSeries.size(); ++s)
        for (size_t k = 0; k < std::size(kKernelSeries); ++k)
            if (trace.counterSeries[s].source == CounterSource::GpuMetrics
                && trace.counterSeries[s].name == kKernelSeries[k])
                seriesOf[{trace.counterSeries[s].device.value, k}] = s;
    std::map<StringId, KernelMetricMeans> out;
    if (seriesOf.empty()) return out;

    std::map<StringId, CounterSummary[std::size(kKernelSeries)]> sums;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
        const Track& track = trace.tracks[t];
        if (track.key.kind != TrackKind::Kernels) continue;
        for (uint32_t lane = 0; lane < track.laneCount(); ++lane) {
            const IndexRange events = trace.eventsStartingIn(TrackId(t), lane, range);
            for (uint32_t i = events.begin; i < events.end; ++i) {
                const StringId name = naming == KernelNaming::Demangled
                    ? track.events.name[i]
                    : trace.kernelLaunches[track.events.detail[i]].shortName;
                KernelMetricMeans& means = out[name];
                const TimeRange ran {track.events.start[i], track.events.end[i]};
                ++means.instances;
                means.total += ran.duration();
                for (size_t k = 0; k < std::size(kKernelSeries); ++k) {
                    const auto found = seriesOf.find({track.key.device.value, k});
                    if (found != seriesOf.end()) sums[name][k].add(trace.counterSummary(found->second, ran));
                }
            }
        }
    }
    for (auto& [name, means] : out) {
        means.smsActive = sums[name][0].mean();
        means.warpOccupancy = sums[name][1].mean();
        means.tensorActive = sums[name][2].mean();
    }
    return out;
}

} // namespace sightline
