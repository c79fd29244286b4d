// The injection library's clock for host-side events: TSC ticks when the TSC is invariant,
// else CLOCK_MONOTONIC nanoseconds (spool/clock_sync.h explains how ticks become time).
#pragma once

#include "collector/spool/clock_sync.h"

#include <atomic>
#include <cstdint>

namespace sightline::inject {

inline spool::TickSource g_tickSource = spool::TickSource::MonotonicNs;
// Ticks per nanosecond as last measured by the writer; 1 until then (an underestimate for the
// TSC, so early OS-runtime thresholds err towards recording; the launcher re-applies them).
inline std::atomic<double> g_ticksPerNs {1.0};

inline uint64_t nowTicks()
{
#if SIGHTLINE_HAS_TSC
    if (g_tickSource == spool::TickSource::Tsc) [[likely]]
        return __rdtsc();
#endif
    return uint64_t(spool::monotonicNs());
}

// Picks the tick source once, from the constructor: the TSC when /proc/cpuinfo lists both
// constant_tsc and nonstop_tsc, unless SIGHTLINE_CLOCK says "monotonic" or "tsc".
void initializeClock();

} // namespace sightline::inject
