#include "views/timeline/scale/ruler_ticks.h"

#include "model/text/time_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sightline::views {
namespace {

constexpr int kMaxAbsoluteDecimals = 6;

// Floor division that rounds towards minus infinity for negative times too.
Timestamp floorToStep(Timestamp t, Duration step)
{
    Timestamp q = t / step;
    if (t % step != 0 && t < 0) --q;
    return q * step;
}

// The 1, 2 or 5 of a step of 1, 2 or 5 * 10^k.
Duration leadingDigit(Duration step)
{
    while (step >= 10 && step % 10 == 0)
        step /= 10;
    return step;
}

// "+20 ns", "+12.5 µs": an offset in the largest unit not above it, with the decimals that
// show every multiple of the step exactly.
std::string offsetLabel(Duration offset, Duration step)
{
    const Duration magnitude = std::max(offset, step);
    struct Unit
    {
        Duration ns;
        const char* name;
    };
    static constexpr Unit kUnits[] = {{1000000000, "s"}, {1000000, "ms"}, {1000, "\xC2\xB5s"}, {1, "ns"}};
    for (const Unit& unit : kUnits) {
        if (magnitude < unit.ns && unit.ns != 1) continue;
        int decimals = 0;
        for (Duration s = step; s % unit.ns != 0 && decimals < 9; s *= 10)
            ++decimals;
        char text[64];
        std::snprintf(text, sizeof text, "+%.*f %s", decimals, double(offset) / double(unit.ns), unit.name);
        return text;
    }
    return std::string("+") + std::to_string(offset) + " ns";
}

} // namespace

Duration niceStep(Duration minimum)
{
    Duration power = 1;
    while (true) {
        for (Duration multiple : {1, 2, 5}) {
            if (power * multiple >= minimum) return power * multiple;
        }
        if (power > Duration(1) << 58) return power * 10;
        power *= 10;
    }
}

RulerPlan planRuler(const TimeScale& scale, double minLabelSpacing)
{
    RulerPlan plan;
    const double nsPerPixel = scale.nanosecondsPerPixel();
    plan.majorStep = niceStep(std::max<Duration>(1, Duration(std::ceil(minLabelSpacing * nsPerPixel))));
    plan.minorStep = std::max<Duration>(1, plan.majorStep / (leadingDigit(plan.majorStep) == 2 ? 4 : 5));
    if (plan.majorStep % plan.minorStep != 0) plan.minorStep = plan.majorStep;

    const TimeRange visible = scale.visible();
    const bool offsets = decimalsForResolution(plan.majorStep) > kMaxAbsoluteDecimals;
    if (offsets) {
        // The base is a round time just before the window, so the offsets stay short.
        plan.base = floorToStep(visible.start, plan.majorStep * 1000);
        if (visible.start - plan.base > plan.majorStep * 100)
            plan.base = floorToStep(visible.start, plan.majorStep);
        plan.baseLabel = formatTimestamp(plan.base, 1);
    }
    for (Timestamp t = floorToStep(visible.start, plan.minorStep); t <= visible.end; t += plan.minorStep) {
        if (t < visible.start) continue;
        RulerTick tick;
        tick.time = t;
        tick.x = scale.timeToX(t);
        tick.major = floorToStep(t, plan.majorStep) == t;
        if (tick.major)
            tick.label
                = offsets ? offsetLabel(t - plan.base, plan.majorStep) : formatTimestamp(t, plan.majorStep);
        plan.ticks.push_back(std::move(tick));
    }
    return plan;
}

} // namespace sightline::views
