#include "views/timeline/frame/sample_marks.h"

#include <bit>

namespace sightline::views {

SampleMarks::SampleMarks(const CpuProfile& cpu, std::span<const uint32_t> stacks)
{
    std::vector<bool> chosen(cpu.stacks.size());
    for (uint32_t stack : stacks)
        if (stack < chosen.size()) chosen[stack] = true;
    m_bits.assign((cpu.samples.size() + 63) / 64, 0);
    for (size_t i = 0; i < cpu.samples.size(); ++i) {
        const uint32_t stack = cpu.samples[i].stack;
        if (stack < chosen.size() && chosen[stack]) m_bits[i / 64] |= uint64_t(1) << (i % 64);
    }
    m_before.resize(m_bits.size() + 1);
    for (size_t w = 0; w < m_bits.size(); ++w)
        m_before[w + 1] = m_before[w] + uint32_t(std::popcount(m_bits[w]));
}

uint32_t SampleMarks::countBefore(size_t sample) const
{
    const size_t word = sample / 64;
    if (word >= m_bits.size()) return total();
    const uint64_t below = (uint64_t(1) << (sample % 64)) - 1;
    return m_before[word] + uint32_t(std::popcount(m_bits[word] & below));
}

} // namespace sightline::views
