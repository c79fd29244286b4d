// Each process's CPU utilization as a counter series (CounterSource::CpuUtilization), derived
// from the CPU profile whenever a trace is built or read, and never stored: 100% is one core
// busy for the whole bucket, so a process running four threads flat out shows 400%.
//
// A thread with recorded states counts its Running time; a thread with samples only counts
// one sampling period per sample. Buckets are 1 ms wide, or wider so that no series exceeds
// 20,000 samples. The series and their timelines are appended after every stored one.
#pragma once

#include "model/trace/trace.h"

namespace sightline {

// Removes derived series left from an earlier call, then adds one per process with CPU data.
void addCpuUtilizationSeries(Trace& trace);

// How many counter timelines and series precede the derived ones (what a writer stores).
size_t storedCounterTimelineCount(const Trace& trace);
size_t storedCounterSeriesCount(const Trace& trace);

} // namespace sightline
