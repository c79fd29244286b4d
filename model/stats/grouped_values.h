// Values (durations or byte counts) gathered per group into one flat array, in two passes
// over the events like a counting sort: first count() each event's group, then, after
// startFilling(), add() each event's value. Group g's values then lie contiguously in
// values(g). No allocation happens per event; groups are small dense integers handed out by
// the caller in increasing order (0, 1, 2, ...). summarize() turns one group's values into
// the statistics a report row shows.
#pragma once

#include "model/stats/stats_report.h"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace sightline {

class GroupedValues
{
public:
    // Pass 1: one call per event. `group` is at most the number of groups seen so far.
    void count(uint32_t group)
    {
        if (group >= m_counts.size()) m_counts.resize(size_t(group) + 1, 0);
        ++m_counts[group];
    }

    // Between the passes: lays out one slice per group.
    void startFilling();

    // Pass 2: one call per event counted in pass 1, with the same group.
    void add(uint32_t group, int64_t value) { m_values[m_cursor[group]++] = value; }

    uint32_t groupCount() const { return uint32_t(m_counts.size()); }
    size_t valueCount() const { return m_valueCount; }
    std::span<int64_t> values(uint32_t group)
    {
        return {m_values.get() + m_begin[group], m_values.get() + m_begin[group + 1]};
    }

private:
    std::vector<uint64_t> m_counts; // pass 1
    std::vector<uint64_t> m_begin; // groupCount() + 1 offsets into m_values
    std::vector<uint64_t> m_cursor; // pass 2 write positions
    std::unique_ptr<int64_t[]> m_values; // left uninitialized: pass 2 writes every slot
    size_t m_valueCount = 0;
};

// The statistics of a group of values. Reorders `values` (the median is found in place).
// An empty span gives an all-zero summary.
ValueSummary summarize(std::span<int64_t> values);

} // namespace sightline
