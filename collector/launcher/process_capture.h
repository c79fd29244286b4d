// One process's recording, decoded from its spool file(s) into the model's row-form events on
// the session clock (nanoseconds since the launcher started the target). NVTX pairs are
// matched here: pops with the latest push of the same thread and domain, ends with their start
// by range id whatever the thread. Ranges still open when the process ended are closed at its
// last timestamp and counted. Names are interned into the TraceBuilder's string table; NVTX
// domains get the builder's ids.
#pragma once

#include "clock_map.h"
#include "model/build/trace_builder.h"
#include "spool_reader.h"

#include <cstdint>
#include <string>
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
    std::vector<HostEvent<NvtxEvent>> nvtx;
    std::vector<HostEvent<OsCall>> osCalls;
    std::vector<HostEvent<ApiCall>> apiCalls;
    std::vector<GpuEvent<KernelEvent>> kernels;
    std::vector<GpuEvent<MemoryEvent>> memory;
    std::vector<GpuEvent<SyncEvent>> syncs;
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

// Decodes the spool files of one process (several when it exec'ed: in order of writing).
ProcessCapture decodeProcess(const std::vector<const SpoolFile*>& files, const ClockMap& clock,
    const DecodeOptions& options, TraceBuilder& builder);

} // namespace sightline::collector
