#include "collector/convert/assemble/gpu_metrics_assembly.h"

#include <algorithm>
#include <cmath>

namespace sightline::collector {

namespace {

// The device id the report gives the GPU of this capture.
DeviceId deviceOf(const GpuMetricsCapture& capture, const std::vector<Gpu>& gpus, TraceBuilder& builder)
{
    for (const Gpu& gpu : gpus)
        if (!capture.uuid.empty() && gpu.uuid == capture.uuid) return gpu.device;
    Gpu gpu;
    gpu.device = DeviceId(capture.ordinal);
    gpu.name = capture.name;
    gpu.uuid = capture.uuid;
    builder.addGpu(gpu);
    return gpu.device;
}

} // namespace

void addGpuMetrics(const std::vector<GpuMetricsCapture>& captures, int64_t originMonotonicNs,
    Timestamp sessionEnd, const std::vector<Gpu>& gpus, TraceBuilder& builder)
{
    for (const GpuMetricsCapture& capture : captures) {
        for (const Diagnostic& diagnostic : capture.diagnostics)
            builder.addDiagnostic(diagnostic);
        if (!capture.hasDevice || capture.series.empty() || capture.starts.empty()) continue;
        CounterTimeline timeline;
        std::vector<std::vector<double>> values(capture.series.size());
        Timestamp lastEnd = 0;
        for (size_t i = 0; i < capture.starts.size(); ++i) {
            const Timestamp start = std::max<Timestamp>(0, capture.starts[i] - originMonotonicNs);
            const Timestamp end = std::min(sessionEnd, capture.ends[i] - originMonotonicNs);
            if (end <= start || start < lastEnd) continue;
            // Sampling paused (longer than half a sample): nothing is known in between.
            if (!timeline.starts.empty() && start - lastEnd > std::max<Timestamp>(1000, (end - start) / 2)) {
                timeline.starts.push_back(lastEnd);
                for (auto& v : values)
                    v.push_back(std::nan(""));
            }
            timeline.starts.push_back(start);
            for (size_t s = 0; s < values.size(); ++s)
                values[s].push_back(capture.values[s][i]);
            lastEnd = end;
        }
        if (timeline.starts.empty()) continue;
        timeline.end = lastEnd;
        const DeviceId device = deviceOf(capture, gpus, builder);
        const uint32_t index = builder.addCounterTimeline(std::move(timeline));
        for (size_t s = 0; s < capture.series.size(); ++s) {
            CounterSeries series;
            series.source = CounterSource::GpuMetrics;
            series.device = device;
            series.timeline = index;
            series.name = capture.series[s].name;
            series.unit = capture.series[s].unit;
            series.description = capture.series[s].description;
            series.resolution = capture.series[s].resolution;
            series.values = std::move(values[s]);
            builder.addCounterSeries(std::move(series));
        }
    }
}

} // namespace sightline::collector
