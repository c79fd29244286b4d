// GPU metrics without a GPU: the sampler's recording of samples (metric sets, first-sample
// drop, clock shift) read back by the conversion and put on the report's GPU, driven with
// recorded raw values through the seam of collector/sampler/metrics_recorder.h; damaged and
// cut metrics files; and `sightline profile --gpu-metrics-devices=all` on a machine where
// counters cannot be read, which still records everything else and says why.
#include "../../test_paths.h"
#include "../support/run_command.h"
#include "collector/convert/assemble/gpu_metrics_assembly.h"
#include "collector/convert/decode/gpu_metrics_reader.h"
#include "collector/sampler/metrics_recorder.h"
#include "collector_test_support.h"
#include "model/format/report_io.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>

using namespace sightline;
using namespace sightline::collector;
using namespace sightline::test;

namespace {

// Raw values of the general set's metrics (in its order) for one 100 us sample: SM active %,
// warps per active cycle %, tensor %, DRAM throughput %, DRAM read bytes, DRAM write bytes, PCIe
// read bytes, PCIe write bytes, GR active cycles, GR elapsed cycles. The phases of an H100 run:
// idle, an FMA loop, a DRAM copy.
const std::vector<std::vector<double>> kRecorded {
    {0, 0, 0, 0.2, 4096, 1024, 512, 256, 0, 175500},
    {99.8, 81.25, 0, 0.4, 12288, 2048, 0, 0, 175500, 175500},
    {98.5, 60.0, 0, 87.5, 2.1e8, 2.0e8, 0, 0, 175000, 175500},
    {0, 0, 0, 0.1, 0, 0, 0, 0, 0, 175500},
};

std::vector<sampler::RawSample> samplesFrom(uint64_t firstStart, uint64_t interval, size_t count)
{
    std::vector<sampler::RawSample> out;
    for (size_t i = 0; i < count; ++i)
        out.push_back(
            {firstStart + i * interval, firstStart + (i + 1) * interval, kRecorded[i % kRecorded.size()]});
    return out;
}

const CounterSeries* findSeries(const Trace& trace, const std::string& name)
{
    for (const CounterSeries& series : trace.counterSeries)
        if (series.name == name) return &series;
    return nullptr;
}

} // namespace

