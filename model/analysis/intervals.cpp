#include "model/analysis/intervals.h"

#include <algorithm>

namespace sightline {

namespace {

bool startsBefore(const Interval& a, const Interval& b)
{
    return a.start < b.start;
}

// Joins overlapping and touching neighbours of a list sorted by start; drops empty ones.
Intervals coalesced(const std::vector<Interval>& sorted)
{
    Intervals out;
    out.reserve(sorted.size());
    for (const Interval& i : sorted) {
        if (i.end <= i.start) continue;
        if (!out.empty() && i.start <= out.back().end)
            out.back().end = std::max(out.back().end, i.end);
        else
            out.push_back(i);
    }
    return out;
}

// The first interval ending after `t`.
Intervals::const_iterator firstEndingAfter(const Intervals& intervals, Timestamp t)
{
    return std::upper_bound(intervals.begin(), intervals.end(), t,
        [](Timestamp value, const Interval& i) { return value < i.end; });
}

} // namespace

Intervals mergeRuns(std::vector<Interval> values, std::vector<size_t> runStarts)
{
    mergeSortedRuns(values, std::move(runStarts), startsBefore);
    return coalesced(values);
}

Intervals unionOf(const Intervals& a, const Intervals& b)
{
    std::vector<Interval> both;
    both.reserve(a.size() + b.size());
    std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both), startsBefore);
    return coalesced(both);
}

IntervalSet::IntervalSet(Intervals intervals)
    : m_intervals(std::move(intervals))
{
    m_prefix.reserve(m_intervals.size() + 1);
    m_prefix.push_back(0);
    for (const Interval& i : m_intervals)
        m_prefix.push_back(m_prefix.back() + i.duration());
}

Duration IntervalSet::covered(TimeRange range) const
{
    return covered(std::vector<TimeRange> {range});
}

Duration IntervalSet::covered(const std::vector<TimeRange>& rangesByStart) const
{
    // From `from`, the first interval for which `before` is false, galloping: O(log distance).
    const auto gallop = [this](size_t from, auto before) {
        const size_t n = m_intervals.size();
        size_t below = from, above = from, step = 1;
        while (above < n && before(m_intervals[above])) {
            below = above + 1;
            above += step;
            step *= 2;
        }
        return size_t(std::partition_point(m_intervals.begin() + std::ptrdiff_t(below),
                          m_intervals.begin() + std::ptrdiff_t(std::min(above, n)), before)
            - m_intervals.begin());
    };
    Duration total = 0;
    size_t first = 0; // the first interval ending after the range's start: it only moves on
    for (const TimeRange& range : rangesByStart) {
        if (range.empty()) continue;
        first = gallop(first, [&](const Interval& i) { return i.end <= range.start; });
        const size_t last = gallop(first, [&](const Interval& i) { return i.start < range.end; });
        if (first >= last) continue;
        total += m_prefix[last] - m_prefix[first];
        total -= std::max<Duration>(0, range.start - m_intervals[first].start);
        total -= std::max<Duration>(0, m_intervals[last - 1].end - range.end);
    }
    return total;
}

Intervals gapsWithin(const Intervals& intervals, TimeRange range)
{
    Intervals gaps;
    Timestamp cursor = range.start;
    for (auto it = firstEndingAfter(intervals, range.start); it != intervals.end() && it->start < range.end;
         ++it) {
        if (it->start > cursor) gaps.push_back({cursor, it->start});
        cursor = std::max(cursor, it->end);
    }
    if (cursor < range.end) gaps.push_back({cursor, range.end});
    return gaps;
}

} // namespace sightline
