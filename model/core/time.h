// Time in the model: int64 nanoseconds since session start, ranges half-open [start, end).
// An instant (start == end) is treated as occupying [start, start + 1) when it is located.
#pragma once

#include <algorithm>
#include <cstdint>

namespace sightline {

using Timestamp = int64_t;
using Duration = int64_t;

struct TimeRange
{
    Timestamp start = 0;
    Timestamp end = 0;

    constexpr Duration duration() const { return end - start; }
    constexpr bool empty() const { return end <= start; }
    constexpr bool contains(Timestamp t) const { return t >= start && t < end; }
    friend constexpr bool operator==(TimeRange, TimeRange) = default;
};

// The end used when locating an event: an instant counts as one nanosecond long (except at the
// very end of time, where start + 1 would overflow).
constexpr Timestamp effectiveEnd(Timestamp start, Timestamp end)
{
    return std::max(end, start < INT64_MAX ? start + 1 : start);
}

// True when the event [start, end) overlaps the half-open window.
constexpr bool overlaps(Timestamp start, Timestamp end, TimeRange window)
{
    return start < window.end && effectiveEnd(start, end) > window.start;
}

} // namespace sightline
