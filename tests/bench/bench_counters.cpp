// Counter series (GPU metrics) figures: the level-of-detail query of one metric over 1920
// columns for a 1-hour 10 kHz series (36M samples; target <= 1 ms), for the whole span and
// zoomed in; building its index; resident bytes per value (and the pyramid's share); and .rep
// bytes per value of noisy percentages (the on-disk target is <= 4 bytes per value).
//
//   bench_counters [SAMPLES]     default 36000000
#include "bench_support.h"
#include "model/construct/trace_builder.h"
#include "model/format/report_io.h"
#include "model/index/counter_lod.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>

using namespace sightline;
using namespace sightline::bench;

int main(int argc, char** argv)
{
    const size_t samples = argc > 1 ? size_t(std::atoll(argv[1])) : 36'000'000;
    const Duration interval = 100'000; // 10 kHz
    // A busy GPU: SMs Active near 95% with noise, dropping to 0 every few seconds.
    TraceBuilder builder;
    CounterTimeline timeline;
    timeline.starts.resize(samples);
    for (size_t i = 0; i < samples; ++i)
        timeline.starts[i] = Timestamp(i) * interval + Timestamp((i * 2654435761u) % 7); // a little jitter
    timeline.end = Timestamp(samples) * interval + 100'000;
    const uint32_t index = builder.addCounterTimeline(std::move(timeline));
    CounterSeries series;
    series.timeline = index;
    series.name = "SMs Active";
    series.unit = "%";
    series.resolution = 0.1;
    series.values.resize(samples);
    uint64_t state = 12345;
    for (size_t i = 0; i < samples; ++i) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        const double noise = double(state >> 40) / double(1ull << 24) * 6.0;
        series.values[i] = (i / 20000) % 7 == 6 ? 0.0 : 92.0 + noise;
    }
    builder.addCounterSeries(std::move(series));
    releaseFreeMemory();
    const uint64_t before = residentSetBytes();
    Stopwatch built;
    const Trace trace = builder.build();
    const double buildSeconds = built.seconds();
    const double residentPerValue = double(trace.residentBytes()) / double(samples);
    std::printf(
        "one counter series: %zu samples (%.1f h at 10 kHz), index built in %.3f s, %.2f resident bytes per "
        "value alone on its timeline, process grew %.0f MB\n",
        samples, double(samples) / 36e6, buildSeconds, residentPerValue,
        double(residentSetBytes() - before) / 1e6);

    {
        CounterLod lod;
        lod.build(trace.counterTimelines[0], trace.counterSeries[0].values);
        std::printf("of which the level-of-detail pyramid: %.2f bytes per sample\n",
            double(lod.residentBytes()) / double(samples));
    }

    std::vector<CounterSummary> columns(1920);
    const TimeRange whole {0, trace.counterTimelines[0].end};
    auto timeQuery = [&](TimeRange window) {
        std::vector<double> times;
        for (int run = 0; run < 50; ++run) {
            Stopwatch watch;
            trace.counterLod(0, window, columns);
            times.push_back(double(watch.nanoseconds()) / 1e6);
        }
        std::sort(times.begin(), times.end());
        return std::pair(times[times.size() / 2], times[times.size() * 95 / 100]);
    };
    for (const auto& [name, window] : {std::pair("whole span", whole),
             std::pair("1 minute", TimeRange {whole.end / 2, whole.end / 2 + 60'000'000'000}),
             std::pair("10 ms", TimeRange {whole.end / 3, whole.end / 3 + 10'000'000})}) {
        const auto [median, p95] = timeQuery(window);
        std::printf("LOD query, 1920 columns over %-10s: median %.3f ms, p95 %.3f ms (target <= 1 ms) %s\n",
            name, median, p95, p95 <= 1.0 ? "PASS" : "MISS");
    }

    // A GPU's default metric set: nine series over one timeline, as the sampler records them.
    {
        TraceBuilder group;
        const size_t n = samples / 10;
        CounterTimeline shared;
        for (size_t i = 0; i < n; ++i)
            shared.starts.push_back(Timestamp(i) * interval);
        shared.end = Timestamp(n) * interval;
        const uint32_t t = group.addCounterTimeline(std::move(shared));
        for (int s = 0; s < 9; ++s) {
            CounterSeries metric;
            metric.timeline = t;
            metric.name = "metric " + std::to_string(s);
            metric.unit = "%";
            metric.resolution = 0.1;
            metric.values.assign(n, 50.0 + s);
            group.addCounterSeries(std::move(metric));
        }
        const Trace nine = group.build();
        std::printf(
            "nine series sharing a timeline (the general set), %zu samples: %.2f resident bytes per value "
            "(target <= 16)\n",
            n, double(nine.residentBytes()) / double(9 * n));
    }

    const std::string path = (std::filesystem::temp_directory_path() / "bench_counters.rep").string();
    if (Status written = writeReport(trace, path); !written) {
        std::printf("write failed: %s\n", written.error().c_str());
        return 1;
    }
    const double bytes = double(std::filesystem::file_size(path));
    std::printf(".rep: %.0f bytes, %.2f bytes per value (target <= 4) %s\n", bytes, bytes / double(samples),
        bytes / double(samples) <= 4 ? "PASS" : "MISS");
    std::filesystem::remove(path);
    return 0;
}
