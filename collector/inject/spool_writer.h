// The background writer: one thread per process that wakes about every 100 ms, lets the CUDA
// layer flush CUPTI, and drains every thread buffer and new interned string into the spool
// file, followed by a clock pair. drain() is also called directly from exit paths. One
// drain lock serialises drains; producers never take it.
#pragma once

#include "collector/spool/clock_sync.h"

#include <cstdint>

namespace sightline::inject::writer {

// The constructor's clock pair: the first ClockSync record of the file.
void setStartPair(const spool::ClockPair& pair);
// Starts the thread (signals blocked on it, ToolScope held for its whole life). Idempotent.
void start();
// Writes everything pending now.
void drain();

// Fork handlers (the drain lock is held across fork()).
void lockForFork();
void unlockAfterForkParent();
void resetAfterForkChild();

} // namespace sightline::inject::writer