TEST_CASE("recorded PM samples become the report's GPU metric series")
{
    const auto dir = scratchDir("gpu-metrics-seam");
    const std::string path = (dir / "gpu-metrics-0.smp").string();
    const sampler::MetricSet& set = sampler::defaultMetricSet();
    {
        sampler::MetricsRecorder recorder;
        REQUIRE(recorder.open(path));
        recorder.device(0, "NVIDIA H100 80GB HBM3", "GPU-0011", "GH100");
        recorder.series(set);
        // GPU clock 5,000,000 ns behind CLOCK_MONOTONIC; 100 us samples from GPU time 1,000,000.
        std::vector<sampler::RawSample> raw = samplesFrom(1'000'000, 100'000, 9);
        raw.insert(raw.begin() + 5, raw[3]); // out of order: dropped and counted
        recorder.samples(raw, 5'000'000);
        // Sampling paused for 1 ms, then went on.
        recorder.samples(samplesFrom(2'000'000, 100'000, 2), 5'000'000);
        CHECK(recorder.written() == 10); // the very first sample is dropped
        CHECK(recorder.dropped() == 1);
    }
    const GpuMetricsCapture capture = readGpuMetricsFile(path);
    CHECK(capture.diagnostics.empty());
    CHECK(capture.uuid == "GPU-0011");
    REQUIRE(capture.series.size() == set.series.size());
    REQUIRE(capture.starts.size() == 10);
    CHECK(capture.starts.front() == 6'100'000);

    TraceBuilder builder;
    const Gpu gpu {DeviceId(3), "NVIDIA H100 80GB HBM3", "GPU-0011", "", 9, 0, 132, 80ull << 30, 0, 0};
    builder.addGpu(gpu);
    // The report starts at monotonic 6,000,000; the session ended at 1.15 ms.
    addGpuMetrics({capture}, 6'000'000, 1'150'000, {gpu}, builder);
    const Trace trace = builder.build();
    REQUIRE(trace.counterTimelines.size() == 1);
    const CounterTimeline& timeline = trace.counterTimelines[0];
    // Samples 1..8 from 100 us (sample 5 repeated and dropped), then the pause as one unknown
    // sample from 900 us, then two samples from 1 ms, the second cut at the session's end.
    REQUIRE(timeline.starts.size() == 11);
    CHECK(timeline.starts[0] == 100'000);
    CHECK(timeline.starts[8] == 900'000);
    CHECK(timeline.starts[9] == 1'000'000);
    CHECK(timeline.end == 1'150'000);

    const CounterSeries* sm = findSeries(trace, "SMs Active");
    const CounterSeries* warps = findSeries(trace, "Warp Occupancy");
    const CounterSeries* read = findSeries(trace, "DRAM Read");
    const CounterSeries* gr = findSeries(trace, "GPU Active");
    REQUIRE(sm);
    REQUIRE(warps);
    REQUIRE(read);
    REQUIRE(gr);
    CHECK(sm->device == DeviceId(3));
    CHECK(sm->unit == "%");
    // Sample 1 of the recording is the FMA phase.
    CHECK(sm->values[0] == Approx(99.8));
    CHECK(warps->values[0] == Approx(81.25 * 99.8 / 100).margin(0.05));
    CHECK(read->values[1] == Approx(2.1e8 / 100e-6).epsilon(1e-6)); // bytes per 100 us, per second
    CHECK(gr->values[1] == Approx(100.0 * 175000 / 175500).margin(0.05));
    CHECK(std::isnan(sm->values[8])); // the pause
    // The whole FMA-and-copy stretch through the query face.
    const CounterSummary summary
        = trace.counterSummary(uint32_t(sm - trace.counterSeries.data()), {100'000, 300'000});
    CHECK(summary.samples == 2);
    CHECK(summary.mean() == Approx((99.8 + 98.5) / 2).margin(0.05));
}

TEST_CASE("samples whose timestamps went back are placed by the interval when their count fits the gap")
{
    const auto dir = scratchDir("gpu-metrics-stale-times");
    const std::string path = (dir / "gpu-metrics-0.smp").string();
    const uint64_t interval = 100'000;
    {
        sampler::MetricsRecorder recorder;
        REQUIRE(recorder.open(path, interval));
        recorder.device(0, "NVIDIA H200", "GPU-0012", "GH100");
        recorder.series(sampler::defaultMetricSet());
        // As seen on an H200: good samples up to GPU time 1.5 ms, then a decode whose samples all
        // carry one stale timestamp (start == end, long ago); the next decode goes on at 2.0 ms,
        // four intervals after the last good end: the three stale ones belong between.
        recorder.samples(samplesFrom(1'000'000, interval, 5), 0); // the first is dropped
        std::vector<sampler::RawSample> stale = samplesFrom(1'500'000, interval, 3);
        for (sampler::RawSample& sample : stale)
            sample.start = sample.end = 200'000;
        recorder.samples(stale, 0);
        CHECK(recorder.dropped() == 3); // waiting for a place
        recorder.samples(samplesFrom(1'800'000, interval, 2), 0);
        CHECK(recorder.placed() == 3);
        CHECK(recorder.dropped() == 0);
        // Two more stale ones before a gap that would need five: nothing says where they go.
        stale.resize(2);
        recorder.samples(stale, 0);
        recorder.samples(samplesFrom(2'500'000, interval, 1), 0);
        CHECK(recorder.placed() == 3);
        CHECK(recorder.dropped() == 2);
        CHECK(recorder.written() == 4 + 3 + 2 + 1);
    }
    const GpuMetricsCapture capture = readGpuMetricsFile(path);
    CHECK(capture.diagnostics.empty());
    // Every interval from 1.1 ms to 2.0 ms once, in order, then the sample after the gap.
    std::vector<Timestamp> expected;
    for (Timestamp t = 1'100'000; t <= 1'900'000; t += Timestamp(interval))
        expected.push_back(t);
    expected.push_back(2'500'000);
    CHECK(capture.starts == expected);
    // The placed samples keep their values: the recording's phases in turn.
    const size_t sm = 0; // SMs Active, the general set's first series
    REQUIRE(capture.values.size() > sm);
    REQUIRE(capture.values[sm].size() == expected.size());
    CHECK(capture.values[sm][4] == Approx(kRecorded[0][0]));
    CHECK(capture.values[sm][5] == Approx(kRecorded[1][0]));
    CHECK(capture.values[sm][6] == Approx(kRecorded[2][0]));
}

TEST_CASE("damaged or cut metrics files keep their complete records and say what was lost")
{
    const auto dir = scratchDir("gpu-metrics-damaged");
    const std::string path = (dir / "gpu-metrics-0.smp").string();
    {
        sampler::MetricsRecorder recorder;
        REQUIRE(recorder.open(path));
        recorder.device(0, "GPU", "GPU-1", "GH100");
        recorder.series(sampler::defaultMetricSet());
        recorder.samples(samplesFrom(0, 1000, 20), 0);
        recorder.samples(samplesFrom(20'000, 1000, 20), 0);
    }
    std::string bytes;
    {
        std::ifstream in(path, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    const GpuMetricsCapture whole = readGpuMetricsFile(path);
    REQUIRE(whole.starts.size() == 39);

    std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size() - 10));
    const GpuMetricsCapture cut = readGpuMetricsFile(path);
    CHECK(cut.starts.size() == 19);
    REQUIRE(cut.diagnostics.size() == 1);
    CHECK_THAT(cut.diagnostics[0].text, Catch::Contains("cut short"));

    std::string flipped = bytes;
    flipped[16 + 4] = char(0xff); // the first record's size: past the end
    std::ofstream(path, std::ios::binary).write(flipped.data(), std::streamsize(flipped.size()));
    CHECK(readGpuMetricsFile(path).starts.empty());

    std::ofstream(path, std::ios::binary) << "not a metrics file at all";
    const GpuMetricsCapture foreign = readGpuMetricsFile(path);
    REQUIRE(foreign.diagnostics.size() == 1);
    CHECK_THAT(foreign.diagnostics[0].text, Catch::Contains("is not a metrics file"));
}

TEST_CASE("profiling with GPU metrics where counters cannot be read records the rest and says why")
{
    const auto dir = scratchDir("gpu-metrics-refused");
    const std::string report = (dir / "refused.rep").string();
    const CommandResult run = runCommand(profileCommand() + " --trace=nvtx,osrt --gpu-metrics-devices=all -o "
        + shellQuote(report) + " " + shellQuote(COLLECTOR_TARGET) + " threads");
    INFO(run.err);
    CHECK(run.exitCode == 7); // the test program's own exit code, passed through
    CHECK(run.err.find("GPU metrics could not be recorded") != std::string::npos);
    Result<Trace> trace = readReport(report);
    REQUIRE(trace);
    CHECK(trace->eventCount() > 0);
    for (const CounterSeries& series : trace->counterSeries) // CPU utilization is there; no GPU metric is
        CHECK(series.source == CounterSource::CpuUtilization);
    bool said = false;
    for (const Diagnostic& d : trace->diagnostics)
        said = said || d.text.starts_with("GPU metrics could not be recorded");
    CHECK(said);
}

TEST_CASE("the GPU metrics options are checked before anything runs")
{
    for (const char* bad :
        {"--gpu-metrics-devices=gpu0", "--gpu-metrics-frequency=5", "--gpu-metrics-set=nope"}) {
        const CommandResult run = runCommand(profileCommand() + " " + bad + " true");
        INFO(bad << ": " << run.err);
        CHECK(run.exitCode == 2);
        CHECK(run.err.find("does not accept") != std::string::npos);
    }
}

TEST_CASE("a set's metric names its forms cheapest first, each a whole CUPTI metric name")
{
    CHECK(sampler::metricForms("dram__bytes_read.sum") == std::vector<std::string> {"dram__bytes_read.sum"});
    CHECK(sampler::metricForms("PCI.TriageCompute.pcie__read_bytes.sum|pcie__read_bytes.sum")
        == std::vector<std::string> {"PCI.TriageCompute.pcie__read_bytes.sum", "pcie__read_bytes.sum"});
    for (const sampler::MetricSet& set : sampler::metricSets())
        for (const std::string& metric : set.metrics)
            for (const std::string& form : sampler::metricForms(metric)) {
                INFO(set.name << ": " << metric);
                CHECK_FALSE(form.empty());
                CHECK(form.find_first_of(" ,") == std::string::npos);
                // A form is a base metric with a rollup ("sm__cycles_active.avg.pct_of_...").
                CHECK(form.find("__") != std::string::npos);
                CHECK(form.find('.', form.find("__")) != std::string::npos);
            }
    // Where a chip lacks the TriageCompute counters, every series of the general set still has
    // a plain form to fall back on.
    for (const std::string& metric : sampler::defaultMetricSet().metrics) {
        INFO(metric);
        CHECK(sampler::metricForms(metric).back().find("TriageCompute") == std::string::npos);
    }
}
