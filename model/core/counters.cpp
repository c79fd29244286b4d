#include "model/core/counters.h"

#include <algorithm>
#include <cmath>

namespace sightline {

bool CounterSeries::operator==(const CounterSeries& other) const
{
    // NaN marks an unknown sample: two unknown samples are equal.
    auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
    return source == other.source && device == other.device && pid == other.pid && timeline == other.timeline
        && name == other.name && unit == other.unit && description == other.description
        && resolution == other.resolution
        && std::equal(values.begin(), values.end(), other.values.begin(), other.values.end(), same);
}

double roundToResolution(double value, double resolution)
{
    if (std::isnan(value) || !(resolution > 0)) return value;
    const double steps = std::nearbyint(value / resolution);
    // Past 2^53 steps (or infinite) a value has no exact multiple: it is not known.
    if (!(std::fabs(steps) < 9007199254740992.0)) return std::nan("");
    return steps * resolution;
}

} // namespace sightline
