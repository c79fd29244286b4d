// GPU memory in use as a counter series: the allocations (positive) and releases (negative) of
// one device, in any order, become a step series of the bytes in use, starting from zero at the
// first change (changes at the same nanosecond make one step). The collector (from CUPTI's
// memory records) and the Nsight Systems importer (CUDA_GPU_MEMORY_USAGE_EVENTS) both build it
// here.
#pragma once

#include "model/build/trace_builder.h"

#include <utility>
#include <vector>

namespace sightline {

struct MemoryChange
{
    Timestamp time = 0;
    int64_t bytes = 0; // > 0 allocated, < 0 released
};

// Adds the series of `device` (nothing without changes), ending at `end` or just after the last
// change. Returns how many releases exceeded what was in use (memory allocated before the
// recording began); the series counts those from zero.
size_t addMemoryUsageSeries(
    TraceBuilder& builder, DeviceId device, std::vector<MemoryChange> changes, Timestamp end);

} // namespace sightline
