// Events in row form: what producers (collector, importers, generator) hand to the
// TraceBuilder and what readers of one event (tooltips, exporters) get back from a Trace via
// event_access.h. Storage in a Trace is columnar; these structs are never stored in bulk.
#pragma once

#include "model/core/descriptors.h"
#include "model/core/ids.h"
#include "model/core/time.h"

#include <cstdint>

namespace sightline {

struct ApiCall
{
    Timestamp start = 0, end = 0;
    StringId name; // "cudaLaunchKernel"
    CorrelationId correlation;
    ApiResult result;
    friend bool operator==(const ApiCall&, const ApiCall&) = default;
};

struct KernelEvent
{
    Timestamp start = 0, end = 0;
    StringId name; // demangled
    CorrelationId correlation;
    KernelLaunch launch;
    friend bool operator==(const KernelEvent&, const KernelEvent&) = default;
};

struct MemoryEvent
{
    Timestamp start = 0, end = 0;
    CorrelationId correlation;
    MemoryOp op;
    uint64_t bytes = 0;
    friend bool operator==(const MemoryEvent&, const MemoryEvent&) = default;
};

struct SyncEvent
{
    Timestamp start = 0, end = 0;
    CorrelationId correlation;
    SyncOp op;
    friend bool operator==(const SyncEvent&, const SyncEvent&) = default;
};

struct NvtxEvent
{
    Timestamp start = 0, end = 0; // marks: end == start
    StringId name; // the message text, inline or registered
    NvtxAttributes attributes;
    friend bool operator==(const NvtxEvent&, const NvtxEvent&) = default;
};

struct OsCall
{
    Timestamp start = 0, end = 0;
    StringId name; // "pthread_mutex_lock"
    int64_t returnValue = 0;
    friend bool operator==(const OsCall&, const OsCall&) = default;
};

} // namespace sightline
