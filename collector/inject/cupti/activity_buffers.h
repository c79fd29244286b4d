// The buffers CUPTI fills with activity records.
//
// CUPTI asks for a buffer on the thread that launches the work, and unless told that buffers come
// zeroed it zeroes each one there before filling it (CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER:
// "a few stalls may appear in critical path"): for 8 MiB a stall of a millisecond or more in the
// program's own thread every few tens of thousands of launches, plus the page faults of a fresh
// buffer. So we say the buffers come zeroed, and keep a small pool of buffers that are zeroed and
// faulted in away from the program's threads: a completed buffer has its valid bytes cleared on
// the thread that decoded it (CUPTI's worker, or the writer's flush), which also tops the pool up.
// Asking for a buffer is then a pop under a lock. SIGHTLINE_CUPTI_ZEROING=cupti leaves the zeroing
// to CUPTI, to measure what this saves.
#pragma once

#include "collector/inject/cupti/cupti_session.h"

#include <cstddef>
#include <cstdint>

namespace sightline::inject::cupti {

constexpr size_t kActivityBufferBytes = 8u << 20;

// Tells CUPTI that buffers come zeroed (where it accepts) and fills the pool. Call before
// registering the buffer callbacks.
void prepareActivityBuffers(CuptiState& s);

// A zeroed buffer of kActivityBufferBytes, or null when no memory is left.
uint8_t* takeActivityBuffer();

// Clears the first `usedBytes` (where CUPTI relies on us for that), pools the buffer or unmaps it,
// and tops the pool up.
void returnActivityBuffer(uint8_t* buffer, size_t usedBytes);

} // namespace sightline::inject::cupti
