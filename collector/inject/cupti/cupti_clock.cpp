#include "collector/inject/cupti/cupti_clock.h"

#include "collector/inject/clock.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace sightline::inject::cupti {

namespace {

// A change of the offset smaller than this is reading noise, not a clock that moved.
constexpr int64_t kOffsetToleranceNs = 1000;
// A reading bracketed more loosely than this (the thread was preempted) says nothing.
constexpr int64_t kLoosestBracketNs = 20000;

std::atomic<int64_t> g_offsetNs {0};

uint64_t CUPTIAPI monotonicTimestampValue()
{
    return uint64_t(spool::monotonicNs());
}

// CUPTI's clock minus CLOCK_MONOTONIC from the tightest of a few bracketed readings, with how
// tight it was; false when CUPTI gives no timestamp.
bool measureOffset(CuptiState& s, int64_t& offsetNs, int64_t& bracketNs)
{
    bracketNs = INT64_MAX;
    for (int i = 0; i < 8; ++i) {
        uint64_t cuptiNow = 0;
        const int64_t before = spool::monotonicNs();
        if (s.api.getTimestamp(&cuptiNow) != CUPTI_SUCCESS) return false;
        const int64_t after = spool::monotonicNs();
        if (after - before < bracketNs) {
            bracketNs = after - before;
            offsetNs = (before + (after - before) / 2) - int64_t(cuptiNow);
        }
    }
    return true;
}

} // namespace

void setUpCuptiClock(CuptiState& s)
{
    const char* clock = getenv("SIGHTLINE_CUPTI_CLOCK");
    if (clock && strcmp(clock, "callback") == 0 && s.api.registerTimestampCallback) {
        s.ourClock = s.api.registerTimestampCallback(&monotonicTimestampValue) == CUPTI_SUCCESS;
        if (s.ourClock) return;
        reportDiagnostic(spool::Severity::Info,
            "CUPTI declined our timestamp callback; CUDA times were aligned by calibration.");
    }
    int64_t offset = 0, bracket = 0;
    if (measureOffset(s, offset, bracket)) g_offsetNs.store(offset, std::memory_order_relaxed);
}

void recalibrateCuptiClock(CuptiState& s)
{
    if (s.ourClock) return;
    int64_t offset = 0, bracket = 0;
    if (!measureOffset(s, offset, bracket) || bracket > kLoosestBracketNs) return;
    const int64_t current = g_offsetNs.load(std::memory_order_relaxed);
    if (offset - current > kOffsetToleranceNs || current - offset > kOffsetToleranceNs)
        g_offsetNs.store(offset, std::memory_order_relaxed);
}

int64_t cuptiClockOffsetNs()
{
    return g_offsetNs.load(std::memory_order_relaxed);
}

} // namespace sightline::inject::cupti
