// One process's recording once decoded from its spool files: the record types the
// conversion hands from decoding (process_capture.h, chunk_decoder.h) to assembly
// (convert/assemble/), on the session clock (nanoseconds since the launcher started the
// target). Names are the TraceBuilder's string ids; NVTX domains get the builder's ids. NVTX
// events and OS calls, the bulk of a recording, stay in their chunks' batches (in order).
#pragma once

#include "model/construct/trace_builder.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace sightline::collector {

template <class Event> struct HostEvent
{
    Tid tid;
    Event event;
};

template <class Event> struct GpuEvent
{
    DeviceId device;
    ContextId context;
    StreamId stream;
    Event event;
};

// An NVTX event of a batch. Names and attributes are indexes into the batch's tables.
struct NvtxRow
{
    enum class State : uint32_t {
        Event, // a range or a mark
        UnresolvedPop, // while decoding: a pop whose push is in an earlier chunk
        Dropped, // a pop without a push
    };
    Timestamp start = 0, end = 0;
    Tid tid;
    uint32_t name = 0; // index into NvtxBatch::names
    uint32_t attributes = 0; // index into NvtxBatch::attributes (an unresolved pop: its domain)
    State state = State::Event;
};
static_assert(sizeof(NvtxRow) == 32);

// NVTX push/pop ranges nest per thread and domain; so do their rows in the report.
inline uint64_t nvtxStackKey(Tid tid, DomainId domain)
{
    return (uint64_t(tid.value) << 32) | domain.value;
}

// NVTX events in the order they completed (pops and marks; ranges closed at the end last).
struct NvtxBatch
{
    std::vector<NvtxRow> rows;
    std::vector<StringId> names; // report strings
    std::vector<NvtxAttributes> attributes;

    NvtxEvent event(const NvtxRow& row) const
    {
        return {row.start, row.end, names[row.name], attributes[row.attributes]};
    }
    uint32_t addName(StringId name)
    {
        names.push_back(name);
        return uint32_t(names.size() - 1);
    }
    uint32_t addAttributes(const NvtxAttributes& a)
    {
        attributes.push_back(a);
        return uint32_t(attributes.size() - 1);
    }
};

struct CaptureControl
{
    Timestamp time = 0;
    bool start = false;
};

struct LossCounts
{
    uint64_t cuptiDropped = 0;
    uint64_t bufferExhausted = 0;
    uint64_t textTruncated = 0;
    uint64_t zeroTimestamps = 0;
    uint64_t unmatchedNvtxEnds = 0; // pops without a push, ends without a start
    uint64_t openNvtxRanges = 0; // closed at the process's end
};

struct ProcessCapture
{
    Process process;
    uint32_t ppid = 0;
    std::string hostname;
    std::string workingDirectory;
    KeyValueList environment;
    uint32_t cuptiVersion = 0;
    bool truncatedSpool = false;

    std::vector<Thread> threads; // named threads that have events
    std::vector<NvtxBatch> nvtx; // in order
    std::vector<std::vector<HostEvent<OsCall>>> osCalls; // batches, in order
    std::vector<HostEvent<ApiCall>> apiCalls; // one list: nested driver calls are found across chunks
    // GPU work in the batches the chunks decoded, in order: joining them into one list would copy
    // every record once more (hundreds of megabytes for a long training run).
    std::vector<std::vector<GpuEvent<KernelEvent>>> kernels;
    std::vector<std::vector<GpuEvent<MemoryEvent>>> memory;
    std::vector<std::vector<GpuEvent<SyncEvent>>> syncs;
    // GPU memory allocations and releases (--cuda-memory-usage), in record order; their pid is
    // the process's, set when they are added to the trace.
    std::vector<MemoryUsageEvent> memoryUsage;
    std::vector<Gpu> gpus;
    std::vector<CudaContext> contexts;
    std::vector<CudaStream> streams;
    std::vector<std::pair<ContextId, StreamId>> contextNullStreams;
    std::vector<CaptureControl> captureControls;
    std::vector<Diagnostic> diagnostics;
    LossCounts losses;
};

struct DecodeOptions
{
    int64_t originMonotonicNs = 0; // session time 0
    int64_t osrtThresholdNs = 0; // calls shorter than this are dropped
};

// Calls fn(tid, NvtxEvent) for every NVTX event of a process, in order.
template <class Fn> void forEachNvtxEvent(const ProcessCapture& p, Fn&& fn)
{
    for (const NvtxBatch& batch : p.nvtx)
        for (const NvtxRow& row : batch.rows)
            if (row.state == NvtxRow::State::Event) fn(row.tid, batch.event(row));
}

} // namespace sightline::collector
