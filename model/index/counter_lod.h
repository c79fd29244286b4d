// Level of detail for counter series (model/core/counters.h): what W pixel columns over a
// window show of one series (per column its minimum, maximum and time-weighted mean), and the
// same summary for any time range (a selection, a kernel's run), at a cost that grows with the
// column count and the logarithm of the sample count, not with the samples a column holds.
//
// A pyramid of block summaries is built once after loading: level 0 sums up every block of 32
// samples, level k every block of 32^(k+1) (minimum, maximum, value x time, known time, known
// samples; 36 bytes per block, about 1.2 bytes per sample in all). A range of whole samples is
// summed from at most 31 samples and 31 blocks per level on either side; the two samples a
// range boundary cuts count only for their overlap. Unknown (NaN) samples count for nothing.
// summarize() is exact but for the order of floating-point additions.
//
// Pixel columns (query) are exact too while a column holds fewer than kSnapSamples samples on
// average. Wider columns snap each edge to the nearest block boundary (16 samples at most,
// whole samples), as the event LOD estimates at its edges: the error stays within the block on
// either side of an edge, a fraction of a column, and a whole-span query reads blocks only, so
// its cost does not grow with the samples per column.
#pragma once

#include "model/core/counters.h"

#include <limits>
#include <span>
#include <vector>

namespace sightline {

struct CounterSummary
{
    double min = std::numeric_limits<double>::infinity();
    double max = -std::numeric_limits<double>::infinity();
    double weightedSum = 0; // sum of value x overlapping nanoseconds
    Duration covered = 0; // nanoseconds with a known value
    uint64_t samples = 0; // known samples overlapping the range

    bool empty() const { return samples == 0; }
    // The time-weighted mean; NaN when nothing is known.
    double mean() const;
    void add(const CounterSummary& other);
    void addSample(double value, Duration overlap);
};

class CounterLod
{
public:
    static constexpr int kBlockShift = 5;
    static constexpr uint64_t kBlock = 1u << kBlockShift; // samples or blocks per block
    static constexpr uint64_t kSnapSamples = 8 * kBlock; // samples per column from which edges snap
    // Whether query() snaps column edges to blocks for this many columns over `window`.
    static bool snapsToBlocks(const CounterTimeline& timeline, TimeRange window, size_t columns);

    void build(const CounterTimeline& timeline, std::span<const double> values);
    // The series over `range` (half-open).
    CounterSummary summarize(
        const CounterTimeline& timeline, std::span<const double> values, TimeRange range) const;
    // Fills out[c] for each of out.size() equal columns over `window`.
    void query(const CounterTimeline& timeline, std::span<const double> values, TimeRange window,
        std::span<CounterSummary> out) const;
    size_t residentBytes() const;

private:
#pragma pack(push, 4)
    struct Block
    {
        double min, max, weightedSum;
        Duration covered;
        uint32_t samples;
    };
#pragma pack(pop)

    // summarize() starting its searches at index `hint` (at or before the range's first
    // sample), which it leaves at the range's last sample: for adjacent columns.
    CounterSummary summarizeFrom(const CounterTimeline& timeline, std::span<const double> values,
        TimeRange range, uint64_t& hint) const;
    // Samples [first, last) whole.
    CounterSummary wholeSamples(
        const CounterTimeline& timeline, std::span<const double> values, uint64_t first, uint64_t last) const;
    const Block& block(size_t level, uint64_t index) const
    {
        return m_blocks[m_levelStart[level] + index];
    }

    std::vector<Block> m_blocks; // level k is m_blocks[m_levelStart[k], m_levelStart[k + 1])
    std::vector<size_t> m_levelStart;
};

} // namespace sightline
