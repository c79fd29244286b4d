#include "generate.h"

#include <cmath>

namespace sightline::gen {

namespace {

struct SeriesShape
{
    const char* name;
    const char* unit;
    double resolution;
    double perActive; // value per percent of SMs Active
};

constexpr SeriesShape kShapes[] = {
    {"SMs Active", "%", 0.1, 1.0},
    {"Warp Occupancy", "%", 0.1, 0.45},
    {"Tensor Active", "%", 0.1, 0.3},
    {"DRAM Bandwidth", "%", 0.1, 0.25},
    {"DRAM Read", "B/s", 1e6, 2.0e10},
};

} // namespace

void addGeneratedGpuMetrics(Trace& trace, uint32_t hz)
{
    const Duration interval = std::max<Duration>(1, 1'000'000'000 / hz);
    if (trace.span.empty()) return;
    const size_t samples = size_t((trace.span.duration() + interval - 1) / interval);
    for (const Gpu& gpu : trace.gpus) {
        // The GPU's busiest kernel lane per sample, from the level-of-detail query.
        std::vector<double> active(samples, 0.0);
        std::vector<LodColumn> columns(samples);
        const TimeRange window {trace.span.start, trace.span.start + Duration(samples) * interval};
        for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
            const Track& track = trace.tracks[t];
            if (track.key.kind != TrackKind::Kernels || track.key.device != gpu.device) continue;
            std::fill(columns.begin(), columns.end(), LodColumn {});
            trace.trackLod(TrackId(t), window, columns);
            for (size_t i = 0; i < samples; ++i)
                active[i] = std::max(active[i], 100.0 * double(columns[i].busy));
        }
        CounterTimeline timeline;
        for (size_t i = 0; i < samples; ++i)
            timeline.starts.push_back(window.start + Duration(i) * interval);
        timeline.end = window.end;
        trace.counterTimelines.push_back(std::move(timeline));
        for (const SeriesShape& shape : kShapes) {
            CounterSeries series;
            series.device = gpu.device;
            series.timeline = uint32_t(trace.counterTimelines.size() - 1);
            series.name = shape.name;
            series.unit = shape.unit;
            series.description = std::string("generated from kernel activity: ") + shape.name;
            series.resolution = shape.resolution;
            for (double a : active)
                series.values.push_back(roundToResolution(a * shape.perActive, shape.resolution));
            trace.counterSeries.push_back(std::move(series));
        }
    }
    trace.buildIndexes();
}

} // namespace sightline::gen
