// Adds a process's GPU operations (kernels, memory operations, synchronisation), kept in the
// decoder's batches, to the TraceBuilder on every core. The trace is the one adding them one at
// a time in batch order would give: rows are created and descriptors numbered in the order they
// are first met, and each row receives its events in that order. As in batch_assembly.h, three
// passes: per batch (in parallel) each kept event's row and batch-local descriptor; in batch
// order the rows, the descriptors' ids and where each batch's events go in each row; then the
// copy (in parallel).
#pragma once

#include "collector/convert/decode/decoded_process.h"

#include <functional>
#include <optional>

namespace sightline::collector {

// The row a GPU operation goes to.
struct GpuRowKey
{
    DeviceId device;
    ContextId context;
    StreamId stream;
    friend bool operator==(const GpuRowKey&, const GpuRowKey&) = default;
};

// Decides an event's row, or that the capture windows leave it out (nullopt). It may re-point
// the event's correlation id. Called on several threads at once, each with its own events.
template <class Event> using GpuRowRule = std::function<std::optional<GpuRowKey>(GpuEvent<Event>&)>;

// Each returns how many events the rule left out.
size_t addGpuBatches(std::vector<std::vector<GpuEvent<KernelEvent>>>& batches, Pid pid,
    const GpuRowRule<KernelEvent>& rowOf, TraceBuilder& builder);
size_t addGpuBatches(std::vector<std::vector<GpuEvent<MemoryEvent>>>& batches, Pid pid,
    const GpuRowRule<MemoryEvent>& rowOf, TraceBuilder& builder);
size_t addGpuBatches(std::vector<std::vector<GpuEvent<SyncEvent>>>& batches, Pid pid,
    const GpuRowRule<SyncEvent>& rowOf, TraceBuilder& builder);

} // namespace sightline::collector
