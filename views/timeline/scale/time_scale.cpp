#include "views/timeline/scale/time_scale.h"

#include <algorithm>
#include <cmath>

namespace sightline::views {

TimeRange atLeastMinimumDuration(TimeRange range)
{
    if (range.end < range.start) std::swap(range.start, range.end);
    const Duration missing = TimeScale::kMinimumDuration - range.duration();
    if (missing <= 0) return range;
    range.start -= missing / 2;
    range.end = range.start + TimeScale::kMinimumDuration;
    return range;
}

TimeRange framing(TimeRange event, double marginFraction)
{
    const Duration margin
        = Duration(std::llround(double(std::max<Duration>(event.duration(), 1)) * marginFraction));
    return atLeastMinimumDuration({event.start - margin, event.end + margin});
}

TimeScale::TimeScale(TimeRange visible, double widthPixels)
    : m_visible(atLeastMinimumDuration(visible))
    , m_width(std::max(1.0, widthPixels))
{ }

double TimeScale::timeToX(Timestamp t) const
{
    return double(t - m_visible.start) * m_width / double(m_visible.duration());
}

Timestamp TimeScale::xToTime(double x) const
{
    return m_visible.start + Timestamp(std::llround(x * double(m_visible.duration()) / m_width));
}

TimeScale TimeScale::zoomedAround(double x, double factor) const
{
    if (!(factor > 0)) return *this;
    const double anchor = double(m_visible.start) + x * double(m_visible.duration()) / m_width;
    const double duration = std::max(double(kMinimumDuration), double(m_visible.duration()) / factor);
    // Keep the anchor exact: it is rounded once, and the start is placed from it.
    const Timestamp anchorTime = Timestamp(std::llround(anchor));
    const Timestamp start = anchorTime - Timestamp(std::llround(x / m_width * duration));
    return TimeScale({start, start + Timestamp(std::llround(duration))}, m_width);
}

TimeScale TimeScale::pannedBy(double pixels) const
{
    const Duration shift = Duration(std::llround(pixels * nanosecondsPerPixel()));
    return TimeScale({m_visible.start + shift, m_visible.end + shift}, m_width);
}

TimeScale TimeScale::clampedTo(TimeRange bounds) const
{
    if (bounds.empty()) return *this;
    TimeRange range = m_visible;
    if (range.duration() >= bounds.duration()) return TimeScale(bounds, m_width);
    if (range.start < bounds.start) range = {bounds.start, bounds.start + m_visible.duration()};
    if (range.end > bounds.end) range = {bounds.end - m_visible.duration(), bounds.end};
    return TimeScale(range, m_width);
}

} // namespace sightline::views
