// The hover tooltips of a thread's CPU row, rendered through EventTooltip like an event's:
//  a thread state: its name, begin/end/duration and thread, and for a state the thread entered
//    by leaving the CPU (sleeping, blocked, waiting) the stack it left from, leaf first;
//  a CPU sample: its leaf function, time, thread and CPU, and its call stack, leaf first.
#pragma once

#include "views/timeline/interaction/thread_cpu_hit.h"
#include "views/timeline/tooltips/event_tooltip.h"

namespace sightline::views {

EventTooltip describeThreadState(const Trace& trace, const ThreadStateInterval& state);
EventTooltip describeCpuSample(const Trace& trace, const CpuSample& sample);
// Either of the two, for what threadCpuHitAt found.
EventTooltip describeThreadCpu(const Trace& trace, ThreadCpuHit hit);

} // namespace sightline::views
