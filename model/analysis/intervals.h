// Time as sorted, disjoint intervals: a GPU's busy time, its gaps, and the sums over a range
// that the breakdown and the verdict need. Building them costs O(n log k) for k sorted runs
// (a track's lanes are sorted already), never a full sort.
#pragma once

#include "model/core/time.h"

#include <algorithm>
#include <vector>

namespace sightline {

struct Interval
{
    Timestamp start = 0;
    Timestamp end = 0;
    Duration duration() const { return end - start; }
};
using Intervals = std::vector<Interval>; // sorted, disjoint

// Sorts `values` made of runs each sorted already (run r starts at runStarts[r]) by merging
// neighbouring runs until one is left: O(n log runs).
template <class T, class Less>
void mergeSortedRuns(std::vector<T>& values, std::vector<size_t> runStarts, Less less)
{
    runStarts.push_back(values.size());
    while (runStarts.size() > 2) {
        std::vector<size_t> next;
        for (size_t r = 0; r + 1 < runStarts.size(); r += 2) {
            next.push_back(runStarts[r]);
            if (r + 2 < runStarts.size())
                std::inplace_merge(values.begin() + std::ptrdiff_t(runStarts[r]),
                    values.begin() + std::ptrdiff_t(runStarts[r + 1]),
                    values.begin() + std::ptrdiff_t(runStarts[r + 2]), less);
        }
        next.push_back(values.size());
        runStarts = std::move(next);
    }
}

// Intervals made of runs each sorted by start (run r is [runStarts[r], runStarts[r + 1]), the
// last up to the end): merged, with overlapping and touching intervals joined.
Intervals mergeRuns(std::vector<Interval> values, std::vector<size_t> runStarts);
// The union of two interval lists.
Intervals unionOf(const Intervals& a, const Intervals& b);
// Intervals with the running sum of their lengths: the time they cover in any range in
// O(log n), however many intervals the range holds.
class IntervalSet
{
public:
    IntervalSet() = default;
    explicit IntervalSet(Intervals intervals);
    const Intervals& intervals() const { return m_intervals; }
    bool empty() const { return m_intervals.empty(); }
    Duration total() const { return m_prefix.empty() ? 0 : m_prefix.back(); }
    // The parts of the intervals inside `range`, summed.
    Duration covered(TimeRange range) const;
    // The same summed over many ranges sorted by start (they may overlap), in one sweep.
    Duration covered(const std::vector<TimeRange>& rangesByStart) const;

private:
    Intervals m_intervals;
    std::vector<Duration> m_prefix; // m_prefix[i]: the length of intervals [0, i)
};
// The gaps between `intervals` inside `range` (its start to the first, between, last to its end).
Intervals gapsWithin(const Intervals& intervals, TimeRange range);

} // namespace sightline
