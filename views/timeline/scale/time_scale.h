// The timeline's time <-> pixel mapping: a visible window [start, end) of the session laid
// over `width` pixels, x = (t - start) * width / duration. A plain value type with no Qt, so
// every zoom and pan rule is unit-tested on its own. Invariant: the window is never shorter
// than kMinimumDuration and the width is never below one pixel, so the mapping is always
// invertible; zooming around a pixel keeps the time under that pixel where it was.
#pragma once

#include "model/core/time.h"

namespace sightline::views {

class TimeScale
{
public:
    static constexpr Duration kMinimumDuration = 50; // ns: about 40 pixels per ns on a 2K screen

    TimeScale() = default;
    TimeScale(TimeRange visible, double widthPixels);

    TimeRange visible() const { return m_visible; }
    double width() const { return m_width; }
    double nanosecondsPerPixel() const { return double(m_visible.duration()) / m_width; }

    double timeToX(Timestamp t) const;
    double durationToWidth(Duration d) const { return double(d) * m_width / double(m_visible.duration()); }
    // The time at pixel position x (fractional pixels allowed), rounded to the nearest ns.
    Timestamp xToTime(double x) const;
    // The time covered by pixel column [x, x + 1).
    TimeRange column(int x) const { return {xToTime(x), xToTime(x + 1.0)}; }

    // `factor` > 1 zooms in. The time under pixel x stays under x (to the nanosecond).
    TimeScale zoomedAround(double x, double factor) const;
    // Moves the window right by `pixels` (the content moves left).
    TimeScale pannedBy(double pixels) const;
    // Keeps the window inside `bounds`: shifted back in when it sticks out, and no longer than
    // the bounds. Empty bounds leave the window as it is.
    TimeScale clampedTo(TimeRange bounds) const;
    TimeScale withWidth(double widthPixels) const { return TimeScale(m_visible, widthPixels); }

    friend bool operator==(const TimeScale&, const TimeScale&) = default;

private:
    TimeRange m_visible {0, 1000000000};
    double m_width = 1000;
};

// A window of at least TimeScale::kMinimumDuration, grown around its centre when shorter.
TimeRange atLeastMinimumDuration(TimeRange range);

// A window showing `event` with a margin of `marginFraction` of its duration on each side.
TimeRange framing(TimeRange event, double marginFraction);

} // namespace sightline::views
