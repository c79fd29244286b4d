#include "views/timeline/frame/thread_cpu_columns.h"

#include "views/timeline/frame/draw_list.h"

#include <algorithm>

namespace sightline::views {
namespace {

Duration lengthOf(const ThreadStateInterval& s)
{
    return std::max<Duration>(0, s.end - s.start);
}

Timestamp endOf(const ThreadStateInterval& s)
{
    return effectiveEnd(s.start, s.end);
}

size_t stateIndex(const ThreadStateInterval& s)
{
    return std::min<size_t>(size_t(s.state), kThreadStateCount - 1);
}

// The first position in [first, last) where `before` turns false (it holds for a prefix),
// found by doubling steps from `first`: O(log distance), so consecutive columns searching
// from where the last one ended read memory close together.
template <class It, class Before> It gallop(It first, It last, Before before)
{
    size_t step = 1;
    while (size_t(last - first) > step && before(first[ptrdiff_t(step)])) {
        first += ptrdiff_t(step);
        step *= 2;
    }
    return std::partition_point(
        first, size_t(last - first) > step ? first + ptrdiff_t(step) + 1 : last, before);
}

// Column c covers at least a nanosecond, so that a sample or state in it is found.
TimeRange columnOf(const TimeScale& window, size_t c)
{
    const TimeRange column = window.column(int(c));
    return {column.start, std::max(column.end, column.start + 1)};
}

} // namespace

ThreadCpuBands threadCpuBands(int laneHeight)
{
    const int inner = laneInnerHeight(laneHeight);
    ThreadCpuBands bands;
    bands.stripHigh = std::clamp(inner * 3 / 10, 1, inner);
    bands.tickLow = std::min(inner, bands.stripHigh + 1);
    bands.tickHigh = inner;
    return bands;
}

ThreadCpuColumns::ThreadCpuColumns(const CpuProfile& cpu)
    : m_cpu(cpu)
{
    const std::vector<ThreadStateInterval>& states = cpu.states;
    m_blockTimes.reserve(states.size() / kStateBlock + 1);
    StateTimes running {};
    for (size_t i = 0; i < states.size(); ++i) {
        if (i % kStateBlock == 0) m_blockTimes.push_back(running);
        running[stateIndex(states[i])] += lengthOf(states[i]);
    }
    if (states.size() % kStateBlock == 0) m_blockTimes.push_back(running);
    m_sampleSkips.reserve(cpu.samples.size() / kSampleSkip + 1);
    for (size_t i = 0; i < cpu.samples.size(); i += kSampleSkip)
        m_sampleSkips.push_back(cpu.samples[i].time);
}

size_t ThreadCpuColumns::firstSampleAt(size_t from, size_t last, Timestamp time) const
{
    const CpuSample* base = m_cpu.samples.data();
    auto earlier = [&](const CpuSample& s) { return s.time < time; };
    // Skip entries [first, end) name samples inside (from, last), so their times are sorted.
    const size_t first = from / kSampleSkip + 1, end = (last + kSampleSkip - 1) / kSampleSkip;
    if (first >= end) return size_t(std::partition_point(base + from, base + last, earlier) - base);
    const auto skips = m_sampleSkips.begin();
    const size_t k = size_t(gallop(skips + ptrdiff_t(first), skips + ptrdiff_t(end), [&](Timestamp t) {
        return t < time;
    }) - skips);
    // The samples before skip entry k - 1 are earlier than `time`; the one at entry k is not.
    const size_t low = k > first ? (k - 1) * kSampleSkip : from;
    const size_t high = k < end ? k * kSampleSkip : last;
    return size_t(std::partition_point(base + low, base + high, earlier) - base);
}

ThreadCpuColumns::StateTimes ThreadCpuColumns::timeBefore(size_t interval) const
{
    const size_t block = interval / kStateBlock;
    StateTimes times = m_blockTimes[block];
    for (size_t i = block * kStateBlock; i < interval; ++i)
        times[stateIndex(m_cpu.states[i])] += lengthOf(m_cpu.states[i]);
    return times;
}

void ThreadCpuColumns::fill(
    Tid tid, const TimeScale& window, const SampleMarks* marks, std::span<ThreadCpuColumn> out) const
{
    std::fill(out.begin(), out.end(), ThreadCpuColumn {});
    fillStates(tid, window, out);
    fillSamples(tid, window, marks, out);
}

void ThreadCpuColumns::fillStates(Tid tid, const TimeScale& window, std::span<ThreadCpuColumn> out) const
{
    const std::span<const ThreadStateInterval> all = m_cpu.threadStates(tid, window.visible());
    if (all.empty()) return;
    const ThreadStateInterval* const base = m_cpu.states.data();
    auto first = all.begin();
    for (size_t c = 0; c < out.size(); ++c) {
        const TimeRange column = columnOf(window, c);
        // The first interval ending after the column starts (a thread's intervals are
        // disjoint and sorted, so their ends are sorted too).
        first = gallop(
            first, all.end(), [&](const ThreadStateInterval& s) { return endOf(s) <= column.start; });
        if (first == all.end()) break;
        if (first->start >= column.end) continue;
        if (first->start <= column.start && endOf(*first) >= column.end) {
            out[c].state = int8_t(stateIndex(*first));
            continue;
        }
        const auto last
            = gallop(first, all.end(), [&](const ThreadStateInterval& s) { return s.start < column.end; });
        StateTimes times = timeBefore(size_t(&*(last - 1) - base) + 1);
        const StateTimes before = timeBefore(size_t(&*first - base));
        for (size_t s = 0; s < kThreadStateCount; ++s)
            times[s] -= before[s];
        // Only the parts of the outer intervals inside the column count.
        auto clip = [&](const ThreadStateInterval& s) {
            const Duration outside
                = std::max<Duration>(0, column.start - s.start) + std::max<Duration>(0, s.end - column.end);
            times[stateIndex(s)] -= std::min(outside, lengthOf(s));
        };
        clip(*first);
        if (last - 1 != first) clip(*(last - 1));
        const auto most = std::max_element(times.begin(), times.end());
        out[c].state = int8_t(*most > 0 ? size_t(most - times.begin()) : stateIndex(*first));
    }
}

void ThreadCpuColumns::fillSamples(
    Tid tid, const TimeScale& window, const SampleMarks* marks, std::span<ThreadCpuColumn> out) const
{
    const std::span<const CpuSample> all = m_cpu.threadSamples(tid, window.visible());
    if (all.empty()) return;
    size_t from = size_t(all.data() - m_cpu.samples.data());
    const size_t last = from + all.size();
    for (size_t c = 0; c < out.size() && from < last; ++c) {
        const size_t to = firstSampleAt(from, last, columnOf(window, c).end);
        out[c].samples = uint32_t(to - from);
        if (marks && to > from) out[c].highlighted = marks->count(from, to);
        from = to;
    }
}

} // namespace sightline::views
