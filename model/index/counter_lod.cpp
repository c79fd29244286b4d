#include "model/index/counter_lod.h"

#include "model/common/huge_pages.h"

#include <algorithm>
#include <cmath>

namespace sightline {

double CounterSummary::mean() const
{
    return covered > 0 ? weightedSum / double(covered) : std::nan("");
}

void CounterSummary::add(const CounterSummary& other)
{
    min = std::min(min, other.min);
    max = std::max(max, other.max);
    weightedSum += other.weightedSum;
    covered += other.covered;
    samples += other.samples;
}

void CounterSummary::addSample(double value, Duration overlap)
{
    if (std::isnan(value) || overlap <= 0) return;
    min = std::min(min, value);
    max = std::max(max, value);
    weightedSum += value * double(overlap);
    covered += overlap;
    ++samples;
}

void CounterLod::build(const CounterTimeline& timeline, std::span<const double> values)
{
    m_levelStart.assign(1, 0);
    const uint64_t n = std::min<uint64_t>(timeline.size(), values.size());
    // Every level's blocks at once, on huge pages: queries read them all over.
    size_t total = 0;
    for (uint64_t count = n / kBlock;; count /= kBlock) {
        total += count;
        if (count < kBlock) break;
    }
    m_blocks = {};
    reserveColumn(m_blocks, total);
    // Level 0 from the samples.
    for (uint64_t first = 0; first + kBlock <= n; first += kBlock) {
        CounterSummary s;
        for (uint64_t i = first; i < first + kBlock; ++i)
            s.addSample(values[i], timeline.sampleEnd(i) - timeline.starts[i]);
        m_blocks.push_back({s.min, s.max, s.weightedSum, s.covered, uint32_t(s.samples)});
    }
    m_levelStart.push_back(m_blocks.size());
    // Level k + 1 from level k, while a level has whole blocks to sum.
    while (m_levelStart.back() - m_levelStart[m_levelStart.size() - 2] >= kBlock) {
        const size_t begin = m_levelStart[m_levelStart.size() - 2], end = m_levelStart.back();
        for (size_t first = begin; first + kBlock <= end; first += kBlock) {
            Block sum {
                std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(), 0, 0, 0};
            for (size_t b = first; b < first + kBlock; ++b) {
                const Block& part = m_blocks[b];
                sum.min = std::min(sum.min, part.min);
                sum.max = std::max(sum.max, part.max);
                sum.weightedSum += part.weightedSum;
                sum.covered += part.covered;
                sum.samples += part.samples;
            }
            m_blocks.push_back(sum);
        }
        m_levelStart.push_back(m_blocks.size());
    }
}

CounterSummary CounterLod::wholeSamples(
    const CounterTimeline& timeline, std::span<const double> values, uint64_t first, uint64_t last) const
{
    // At each index the largest piece (sample or block) that starts there aligned and ends by
    // `last`: up the levels while the index is not aligned to the next level's blocks, then down
    // from the largest piece that fits. Each level's pieces are adjacent, summed in one loop.
    CounterSummary sum;
    const int levels = m_levelStart.empty() ? 0 : int(m_levelStart.size()) - 1;
    auto shiftOf = [](int level) { return unsigned(kBlockShift) * unsigned(level + 1); }; // level -1: samples
    uint64_t i = first;
    auto addPieces = [&](int level, uint64_t count) {
        if (count == 0) return;
        if (level < 0) {
            for (const uint64_t end = i + count; i < end; ++i)
                sum.addSample(values[i], timeline.sampleEnd(i) - timeline.starts[i]);
            return;
        }
        const unsigned shift = shiftOf(level);
        const Block* b = &block(size_t(level), i >> shift);
        for (const Block* end = b + count; b < end; ++b)
            sum.add({b->min, b->max, b->weightedSum, b->covered, b->samples});
        i += count << shift;
    };
    int level = -1;
    while (level + 1 < levels) {
        const unsigned shift = shiftOf(level);
        const uint64_t next = uint64_t(1) << shiftOf(level + 1);
        addPieces(level, std::min(((0 - i) & (next - 1)) >> shift, (last - i) >> shift));
        if (i + next > last) break;
        ++level;
    }
    for (; level >= -1; --level)
        addPieces(level, (last - i) >> shiftOf(level));
    return sum;
}

namespace {

// The first index in [from, n) whose start is at or after `t` (lower bound), searched by
// galloping from `from`: adjacent columns find their boundaries near each other, in memory
// already read.
uint64_t firstStartingAtOrAfter(const std::vector<Timestamp>& starts, uint64_t n, uint64_t from, Timestamp t)
{
    if (from >= n || starts[from] >= t) return from;
    uint64_t step = 1, low = from; // starts[low] < t
    while (low + step < n && starts[low + step] < t) {
        low += step;
        step *= 2;
    }
    const uint64_t high = std::min(n, low + step);
    return uint64_t(std::lower_bound(starts.begin() + int64_t(low) + 1, starts.begin() + int64_t(high), t)
        - starts.begin());
}

// The same, searched from a guess in both directions: for evenly spaced samples a guess made by
// interpolation is a sample or two off, so the search touches little memory.
uint64_t firstStartingAtOrAfterNear(
    const std::vector<Timestamp>& starts, uint64_t n, uint64_t guess, Timestamp t)
{
    guess = std::min(guess, n);
    if (guess == n || starts[guess] >= t) {
        // Back: the first index below guess whose start is before t, then forward from it.
        uint64_t step = 1, high = guess; // starts[high] >= t (or high == n)
        while (high > 0 && starts[high - std::min(step, high)] >= t) {
            high -= std::min(step, high);
            step *= 2;
        }
        const uint64_t low = high - std::min(step, high);
        return uint64_t(std::lower_bound(starts.begin() + int64_t(low), starts.begin() + int64_t(high), t)
            - starts.begin());
    }
    return firstStartingAtOrAfter(starts, n, guess, t);
}

} // namespace

CounterSummary CounterLod::summarizeFrom(
    const CounterTimeline& timeline, std::span<const double> values, TimeRange range, uint64_t& hint) const
{
    CounterSummary sum;
    const auto& starts = timeline.starts;
    const uint64_t n = std::min<uint64_t>(starts.size(), values.size());
    if (n == 0 || range.empty() || range.end <= starts.front() || range.start >= timeline.end) return sum;
    // Samples [first, last) start before the range ends; the first may start before it.
    uint64_t first = firstStartingAtOrAfter(starts, n, std::min(hint, n), range.start + 1);
    if (first > 0) --first;
    const uint64_t last = firstStartingAtOrAfter(starts, n, first, range.end);
    hint = last > 0 ? last - 1 : 0;
    if (first >= last) return sum;
    auto overlap = [&](uint64_t i) {
        return std::min(timeline.sampleEnd(i), range.end) - std::max(starts[i], range.start);
    };
    sum.addSample(values[first], overlap(first));
    if (last - first >= 2) {
        sum.add(wholeSamples(timeline, values, first + 1, last - 1));
        sum.addSample(values[last - 1], overlap(last - 1));
    }
    return sum;
}

CounterSummary CounterLod::summarize(
    const CounterTimeline& timeline, std::span<const double> values, TimeRange range) const
{
    const auto& starts = timeline.starts;
    uint64_t hint = uint64_t(std::upper_bound(starts.begin(), starts.end(), range.start) - starts.begin());
    hint = hint > 0 ? hint - 1 : 0;
    return summarizeFrom(timeline, values, range, hint);
}

void CounterLod::query(const CounterTimeline& timeline, std::span<const double> values, TimeRange window,
    std::span<CounterSummary> out) const
{
    const size_t columns = out.size();
    if (columns == 0 || window.empty()) return;
    __extension__ typedef __int128 WideInt;
    const WideInt width = window.duration();
    const auto& starts = timeline.starts;
    if (snapsToBlocks(timeline, window, columns)) {
        // Wide columns: each edge moves to the nearest block boundary, so a column is summed
        // from whole blocks only, without reading the samples at its edges.
        const uint64_t n = std::min<uint64_t>(starts.size(), values.size());
        const double perSample = double(timeline.end - starts.front()) / double(n);
        auto edge = [&](uint64_t from, Timestamp t) {
            // Guessed from the mean spacing, then found exactly near the guess.
            const double ahead = double(t - starts[std::min(from, n - 1)]) / perSample;
            const uint64_t guess = ahead <= 0 ? from : std::min(n, from + uint64_t(ahead));
            const uint64_t i = firstStartingAtOrAfterNear(starts, n, std::max(guess, from), t);
            return std::min(n, (std::max(i, from) + kBlock / 2) / kBlock * kBlock);
        };
        uint64_t left = edge(0, window.start);
        for (size_t c = 0; c < columns; ++c) {
            const uint64_t right
                = edge(left, window.start + Timestamp(width * WideInt(c + 1) / WideInt(columns)));
            out[c] = right > left ? wholeSamples(timeline, values, left, right) : CounterSummary {};
            left = right;
        }
        return;
    }
    uint64_t hint = uint64_t(std::upper_bound(starts.begin(), starts.end(), window.start) - starts.begin());
    hint = hint > 0 ? hint - 1 : 0;
    for (size_t c = 0; c < columns; ++c) {
        const Timestamp from = window.start + Timestamp(width * WideInt(c) / WideInt(columns));
        const Timestamp to = window.start + Timestamp(width * WideInt(c + 1) / WideInt(columns));
        out[c] = summarizeFrom(timeline, values, {from, to}, hint);
    }
}

bool CounterLod::snapsToBlocks(const CounterTimeline& timeline, TimeRange window, size_t columns)
{
    if (timeline.size() < 2 * kBlock || columns == 0 || window.empty()) return false;
    const double spacing = double(timeline.end - timeline.starts.front()) / double(timeline.size());
    return double(window.duration()) / double(columns) >= double(kSnapSamples) * spacing;
}

size_t CounterLod::residentBytes() const
{
    return m_blocks.capacity() * sizeof(Block) + m_levelStart.capacity() * sizeof(size_t);
}

} // namespace sightline
