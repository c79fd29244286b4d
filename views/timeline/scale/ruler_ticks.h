// Where the time ruler puts its ticks and what their labels say. Steps are 1, 2 or 5 times a
// power of ten nanoseconds, the smallest whose labelled ticks stay `minLabelSpacing` pixels
// apart; every labelled (major) tick is followed by minor ticks at a fifth or a half of it.
// Labels are session-relative. When absolute labels would need more than six decimals of a
// second, the ruler shows a base time once and offsets ("+20 ns") at the ticks, as Nsight
// Systems does when zoomed in deeply. Qt-free, unit-tested.
#pragma once

#include "views/timeline/scale/time_scale.h"

#include <string>
#include <vector>

namespace sightline::views {

struct RulerTick
{
    Timestamp time = 0;
    double x = 0;
    bool major = false;
    std::string label; // major ticks only
};

struct RulerPlan
{
    Duration majorStep = 0;
    Duration minorStep = 0;
    std::string baseLabel; // non-empty when the labels are offsets from `base`
    Timestamp base = 0;
    std::vector<RulerTick> ticks;
};

// The step of 1, 2 or 5 * 10^k ns closest above `minimum`.
Duration niceStep(Duration minimum);

RulerPlan planRuler(const TimeScale& scale, double minLabelSpacing);

} // namespace sightline::views
