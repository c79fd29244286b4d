// The table of event kinds: for each TrackKind, every word and fact about it that the rest of
// Sightline writes, written once. A view, an exporter or an importer that names a kind, tells
// whether it lies on a GPU or asks which columns it fills looks it up here (`eventKind`), so a
// new kind is one row of this table plus what only it does (its row form, descriptor, reader,
// colour and tooltip). The texts are C strings so that printf-style output and both QString and
// std::string_view take them as they are.
//
// Variants: a CUDA API track holds runtime and driver calls, a Memory track copies and sets;
// the Chrome export writes each under its own category and the nsys schema keeps memsets in a
// table of their own, so those kinds name a second category or table (`...Variant`), empty for
// the others.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace sightline {

enum class TrackKind : uint8_t {
    CudaApi = 0, // per thread: CUDA runtime and driver calls
    Nvtx = 1, // per thread and domain: NVTX ranges and marks
    OsRuntime = 2, // per thread: OS runtime library calls
    Kernels = 3, // per stream: CUDA kernels
    Memory = 4, // per stream: memcpy and memset
    Synchronization = 5, // per stream: CUDA synchronization
};
constexpr int kTrackKindCount = 6;

enum class KindSide : uint8_t {
    Host, // a thread's track (TrackKey pid, tid, and domain for NVTX)
    Gpu, // a stream's track (TrackKey pid, device, context, stream)
};

// Which columns a kind's events fill, beyond start, end and name.
struct KindColumns
{
    bool correlation; // the correlation id linking a call and its GPU work
    bool detail; // an id into the kind's descriptor table
    bool value; // Memory: bytes; OS runtime: the return value
    bool launch; // grid, block, registers and shared memory (a KernelLaunch)
    bool transfer; // bytes, throughput, copy and memory kinds (a MemoryOp)
    bool returnValue; // the call's result
    bool domain; // the NVTX domain
};

struct EventKindInfo
{
    TrackKind kind;
    const char* label; // "OS runtime": the kind in the Events View and its track titles
    const char* rowTitle; // "OS runtime libraries": a track's row on the timeline
    const char* title; // "OS runtime calls": what its events are, as `info` and the Summary count them
    KindSide side;
    KindColumns columns;
    const char* csvFile; // "osrt.csv": its file of `sightline export --type csv`
    const char* chromeCategory; // "os_runtime": its events' "cat" in a Chrome trace
    const char* chromeCategoryVariant; // driver calls, memsets; "" when none
    const char* nsysTable; // "OSRT_API": its table in an Nsight Systems SQLite export
    const char* nsysTableVariant; // memsets; "" when none
};

inline constexpr std::array<EventKindInfo, kTrackKindCount> kEventKinds {{
    {TrackKind::CudaApi, "CUDA API", "CUDA API", "CUDA API calls", KindSide::Host,
        {.correlation = true,
            .detail = true,
            .value = false,
            .launch = false,
            .transfer = false,
            .returnValue = true,
            .domain = false},
        "cuda_api.csv", "cuda_runtime", "cuda_driver", "CUPTI_ACTIVITY_KIND_RUNTIME", ""},
    {TrackKind::Nvtx, "NVTX", "NVTX", "NVTX ranges and marks", KindSide::Host,
        {.correlation = false,
            .detail = true,
            .value = false,
            .launch = false,
            .transfer = false,
            .returnValue = false,
            .domain = true},
        "nvtx.csv", "nvtx", "", "NVTX_EVENTS", ""},
    {TrackKind::OsRuntime, "OS runtime", "OS runtime libraries", "OS runtime calls", KindSide::Host,
        {.correlation = false,
            .detail = false,
            .value = true,
            .launch = false,
            .transfer = false,
            .returnValue = true,
            .domain = false},
        "osrt.csv", "os_runtime", "", "OSRT_API", ""},
    {TrackKind::Kernels, "Kernels", "Kernels", "CUDA kernels", KindSide::Gpu,
        {.correlation = true,
            .detail = true,
            .value = false,
            .launch = true,
            .transfer = false,
            .returnValue = false,
            .domain = false},
        "kernels.csv", "kernel", "", "CUPTI_ACTIVITY_KIND_KERNEL", ""},
    {TrackKind::Memory, "Memory", "Memory", "Memory operations", KindSide::Gpu,
        {.correlation = true,
            .detail = true,
            .value = true,
            .launch = false,
            .transfer = true,
            .returnValue = false,
            .domain = false},
        "memory.csv", "gpu_memcpy", "gpu_memset", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"},
    {TrackKind::Synchronization, "Synchronization", "Synchronization", "Synchronizations", KindSide::Gpu,
        {.correlation = true,
            .detail = true,
            .value = false,
            .launch = false,
            .transfer = false,
            .returnValue = false,
            .domain = false},
        "sync.csv", "cuda_sync", "", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", ""},
}};

constexpr bool tableFollowsEnum()
{
    for (size_t k = 0; k < kEventKinds.size(); ++k)
        if (kEventKinds[k].kind != TrackKind(k)) return false;
    return true;
}
static_assert(tableFollowsEnum(), "kEventKinds lists every TrackKind at its own index");

constexpr const EventKindInfo& eventKind(TrackKind kind)
{
    return kEventKinds[size_t(kind)];
}

constexpr bool isGpuKind(TrackKind kind)
{
    return eventKind(kind).side == KindSide::Gpu;
}

// Which optional columns of a track (EventColumns) a kind fills.
constexpr bool hasCorrelation(TrackKind kind)
{
    return eventKind(kind).columns.correlation;
}
constexpr bool hasDetail(TrackKind kind)
{
    return eventKind(kind).columns.detail;
}
constexpr bool hasValue(TrackKind kind)
{
    return eventKind(kind).columns.value;
}

} // namespace sightline
