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
};

Trace randomTrace(const RandomTraceOptions& options);

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
