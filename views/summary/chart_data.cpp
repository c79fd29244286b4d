#include "views/summary/chart_data.h"

#include "model/events/event_names.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace sightline::views {

std::vector<NamedTotal> topRows(const StatsReport& report, size_t limit)
{
    std::vector<NamedTotal> rows;
    for (const StatsRow& row : report.rows) {
        if (rows.size() >= limit) break;
        rows.push_back({row.name, row.values.total, row.values.count});
    }
    return rows;
}

Histogram durationHistogram(const Trace& trace, TrackKind kind, std::string_view name,
    std::optional<TimeRange> range, int bins, bool logBins)
{
    const EventNames names(trace);
    std::vector<uint8_t> wanted(names.keyCount(), 0);
    for (uint32_t k = 0; k < names.keyCount(); ++k)
        wanted[k] = names.text(k) == name ? 1 : 0;

    std::vector<Duration> durations;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
        const Track& track = trace.tracks[t];
        if (track.key.kind != kind) continue;
        for (uint32_t lane = 0; lane < track.laneCount(); ++lane) {
            const IndexRange events = trace.eventsStartingIn(TrackId(t), lane, range);
            for (uint32_t i = events.begin; i < events.end; ++i)
                if (wanted[names.key(track, i)]) durations.push_back(track.duration(i));
        }
    }

    Histogram h;
    bins = std::max(bins, 1);
    h.counts.assign(size_t(bins), 0);
    h.total = int64_t(durations.size());
    if (durations.empty()) {
        for (int b = 0; b <= bins; ++b)
            h.edges.push_back(double(b));
        return h;
    }
    const auto [lo, hi] = std::minmax_element(durations.begin(), durations.end());
    h.minimum = *lo;
    h.maximum = *hi;
    // Log bins need a positive lower edge; equal extremes get a bin of width one around them.
    const double low = logBins ? std::max(1.0, double(h.minimum)) : double(h.minimum);
    const double high = std::max(double(h.maximum), low + 1.0);
    auto position = [&](double v) { return logBins ? std::log10(std::max(v, 1.0)) : v; };
    const double from = position(low), to = position(high);
    for (int b = 0; b <= bins; ++b) {
        const double x = from + (to - from) * b / bins;
        h.edges.push_back(logBins ? std::pow(10.0, x) : x);
    }
    for (Duration d : durations) {
        const double t = (position(double(d)) - from) / (to - from);
        const int bin = std::clamp(int(t * bins), 0, bins - 1);
        ++h.counts[size_t(bin)];
    }
    return h;
}

std::vector<UtilizationSeries> gpuUtilization(const Trace& trace, TimeRange window, int columns)
{
    std::map<uint32_t, UtilizationSeries> byDevice;
    if (columns <= 0 || window.empty()) return {};
    std::vector<LodColumn> lod(static_cast<size_t>(columns));
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
        const Track& track = trace.tracks[t];
        if (track.key.kind != TrackKind::Kernels || track.size() == 0 || !trace.indexesBuilt()) continue;
        UtilizationSeries& series = byDevice[track.key.device.value];
        series.device = track.key.device;
        series.busy.resize(size_t(columns), 0.0);
        // Every lane of the stream (kernels of one stream seldom overlap, but some may).
        for (uint32_t lane = 0; lane < track.laneCount(); ++lane) {
            std::fill(lod.begin(), lod.end(), LodColumn {});
            trace.laneLod(TrackId(t), lane, window, lod);
            for (size_t c = 0; c < lod.size(); ++c)
                series.busy[c] += lod[c].busy;
        }
    }
    std::vector<UtilizationSeries> result;
    for (auto& [device, series] : byDevice) {
        for (double& b : series.busy)
            b = std::min(b, 1.0);
        result.push_back(std::move(series));
    }
    return result;
}

std::vector<MetricCurve> gpuMetricCurves(const Trace& trace, TimeRange window, int columns)
{
    std::vector<MetricCurve> curves;
    std::vector<CounterSummary> summaries(size_t(std::max(columns, 1)));
    for (uint32_t s = 0; s < trace.counterSeries.size(); ++s) {
        const CounterSeries& series = trace.counterSeries[s];
        if (series.source != CounterSource::GpuMetrics
            || (series.name != gpu_metric::kSmsActive && series.name != gpu_metric::kTensorActive))
            continue;
        std::fill(summaries.begin(), summaries.end(), CounterSummary {});
        trace.counterLod(s, window, summaries);
        MetricCurve curve {series.device, series.name, {}};
        for (const CounterSummary& column : summaries)
            curve.values.push_back(column.mean());
        curves.push_back(std::move(curve));
    }
    return curves;
}

} // namespace sightline::views
