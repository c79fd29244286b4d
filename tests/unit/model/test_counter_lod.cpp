// Counter series summaries (model/index/counter_lod.h) against a direct walk over the samples:
// per range and per pixel column, on random timelines with gaps, unknown runs and single samples.
#include "../support/random_trace.h"
#include "model/construct/trace_builder.h"
#include "model/index/counter_lod.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace sightline;

namespace {

CounterSummary direct(const CounterTimeline& timeline, const std::vector<double>& values, TimeRange range)
{
    CounterSummary s;
    for (size_t i = 0; i < timeline.size(); ++i) {
        const Duration overlap
            = std::min(timeline.sampleEnd(i), range.end) - std::max(timeline.starts[i], range.start);
        s.addSample(values[i], overlap);
    }
    return s;
}

void requireSame(const CounterSummary& got, const CounterSummary& want, TimeRange range)
{
    INFO("range " << range.start << ":" << range.end);
    REQUIRE(got.samples == want.samples);
    REQUIRE(got.covered == want.covered);
    if (want.empty()) return;
    REQUIRE(got.min == want.min);
    REQUIRE(got.max == want.max);
    REQUIRE(got.weightedSum == Approx(want.weightedSum).epsilon(1e-12));
}

} // namespace

TEST_CASE("counter summaries over ranges equal a walk over the samples")
{
    for (uint32_t samples : {0u, 1u, 2u, 31u, 32u, 33u, 1025u, 40000u}) {
        test::Rng rng(samples + 7);
        const CounterTimeline timeline = test::randomTimeline(rng, samples, 1000);
        const std::vector<double> values = test::randomCounterValues(rng, samples);
        CounterLod lod;
        lod.build(timeline, values);
        const Timestamp end = samples ? timeline.end : 2000;
        for (int q = 0; q < 300; ++q) {
            const Timestamp a = Timestamp(rng.below(uint64_t(end + 2000))) - 1000;
            const Timestamp b = a + Timestamp(rng.below(uint64_t(end / (1 + rng.below(8)) + 2)));
            const TimeRange range {a, b};
            requireSame(lod.summarize(timeline, values, range), direct(timeline, values, range), range);
        }
        // The whole series: the mean over known time.
        const TimeRange all {-10, end + 10};
        requireSame(lod.summarize(timeline, values, all), direct(timeline, values, all), all);
    }
}

TEST_CASE("counter columns equal a walk over each column's samples")
{
    test::Rng rng(99);
    const CounterTimeline timeline = test::randomTimeline(rng, 70000, 0);
    const std::vector<double> values = test::randomCounterValues(rng, 70000);
    CounterLod lod;
    lod.build(timeline, values);
    // 1 and 7 columns over the whole series snap to blocks; 1920 are exact.
    CHECK(CounterLod::snapsToBlocks(timeline, {0, timeline.end}, 7));
    CHECK_FALSE(CounterLod::snapsToBlocks(timeline, {0, timeline.end}, 1920));
    for (size_t columns : {1u, 7u, 640u, 1920u}) {
        for (TimeRange window :
            {TimeRange {-500, timeline.end + 500}, TimeRange {timeline.end / 3, timeline.end / 3 + 999},
                TimeRange {timeline.end / 2, timeline.end / 2 + 5}}) {
            std::vector<CounterSummary> out(columns);
            lod.query(timeline, values, window, out);
            __extension__ typedef __int128 WideInt;
            const WideInt width = window.duration();
            const bool snapped = CounterLod::snapsToBlocks(timeline, window, columns);
            for (size_t c = 0; c < columns; ++c) {
                const TimeRange column {window.start + Timestamp(width * WideInt(c) / WideInt(columns)),
                    window.start + Timestamp(width * WideInt(c + 1) / WideInt(columns))};
                const CounterSummary exact = direct(timeline, values, column);
                if (!snapped) {
                    requireSame(out[c], exact, column);
                    continue;
                }
                // Wide columns: each edge moves by half a block at most, in whole samples.
                INFO("snapped column " << c << " of " << columns);
                const int64_t slack = int64_t(CounterLod::kBlock) + 2;
                REQUIRE(std::abs(int64_t(out[c].samples) - int64_t(exact.samples)) <= slack);
                if (exact.samples > 8 * CounterLod::kBlock)
                    REQUIRE(std::abs(out[c].mean() - exact.mean())
                        <= 100.0 * 3 * double(slack) / double(exact.samples));
            }
        }
    }
}

TEST_CASE("a single sample holds its value from its start to the timeline's end")
{
    const CounterTimeline timeline {{100}, 400};
    const std::vector<double> values {42.5};
    CounterLod lod;
    lod.build(timeline, values);
    const CounterSummary inside = lod.summarize(timeline, values, {150, 250});
    CHECK(inside.samples == 1);
    CHECK(inside.covered == 100);
    CHECK(inside.mean() == 42.5);
    CHECK(lod.summarize(timeline, values, {0, 100}).empty());
    CHECK(lod.summarize(timeline, values, {400, 500}).empty());
    CHECK(std::isnan(lod.summarize(timeline, values, {0, 100}).mean()));
}

TEST_CASE("the trace answers counter queries and rounds values to their resolution")
{
    TraceBuilder builder;
    const uint32_t timeline = builder.addCounterTimeline({{0, 100, 200}, 300});
    CounterSeries series;
    series.timeline = timeline;
    series.name = "SMs Active";
    series.unit = "%";
    series.resolution = 0.01;
    series.values = {10.004, 20.006, std::nan("")};
    builder.addCounterSeries(series);
    const Trace trace = builder.build();
    REQUIRE(trace.indexesBuilt());
    CHECK(trace.counterSeries[0].values[0] == 10.0);
    CHECK(trace.counterSeries[0].values[1] == 20.01);
    CHECK(trace.span == TimeRange {0, 300});
    const CounterSummary s = trace.counterSummary(0, {50, 300});
    CHECK(s.samples == 2);
    CHECK(s.covered == 150);
    CHECK(s.mean() == Approx((10.0 * 50 + 20.01 * 100) / 150));
    std::vector<CounterSummary> columns(3);
    trace.counterLod(0, {0, 300}, columns);
    CHECK(columns[0].max == 10.0);
    CHECK(columns[1].min == 20.01);
    CHECK(columns[2].empty());
}
