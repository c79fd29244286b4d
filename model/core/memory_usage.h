// GPU memory allocations and releases, one record each, as CUPTI's memory activity
// (--cuda-memory-usage) and Nsight Systems' CUDA_GPU_MEMORY_USAGE_EVENTS give them. They sit
// beside the bytes-in-use series they sum to (model/construct/memory_usage_series.h) and tell what
// the series cannot: which API call allocated or released the memory (by correlation id, in
// the record's process), where, and of what kind. Trace::memoryUsage holds them by time.
#pragma once

#include "model/core/enums.h"
#include "model/core/ids.h"
#include "model/core/time.h"

#include <cstdint>

namespace sightline {

struct MemoryUsageEvent
{
    Timestamp time = 0;
    Pid pid;
    DeviceId device;
    ContextId context;
    uint64_t address = 0; // of the allocation, 0 when unknown
    uint64_t bytes = 0;
    MemoryKind kind = MemoryKind::Unknown;
    bool release = false; // false: allocated
    CorrelationId correlation; // the API call that did it; 0: unknown
    friend bool operator==(const MemoryUsageEvent&, const MemoryUsageEvent&) = default;
};

} // namespace sightline
