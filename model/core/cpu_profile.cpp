#include "model/core/cpu_profile.h"

#include <algorithm>

namespace sightline {

namespace {

template <class Row> std::vector<ThreadRange> threadRanges(const std::vector<Row>& rows)
{
    std::vector<ThreadRange> ranges;
    for (uint32_t i = 0; i < rows.size(); ++i) {
        if (ranges.empty() || ranges.back().tid != rows[i].tid) ranges.push_back({rows[i].tid, i, 0});
        ++ranges.back().count;
    }
    return ranges;
}

const ThreadRange* findRange(const std::vector<ThreadRange>& ranges, Tid tid)
{
    auto it = std::lower_bound(
        ranges.begin(), ranges.end(), tid, [](const ThreadRange& r, Tid t) { return r.tid < t; });
    return it != ranges.end() && it->tid == tid ? &*it : nullptr;
}

} // namespace

void CpuProfile::buildIndex()
{
    sampleThreads = threadRanges(samples);
    stateThreads = threadRanges(states);
}

std::span<const CpuSample> CpuProfile::threadSamples(Tid tid, TimeRange window) const
{
    const ThreadRange* range = findRange(sampleThreads, tid);
    if (!range) return {};
    std::span<const CpuSample> all(samples.data() + range->first, range->count);
    auto first = std::lower_bound(
        all.begin(), all.end(), window.start, [](const CpuSample& s, Timestamp t) { return s.time < t; });
    auto last = std::lower_bound(
        first, all.end(), window.end, [](const CpuSample& s, Timestamp t) { return s.time < t; });
    return {first, last};
}

std::span<const ThreadStateInterval> CpuProfile::threadStates(Tid tid, TimeRange window) const
{
    const ThreadRange* range = findRange(stateThreads, tid);
    if (!range) return {};
    std::span<const ThreadStateInterval> all(states.data() + range->first, range->count);
    // Disjoint and sorted by start, so their ends are sorted too.
    auto first = std::upper_bound(all.begin(), all.end(), window.start,
        [](Timestamp t, const ThreadStateInterval& s) { return t < effectiveEnd(s.start, s.end); });
    auto last = std::lower_bound(
        first, all.end(), window.end, [](const ThreadStateInterval& s, Timestamp t) { return s.start < t; });
    return {first, last};
}

uint32_t CpuProfile::eventStack(Tid tid, Timestamp start) const
{
    auto it = std::lower_bound(eventStacks.begin(), eventStacks.end(), std::pair(tid, start),
        [](const EventStack& e, std::pair<Tid, Timestamp> key) { return std::pair(e.tid, e.start) < key; });
    return it != eventStacks.end() && it->tid == tid && it->start == start ? it->stack : kNoCallStack;
}

std::vector<uint32_t> CpuProfile::framesOf(uint32_t stack) const
{
    std::vector<uint32_t> frameIds;
    // Parents lie below their children, so the walk ends; the bound guards damaged input.
    while (stack < stacks.size() && frameIds.size() <= stacks.size()) {
        frameIds.push_back(stacks[stack].frame);
        stack = stacks[stack].parent;
    }
    return frameIds;
}

bool CpuProfile::sameContent(const CpuProfile& other) const
{
    return frames == other.frames && stacks == other.stacks && samples == other.samples
        && states == other.states && eventStacks == other.eventStacks
        && samplingPeriod == other.samplingPeriod;
}

const char* threadStateName(ThreadState state)
{
    switch (state) {
    case ThreadState::Running:
        return "Running";
    case ThreadState::Runnable:
        return "Runnable";
    case ThreadState::Sleeping:
        return "Sleeping";
    case ThreadState::Blocked:
        return "Blocked";
    case ThreadState::WaitingIo:
        return "Waiting on I/O";
    case ThreadState::Waiting:
        return "Waiting";
    }
    return "Unknown";
}

} // namespace sightline
