// Random traces for property tests: every event kind, nested and freely overlapping rows,
// instants, identical intervals and empty tracks. Deterministic for a seed.
#pragma once

#include "model/trace/trace.h"

#include <cstdint>

namespace sightline::test {

struct RandomTraceOptions
{
    uint64_t seed = 1;
    uint32_t eventsPerTrack = 2000;
    uint32_t threads = 3;
    uint32_t streams = 3;
    uint32_t counterSamples = 3000; // per GPU metrics timeline (there is also a one-sample one)
};

Trace randomTrace(const RandomTraceOptions& options);

class Rng;
// A counter timeline of `samples` samples from `start`, spaced 1 to 200 ns apart with some
// long gaps.
CounterTimeline randomTimeline(Rng& rng, uint32_t samples, Timestamp start);
// Values for it: percentages at 0.01 resolution, with runs of unknown (NaN) samples.
std::vector<double> randomCounterValues(Rng& rng, size_t samples);

// A tiny deterministic generator (splitmix64).
class Rng
{
public:
    explicit Rng(uint64_t seed)
        : m_state(seed)
    { }
    uint64_t next();
    uint64_t below(uint64_t bound) { return bound ? next() % bound : 0; }
    bool chance(uint32_t percent) { return below(100) < percent; }

private:
    uint64_t m_state;
};

} // namespace sightline::test
