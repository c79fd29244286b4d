// The things events happen on: processes, threads, GPUs, CUDA contexts and streams, NVTX
// domains. Plain value types; a Trace holds them in vectors, unique by their ids. A process
// and a GPU also name their recording (`source`, as TrackKey does): pid 1234 or GPU 0 of two
// reports are different things.
#pragma once

#include "model/core/ids.h"

#include <compare>
#include <string>
#include <vector>

namespace sightline {

struct Process
{
    Pid pid;
    std::string name;
    std::vector<std::string> commandLine;
    SourceId source; // given when opened, never stored
    friend bool operator==(const Process&, const Process&) = default;
};

struct Thread
{
    Pid pid;
    Tid tid;
    std::string name;
    friend bool operator==(const Thread&, const Thread&) = default;
};

struct Gpu
{
    DeviceId device;
    std::string name; // "NVIDIA H200"
    std::string uuid; // "GPU-..." as nvidia-smi prints it
    std::string busId; // "0000:19:00.0"
    uint32_t computeMajor = 0;
    uint32_t computeMinor = 0;
    uint32_t smCount = 0;
    uint64_t memoryBytes = 0;
    uint32_t coreClockKHz = 0;
    uint32_t memoryClockKHz = 0;
    SourceId source; // given when opened, never stored
    friend bool operator==(const Gpu&, const Gpu&) = default;
};

struct CudaContext
{
    Pid pid;
    DeviceId device;
    ContextId context;
    friend bool operator==(const CudaContext&, const CudaContext&) = default;
};

struct CudaStream
{
    Pid pid;
    DeviceId device;
    ContextId context;
    StreamId stream;
    int32_t priority = 0;
    bool isDefault = false;
    friend bool operator==(const CudaStream&, const CudaStream&) = default;
};

struct NvtxDomain
{
    DomainId id; // 0 is the default domain and needs no entry
    std::string name;
    friend bool operator==(const NvtxDomain&, const NvtxDomain&) = default;
};

} // namespace sightline
