// The timeline's pure maths: time <-> pixel mapping, zoom and pan rules, time formatting,
// ruler ticks and the zoom history. No widgets.
#include "model/text/time_text.h"
#include "views/timeline/scale/ruler_ticks.h"
#include "views/timeline/scale/time_scale.h"
#include "views/timeline/scale/zoom_history.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <set>

using namespace sightline;
using namespace sightline::views;

TEST_CASE("A time scale maps the window's ends to the canvas's edges and back")
{
    const TimeScale scale({2000, 12000}, 1000);
    CHECK(scale.timeToX(2000) == 0.0);
    CHECK(scale.timeToX(12000) == 1000.0);
    CHECK(scale.timeToX(7000) == 500.0);
    CHECK(scale.xToTime(0) == 2000);
    CHECK(scale.xToTime(1000) == 12000);
    CHECK(scale.xToTime(250.5) == 4505);
    CHECK(scale.nanosecondsPerPixel() == 10.0);
    CHECK(scale.column(3) == TimeRange {2030, 2040});
}

TEST_CASE("A time scale never gets shorter than the minimum duration or narrower than a pixel")
{
    const TimeScale tiny({100, 100}, 0);
    CHECK(tiny.visible().duration() == TimeScale::kMinimumDuration);
    CHECK(tiny.visible().start <= 100);
    CHECK(tiny.visible().end >= 100);
    CHECK(tiny.width() == 1.0);
    const TimeScale zoomedFar = TimeScale({0, 1000}, 500).zoomedAround(250, 1e9);
    CHECK(zoomedFar.visible().duration() == TimeScale::kMinimumDuration);
}

TEST_CASE("Zooming around a pixel keeps the time under it, to the nanosecond")
{
    std::mt19937_64 random(7);
    for (int round = 0; round < 2000; ++round) {
        const Timestamp start = Timestamp(random() % 100000000000ull);
        const Duration duration = 100 + Duration(random() % 50000000000ull);
        const double width = 200 + double(random() % 3000);
        const TimeScale scale({start, start + duration}, width);
        const double x = std::uniform_real_distribution<double>(0, width)(random);
        const double factor = std::pow(2.0, std::uniform_real_distribution<double>(-6, 6)(random));
        const TimeScale zoomed = scale.zoomedAround(x, factor);
        INFO("start " << start << " duration " << duration << " width " << width << " x " << x << " factor "
                      << factor);
        CHECK(std::llabs(zoomed.xToTime(x) - scale.xToTime(x)) <= 1);
        if (zoomed.visible().duration() > TimeScale::kMinimumDuration)
            CHECK(double(zoomed.visible().duration())
                == Approx(double(duration) / factor).epsilon(1e-6).margin(2));
    }
}

TEST_CASE("Panning moves the window by whole pixels' worth of time")
{
    const TimeScale scale({1000, 11000}, 1000);
    CHECK(scale.pannedBy(10).visible() == TimeRange {1100, 11100});
    CHECK(scale.pannedBy(-25).visible() == TimeRange {750, 10750});
}

TEST_CASE("Clamping keeps the window inside the bounds without changing its length")
{
    const TimeRange bounds {0, 100000};
    CHECK(TimeScale({-500, 9500}, 100).clampedTo(bounds).visible() == TimeRange {0, 10000});
    CHECK(TimeScale({95000, 105000}, 100).clampedTo(bounds).visible() == TimeRange {90000, 100000});
    CHECK(TimeScale({-10, 200000}, 100).clampedTo(bounds).visible() == bounds);
    CHECK(TimeScale({500, 1500}, 100).clampedTo(bounds).visible() == TimeRange {500, 1500});
}

TEST_CASE("Framing an event adds the margin on both sides")
{
    CHECK(framing({1000, 2000}, 0.1) == TimeRange {900, 2100});
    CHECK(framing({1000, 1000}, 0.1).duration() == TimeScale::kMinimumDuration);
}

TEST_CASE("Durations use an adaptive unit")
{
    CHECK(formatDuration(0) == "0 ns");
    CHECK(formatDuration(850) == "850 ns");
    CHECK(formatDuration(12345) == "12.345 \xC2\xB5s");
    CHECK(formatDuration(123301000) == "123.301 ms");
    CHECK(formatDuration(2500000000) == "2.500 s");
    CHECK(formatDuration(-1500) == "-1.500 \xC2\xB5s");
}

