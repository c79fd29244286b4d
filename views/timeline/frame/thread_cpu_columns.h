// What a thread's CPU row shows in each pixel column of a frame: the thread state that covers
// most of the column, and how many samples were taken in it (and how many of those are
// highlighted, sample_marks.h). The row draws the states as a thin strip along its bottom and
// the samples as ticks above it: one tick per sample when zoomed in, and when zoomed out a
// column as tall as its sample density (samples per sampling period).
//
// Cost per frame: columns are searched one after another, each from where the last ended, with
// doubling steps. A column's samples are found in a dense copy of every kSampleSkip-th sample's
// time (so the search stays in cache), then in one block of samples. Its state comes from
// per-block running totals (the time spent in each state before every kStateBlock-th interval
// of CpuProfile::states), so a column holding a million intervals costs two searches and two
// scans of under kStateBlock intervals, and a state that covers the column whole one search.
// About O(columns * log n) per thread, never a walk over the window's samples or intervals.
// Built once per trace in O(samples + intervals): 0.25 bytes per sample, 3 per interval.
#pragma once

#include "model/core/cpu_profile.h"
#include "views/timeline/frame/sample_marks.h"
#include "views/timeline/scale/time_scale.h"

#include <array>
#include <span>
#include <vector>

namespace sightline::views {

inline constexpr int8_t kNoThreadState = -1;

struct ThreadCpuColumn
{
    int8_t state = kNoThreadState; // the ThreadState covering most of the column
    uint32_t samples = 0;
    uint32_t highlighted = 0;
};

// Where a CPU lane draws, in pixels above its bottom edge (as DrawBand counts them): the state
// strip in [stripLow, stripHigh), the sample ticks in [tickLow, tickHigh).
struct ThreadCpuBands
{
    int stripLow = 0, stripHigh = 0;
    int tickLow = 0, tickHigh = 0;
};
ThreadCpuBands threadCpuBands(int laneHeight);

class ThreadCpuColumns
{
public:
    static constexpr uint32_t kStateBlock = 16;
    static constexpr uint32_t kSampleSkip = 32;

    explicit ThreadCpuColumns(const CpuProfile& cpu);

    // Column c of `out` covers `window.column(c)`; `marks` (may be null) counts highlighted samples.
    void fill(
        Tid tid, const TimeScale& window, const SampleMarks* marks, std::span<ThreadCpuColumn> out) const;

private:
    using StateTimes = std::array<Duration, kThreadStateCount>;
    // The time spent in each state by the intervals of CpuProfile::states before `interval`.
    StateTimes timeBefore(size_t interval) const;
    void fillStates(Tid tid, const TimeScale& window, std::span<ThreadCpuColumn> out) const;
    void fillSamples(
        Tid tid, const TimeScale& window, const SampleMarks* marks, std::span<ThreadCpuColumn> out) const;
    // The first sample in [from, last) (one thread's) taken at or after `time`.
    size_t firstSampleAt(size_t from, size_t last, Timestamp time) const;

    const CpuProfile& m_cpu;
    std::vector<StateTimes> m_blockTimes; // timeBefore(b * kStateBlock) for every block b
    std::vector<Timestamp> m_sampleSkips; // the time of every kSampleSkip-th sample
};

} // namespace sightline::views
