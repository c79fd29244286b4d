// Clock readings shared by the injection library and the launcher. Host-side events are timed
// in ticks (the TSC where it is invariant: about 10 ns to read instead of about 20 ns for
// clock_gettime) and mapped onto CLOCK_MONOTONIC through pairs sampled by samplePair(). The
// pair is taken as the tightest of a few (monotonic, ticks, monotonic) readings, so its error
// is a few nanoseconds. Header-only, no allocation, safe inside the target.
#pragma once

#include "collector/spool/spool_format.h"

#include <cstdint>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define SIGHTLINE_HAS_TSC 1
#else
#define SIGHTLINE_HAS_TSC 0
#endif

namespace sightline::spool {

inline int64_t readClockNs(clockid_t clock)
{
    timespec ts;
    clock_gettime(clock, &ts);
    return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

inline int64_t monotonicNs()
{
    return readClockNs(CLOCK_MONOTONIC);
}
inline int64_t realtimeNs()
{
    return readClockNs(CLOCK_REALTIME);
}

inline uint64_t readTicks(TickSource source)
{
#if SIGHTLINE_HAS_TSC
    if (source == TickSource::Tsc) return __rdtsc();
#endif
    (void)source;
    return uint64_t(monotonicNs());
}

struct ClockPair
{
    uint64_t ticks = 0;
    int64_t monotonicNs = 0;
    int64_t realtimeNs = 0;
};

// One (ticks, monotonic, realtime) reading with the smallest monotonic bracket of `tries`.
inline ClockPair samplePair(TickSource source, int tries = 5)
{
    ClockPair best;
    int64_t bestGap = INT64_MAX;
    for (int i = 0; i < tries; ++i) {
        const int64_t before = monotonicNs();
        const uint64_t ticks = readTicks(source);
        const int64_t after = monotonicNs();
        if (after - before < bestGap) {
            bestGap = after - before;
            best.ticks = ticks;
            best.monotonicNs = before + (after - before) / 2;
        }
    }
    const int64_t realBefore = realtimeNs();
    const int64_t mono = monotonicNs();
    best.realtimeNs = realBefore + (best.monotonicNs - mono);
    return best;
}

} // namespace sightline::spool
