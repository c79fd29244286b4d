#include "scenario_writer.h"

#include <algorithm>

namespace sightline::gen {
namespace {

constexpr Duration kAsyncCopyCall = 6000;
constexpr Duration kShortestWait = 2000;
constexpr Duration kWakeUp = 5000;
constexpr Duration kCopySetup = 1200;
constexpr Duration kMemsetSetup = 1000;
constexpr uint64_t kPinnedRate = 24; // bytes per ns
constexpr uint64_t kPageableRate = 9;
constexpr uint64_t kMemsetRate = 2500;

constexpr Timestamp kFirstCall = 2'000'000;
constexpr Pid kPid(4242);
constexpr Tid kTid(4242);
constexpr DeviceId kDevice(0);
constexpr ContextId kContext(1);
constexpr StreamId kStream(7); // the legacy default stream, as CUPTI numbers it

TrackId streamTrack(TraceBuilder& builder, TrackKind kind)
{
    return builder.gpuTrack(kind, kPid, kDevice, kContext, kStream);
}

void registerEntities(TraceBuilder& builder)
{
    builder.addProcess(Process {kPid, "python", {"python", "scenario.py"}});
    builder.addThread(Thread {kPid, kTid, "python"});
    Gpu gpu;
    gpu.device = kDevice;
    gpu.name = "NVIDIA H100 80GB HBM3";
    gpu.uuid = "GPU-5cea0001-0000-4000-8000-000000000000";
    gpu.busId = "0000:19:00.0";
    gpu.computeMajor = 9;
    gpu.computeMinor = 0;
    gpu.smCount = 132;
    gpu.memoryBytes = 81559ull << 20;
    gpu.coreClockKHz = 1980000;
    gpu.memoryClockKHz = 2619000;
    builder.addGpu(gpu);
    builder.addContext(CudaContext {kPid, kDevice, kContext});
    builder.addStream(CudaStream {kPid, kDevice, kContext, kStream, 0, true});
}

} // namespace

ScenarioWriter::ScenarioWriter(TraceBuilder& builder, std::vector<PlantedEvent>& planted, Duration hostGap)
    : m_builder(builder)
    , m_planted(planted)
    , m_hostGap(hostGap)
    , m_now(kFirstCall)
{
    registerEntities(builder);
    m_api = builder.hostTrack(TrackKind::CudaApi, kPid, kTid);
    m_nvtx = builder.hostTrack(TrackKind::Nvtx, kPid, kTid);
    m_kernels = streamTrack(builder, TrackKind::Kernels);
    m_memory = streamTrack(builder, TrackKind::Memory);
    m_sync = streamTrack(builder, TrackKind::Synchronization);
    m_stepName = builder.intern("step");
}

Timestamp ScenarioWriter::gpuStart(Timestamp call) const
{
    return std::max(call + kScenarioLaunchLatency, m_busyUntil);
}

TimeRange ScenarioWriter::launch(const KernelLaunch& launch, Duration length, std::optional<Plant> plant)
{
    const Timestamp call = m_now;
    const CorrelationId correlation = nextCorrelation();
    const TimeRange kernel {gpuStart(call), gpuStart(call) + length};
    m_builder.add(m_kernels, KernelEvent {kernel.start, kernel.end, launch.shortName, correlation, launch});
    m_busyUntil = kernel.end;
    if (plant) m_planted.push_back({*plant, TrackKind::Kernels, kernel});
    addCall("cudaLaunchKernel", call, call + kScenarioLaunchCall, correlation);
    return kernel;
}

TimeRange ScenarioWriter::addMemoryEvent(MemoryEvent event, Duration length, std::optional<Plant> plant)
{
    event.start = gpuStart(m_now);
    event.end = event.start + length;
    m_builder.add(m_memory, event);
    m_busyUntil = event.end;
    if (plant) m_planted.push_back({*plant, TrackKind::Memory, {event.start, event.end}});
    return {event.start, event.end};
}

void ScenarioWriter::copy(CopyKind kind, MemoryKind source, MemoryKind destination, uint64_t bytes,
    bool async, std::optional<Plant> plant)
{
    const bool pageable = source == MemoryKind::Pageable || destination == MemoryKind::Pageable;
    const Timestamp call = m_now;
    MemoryEvent event;
    event.correlation = nextCorrelation();
    event.bytes = bytes;
    event.op = MemoryOp {MemoryOpKind::Memcpy, kind, source, destination, 0, kDevice, kDevice};
    const Duration length = kCopySetup + Duration(bytes / (pageable ? kPageableRate : kPinnedRate));
    const TimeRange done = addMemoryEvent(event, length, plant);
    const bool blocking = !async || pageable;
    const Timestamp end
        = blocking ? std::max(call + kAsyncCopyCall, done.end + kWakeUp) : call + kAsyncCopyCall;
    addCall(async ? "cudaMemcpyAsync" : "cudaMemcpy", call, end, event.correlation);
}

void ScenarioWriter::memset(uint64_t bytes, std::optional<Plant> plant)
{
    const Timestamp call = m_now;
    MemoryEvent event;
    event.correlation = nextCorrelation();
    event.bytes = bytes;
    event.op = MemoryOp {MemoryOpKind::Memset, CopyKind::Unknown, MemoryKind::Device, MemoryKind::Unknown, 0,
        kDevice, kDevice};
    const TimeRange done = addMemoryEvent(event, kMemsetSetup + Duration(bytes / kMemsetRate), plant);
    addCall("cudaMemset", call, std::max(call + kShortestWait, done.end + kWakeUp), event.correlation);
}

void ScenarioWriter::synchronize(std::string_view api, std::optional<Plant> plant)
{
    const Timestamp call = m_now;
    const CorrelationId correlation = nextCorrelation();
    const Timestamp end = std::max(call + kShortestWait, m_busyUntil + kWakeUp);
    const SyncType type
        = api == "cudaStreamSynchronize" ? SyncType::StreamSynchronize : SyncType::ContextSynchronize;
    m_builder.add(m_sync, SyncEvent {call + 300, end - 300, correlation, SyncOp {type, 0}});
    if (plant) m_planted.push_back({*plant, TrackKind::CudaApi, {call, end}});
    addCall(api, call, end, correlation);
}

void ScenarioWriter::endStep()
{
    NvtxAttributes attributes;
    attributes.endThread = kTid;
    m_builder.add(m_nvtx, NvtxEvent {m_stepStart, m_now, m_stepName, attributes});
}

void ScenarioWriter::addCall(std::string_view api, Timestamp start, Timestamp end, CorrelationId correlation)
{
    m_builder.add(m_api, ApiCall {start, end, m_builder.intern(api), correlation, {ApiClass::Runtime, 0}});
    m_now = end + m_hostGap;
}

} // namespace sightline::gen
