// The CPU samples the timeline highlights: those whose stack is in a set (the stacks holding a
// function chosen in the Call Stacks view). One bit per sample of CpuProfile::samples, with
// the number of marked samples before each 64-bit word, so the marked samples between two
// sample indices are counted in O(1): a pixel column of a thread's sample ticks, whatever the
// number of samples it covers, costs two binary searches and one count. Built once per set in
// O(samples + stack nodes); 1.1 bits per sample.
#pragma once

#include "model/core/cpu_profile.h"

#include <cstdint>
#include <span>
#include <vector>

namespace sightline::views {

class SampleMarks
{
public:
    // `stacks` lists stack node ids, sorted; ids outside the profile's tree are ignored.
    SampleMarks(const CpuProfile& cpu, std::span<const uint32_t> stacks);

    bool marked(size_t sample) const
    {
        return sample / 64 < m_bits.size() && (m_bits[sample / 64] >> (sample % 64) & 1) != 0;
    }
    // Marked samples with indices in [first, last).
    uint32_t count(size_t first, size_t last) const { return countBefore(last) - countBefore(first); }
    uint32_t total() const { return m_before.empty() ? 0 : m_before.back(); }

private:
    uint32_t countBefore(size_t sample) const;

    std::vector<uint64_t> m_bits;
    std::vector<uint32_t> m_before; // marked samples before each word, and the total at the end
};

} // namespace sightline::views
