// GPU memory in use: the allocations and releases of a trace's processes (in any order) go into
// the trace as records (Trace::memoryUsage) and, per device, as a counter series of the bytes
// in use, a step series starting from zero at the first change (changes at the same nanosecond
// make one step). The collector (from CUPTI's memory records) and the Nsight Systems importer
// (CUDA_GPU_MEMORY_USAGE_EVENTS) both add them here.
#pragma once

#include "model/construct/trace_builder.h"

#include <vector>

namespace sightline {

// Adds the records and each device's series, ending at `end` or just after its last change.
// Returns how many releases exceeded what was in use on their device (memory allocated before
// the recording began); the series counts those from zero.
size_t addMemoryUsage(TraceBuilder& builder, std::vector<MemoryUsageEvent> events, Timestamp end);

} // namespace sightline
