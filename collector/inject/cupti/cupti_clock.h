// The clock of CUDA records, moved onto CLOCK_MONOTONIC.
//
// CUPTI stamps records with its own clock; the report's is CLOCK_MONOTONIC. CUPTI can call a
// function of ours for every timestamp instead (cuptiActivityRegisterTimestampCallback), but that
// costs the launching thread several microseconds per launch: on an H100 a one-element add_ loop
// ran 10.2 us an iteration bare, 16.0 traced with the callback and 10.3 traced on CUPTI's clock.
// So CUPTI keeps its clock, and its offset to CLOCK_MONOTONIC is measured (the tightest of a few
// bracketed readings) before any record is decoded and again at every periodic flush, where a
// change beyond a microsecond (the wall clock stepped, or drift added up) is taken over for the
// records decoded from then on. SIGHTLINE_CUPTI_CLOCK=callback asks for the callback, to measure
// it or where a record must carry the exact CLOCK_MONOTONIC reading.
#pragma once

#include "collector/inject/cupti/cupti_session.h"

#include <cstdint>

namespace sightline::inject::cupti {

// Chooses the clock and measures the offset; call before any activity is enabled.
void setUpCuptiClock(CuptiState& s);

// Measures the offset again (CUPTI's clock only); cheap enough for every periodic flush.
void recalibrateCuptiClock(CuptiState& s);

// What to add to a CUPTI timestamp now: 0 when records already carry CLOCK_MONOTONIC.
int64_t cuptiClockOffsetNs();

} // namespace sightline::inject::cupti
