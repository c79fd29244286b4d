// One GPU memory allocation or release (model/core/memory_usage.h) for tests: Device memory of
// process `pid` on `device`, context 1 unless given.
#pragma once

#include "model/core/memory_usage.h"

namespace sightline::test {

struct MemoryChangeSpec
{
    Timestamp time = 0;
    uint64_t bytes = 0;
    bool release = false;
    uint64_t address = 0;
    uint32_t correlation = 0;
};

inline MemoryUsageEvent memoryChange(
    Pid pid, DeviceId device, const MemoryChangeSpec& spec, ContextId context = ContextId(1))
{
    MemoryUsageEvent e;
    e.time = spec.time;
    e.pid = pid;
    e.device = device;
    e.context = context;
    e.address = spec.address;
    e.bytes = spec.bytes;
    e.kind = MemoryKind::Device;
    e.release = spec.release;
    e.correlation = CorrelationId(spec.correlation);
    return e;
}

} // namespace sightline::test
