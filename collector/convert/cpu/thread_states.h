// Thread states from context switches: a thread runs from the moment it is switched in until
// it is switched out; then it is runnable (preempted) or waiting until it is switched in
// again. A wait carries the stack the thread left the CPU from (the context-switch sample
// taken at that moment, kernel frames included), and waitReason() tells from its function
// names whether it was sleeping, blocked on synchronization or waiting on I/O.
#pragma once

#include "collector/convert/cpu/perf_records.h"
#include "collector/convert/cpu/process_images.h"
#include "model/core/cpu_profile.h"

#include <functional>
#include <vector>

namespace sightline::collector {

struct StateInput
{
    const PerfRecording* recording = nullptr;
    int64_t originNs = 0; // CLOCK_MONOTONIC time of the report's time 0
    Timestamp end = 0; // where states still open at the end are closed
    // The interned stack of a context-switch sample (index into recording->samples) and the
    // state its frames tell.
    std::function<std::pair<uint32_t, ThreadState>(size_t)> waitOfSample;
};

// Intervals of every thread the switch records name, in (tid, start) order.
std::vector<ThreadStateInterval> threadStatesOf(const StateInput& input);

// Sleeping, Blocked or WaitingIo where a frame of the stack a thread left the CPU from (innermost
// first, kernel frames before user frames) says so; Waiting otherwise.
ThreadState waitReason(const std::vector<SymbolName>& framesInnermostFirst);

} // namespace sightline::collector