TEST_CASE("Timestamps are seconds with the decimals their resolution needs")
{
    CHECK(formatTimestamp(12345678901, 1) == "12.345678901 s");
    CHECK(formatTimestamp(12345678901, 1000000) == "12.345 s");
    CHECK(formatTimestamp(12345678901, 1000) == "12.345678 s");
    CHECK(formatTimestamp(2000000000, 1000000000) == "2.0 s");
    CHECK(formatTimestamp(-1500000000, 1000000) == "-1.500 s");
    CHECK(decimalsForResolution(1) == 9);
    CHECK(decimalsForResolution(100) == 7);
}

TEST_CASE("Bytes and throughput read as Nsight Systems shows them")
{
    CHECK(formatBytes(512) == "512 B");
    CHECK(formatBytes(4096) == "4.000 KiB");
    CHECK(formatBytes(3u << 29) == "1.500 GiB");
    CHECK(formatThroughput(1000000000, 100000000) == "10.000 GB/s");
    CHECK(formatThroughput(1000, 0) == "-");
}

TEST_CASE("Nice steps are 1, 2 or 5 times a power of ten")
{
    CHECK(niceStep(1) == 1);
    CHECK(niceStep(3) == 5);
    CHECK(niceStep(6) == 10);
    CHECK(niceStep(11) == 20);
    CHECK(niceStep(1999) == 2000);
    CHECK(niceStep(2001) == 5000);
}

TEST_CASE("Ruler ticks are ordered, inside the window, and labelled far enough apart")
{
    std::mt19937_64 random(11);
    for (int round = 0; round < 500; ++round) {
        const Timestamp start = Timestamp(random() % 200000000000ull);
        const Duration duration = 50 + Duration(random() % 100000000000ull);
        const double width = 300 + double(random() % 2000);
        const TimeScale scale({start, start + duration}, width);
        const RulerPlan plan = planRuler(scale, 100);
        INFO("start " << start << " duration " << duration << " width " << width);
        REQUIRE_FALSE(plan.ticks.empty());
        CHECK(plan.majorStep % plan.minorStep == 0);
        CHECK(double(plan.majorStep) / scale.nanosecondsPerPixel() >= 100 - 1e-9);
        std::set<std::string> labels;
        double lastMajor = -1e18;
        for (size_t i = 0; i < plan.ticks.size(); ++i) {
            const RulerTick& tick = plan.ticks[i];
            CHECK((scale.visible().contains(tick.time) || tick.time == scale.visible().end));
            if (i > 0) CHECK(tick.time > plan.ticks[i - 1].time);
            if (!tick.major) continue;
            CHECK(tick.time % plan.majorStep == 0);
            CHECK(tick.x - lastMajor >= 99.9);
            lastMajor = tick.x;
            CHECK(labels.insert(tick.label).second);
        }
    }
}

TEST_CASE("Deeply zoomed rulers label offsets from a base time")
{
    const TimeScale scale({12345678900, 12345679900}, 1000); // 1 us over 1000 px
    const RulerPlan plan = planRuler(scale, 100);
    CHECK(plan.majorStep == 100);
    CHECK(plan.baseLabel == formatTimestamp(plan.base, 1));
    CHECK(plan.base <= scale.visible().start);
    for (const RulerTick& tick : plan.ticks)
        if (tick.major) CHECK(tick.label.front() == '+');
    const RulerPlan coarse = planRuler(TimeScale({0, 10000000000}, 1000), 100);
    CHECK(coarse.baseLabel.empty());
    CHECK(coarse.ticks.front().label == "0.0 s");
}

TEST_CASE("The zoom history goes back and forward like a browser's")
{
    ZoomHistory history;
    const TimeRange a {0, 100}, b {10, 20}, c {12, 14};
    CHECK_FALSE(history.back(a));
    history.record(a); // a -> b
    history.record(b); // b -> c
    CHECK(history.back(c) == b);
    CHECK(history.back(b) == a);
    CHECK_FALSE(history.back(a));
    CHECK(history.forward(a) == b);
    CHECK(history.forward(b) == c);
    CHECK_FALSE(history.forward(c));
    CHECK(history.back(c) == b);
    history.record(b); // a new jump from b forgets c
    CHECK_FALSE(history.canGoForward());
}

TEST_CASE("A gesture is recorded once, however many steps it takes")
{
    ZoomHistory history;
    const TimeRange start {0, 1000};
    history.recordGestureStep(start, 0);
    history.recordGestureStep({100, 900}, 100);
    history.recordGestureStep({200, 800}, 200);
    CHECK(history.back({300, 700}) == start);
    CHECK_FALSE(history.canGoBack());
    history.recordGestureStep({300, 700}, 5000);
    history.recordGestureStep({350, 650}, 5000 + ZoomHistory::kGestureGapMs + 1);
    CHECK(history.back({400, 600}) == TimeRange {350, 650});
    CHECK(history.back({350, 650}) == TimeRange {300, 700});
}
