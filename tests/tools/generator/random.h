// A small deterministic random source for the synthetic generator. Everything here uses only
// integer arithmetic, IEEE additions and multiplications and exact scaling by powers of two,
// so one seed gives bit-identical traces with any compiler, standard library or libm (the
// std:: distributions and std::exp make no such promise). xoshiro256** seeded by splitmix64.
#pragma once

#include <cmath>
#include <cstdint>

namespace sightline::gen {

constexpr uint64_t splitMix64(uint64_t& state)
{
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// 2^x for moderate x, from a fixed polynomial: deterministic everywhere, accurate to ~1e-7.
inline double powerOfTwo(double x)
{
    double whole = std::floor(x);
    double y = (x - whole) * 0.6931471805599453; // e^y with y in [0, ln 2)
    double sum = 1.0, term = 1.0;
    for (int k = 1; k <= 9; ++k) {
        term = term * y / k;
        sum += term;
    }
    return std::ldexp(sum, int(whole));
}

class Random
{
public:
    explicit Random(uint64_t seed)
    {
        for (auto& word : m_state)
            word = splitMix64(seed);
    }

    uint64_t next()
    {
        const uint64_t result = rotate(m_state[1] * 5, 7) * 9;
        const uint64_t t = m_state[1] << 17;
        m_state[2] ^= m_state[0];
        m_state[3] ^= m_state[1];
        m_state[1] ^= m_state[2];
        m_state[0] ^= m_state[3];
        m_state[2] ^= t;
        m_state[3] = rotate(m_state[3], 45);
        return result;
    }

    // Uniform in [0, n) (n > 0), by the multiply-high method.
    uint64_t below(uint64_t n)
    {
        __extension__ using Wide = unsigned __int128;
        return uint64_t(Wide(next()) * n >> 64);
    }
    // Uniform in [lo, hi], both inclusive.
    int64_t between(int64_t lo, int64_t hi) { return lo + int64_t(below(uint64_t(hi - lo) + 1)); }
    // Uniform in [0, 1).
    double unit() { return double(next() >> 11) * 0x1.0p-53; }
    bool chance(double p) { return unit() < p; }

    // About normal with mean 0 and deviation 1 (Irwin-Hall of four uniforms), bounded by +-3.46.
    double roughNormal()
    {
        double sum = unit() + unit() + unit() + unit();
        return (sum - 2.0) * 1.7320508075688772;
    }

    // Log-normal-ish: `median` scaled by 2^(spreadLog2 * z), z roughly standard normal.
    // Returns at least 1.
    int64_t logNormal(double median, double spreadLog2)
    {
        double value = median * powerOfTwo(spreadLog2 * roughNormal());
        return value < 1.0 ? 1 : int64_t(value + 0.5);
    }

    // An independent generator derived from this seed and a label (a process index, ...).
    static Random derived(uint64_t seed, uint64_t label)
    {
        uint64_t mix = seed ^ (label * 0xd1342543de82ef95ULL + 0x2545f4914f6cdd1dULL);
        return Random(splitMix64(mix));
    }

private:
    static constexpr uint64_t rotate(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    uint64_t m_state[4] {};
};

} // namespace sightline::gen
