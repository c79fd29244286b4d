#include "emitter.h"

#include <algorithm>

namespace sightline::gen {
namespace {

constexpr double kVariantDuration[kKernelVariants] = {1.0, 1.8, 3.2};
constexpr double kDriverCallShare = 0.3;

// Sustained copy rates in bytes per nanosecond (GB/s), H200 on PCIe Gen5 and NVLink.
double copyRate(const CopyRequest& request)
{
    switch (request.kind) {
    case CopyKind::DtoD:
        return 1400;
    case CopyKind::PtoP:
        return 110;
    default:
        break;
    }
    bool pageable = request.source == MemoryKind::Pageable || request.destination == MemoryKind::Pageable;
    return pageable ? 9 : 24;
}

} // namespace

InternedCatalog::InternedCatalog(TraceBuilder& builder)
{
    for (int k = 0; k < kKernelCount; ++k) {
        const KernelSpec& spec = kernelSpec(Kernel(k));
        kernelNames[k] = builder.intern(spec.demangled);
        for (uint32_t v = 0; v < kKernelVariants; ++v) {
            KernelLaunch& launch = launches[k][v];
            launch.shortName = builder.intern(spec.shortName);
            launch.mangledName = builder.intern(spec.mangled);
            launch.grid = spec.grid;
            launch.grid[0] <<= v;
            launch.block = spec.block;
            launch.registersPerThread = spec.registersPerThread;
            launch.staticSharedMemory = spec.staticSharedMemory;
            launch.dynamicSharedMemory = spec.dynamicSharedMemory;
        }
    }
    for (int a = 0; a < kApiCount; ++a)
        apiNames[a] = builder.intern(apiSpec(Api(a)).name);
    for (int o = 0; o < kOsFunctionCount; ++o)
        osNames[o] = builder.intern(osFunctionName(OsFunction(o)));
}

Emitter::Emitter(
    TraceBuilder& builder, const InternedCatalog& catalog, Pid pid, EventBudget& budget, Random& random)
    : m_builder(builder)
    , m_catalog(catalog)
    , m_pid(pid)
    , m_budget(budget)
    , m_random(random)
{ }

bool Emitter::wantsDriverCall(Api api)
{
    return apiSpec(api).nestedDriver != Api::Count && m_random.chance(kDriverCallShare);
}

void Emitter::addApiCall(HostThread& thread, Api api, Timestamp start, Timestamp end,
    CorrelationId correlation, int32_t returnCode, bool withDriver)
{
    if (thread.apiTrack == kNoTrack)
        thread.apiTrack = m_builder.hostTrack(TrackKind::CudaApi, m_pid, thread.tid);
    ApiCall call {start, end, m_catalog.apiNames[size_t(api)], correlation, {ApiClass::Runtime, returnCode}};
    m_builder.add(thread.apiTrack, call);
    if (withDriver) {
        // The driver call sits strictly inside the runtime call, one nesting level down.
        Duration margin = std::max<Duration>(1, (end - start) / 8);
        Api driver = apiSpec(api).nestedDriver;
        ApiCall inner {start + margin, end - margin, m_catalog.apiNames[size_t(driver)], correlation,
            {ApiClass::Driver, returnCode}};
        m_builder.add(thread.apiTrack, inner);
    }
}

Timestamp Emitter::gpuStart(const GpuStream& stream, Timestamp apiStart)
{
    Timestamp afterLaunch = apiStart + m_random.logNormal(3500, 0.4);
    Timestamp afterQueue = stream.busyUntil + m_random.logNormal(1200, 0.6);
    return std::max(afterLaunch, afterQueue);
}

TrackId Emitter::gpuTrack(GpuStream& stream, TrackKind kind)
{
    TrackId& slot = kind == TrackKind::Kernels ? stream.kernels
        : kind == TrackKind::Memory            ? stream.memory
                                               : stream.sync;
    if (slot == kNoTrack) slot = m_builder.gpuTrack(kind, m_pid, stream.device, stream.context, stream.id);
    return slot;
}

bool Emitter::launchKernel(HostThread& thread, GpuStream& stream, Kernel kernel, uint32_t variant)
{
    bool driver = wantsDriverCall(Api::LaunchKernel);
    if (!charge(driver ? 3 : 2)) return false;
    const KernelSpec& spec = kernelSpec(kernel);
    Timestamp start = thread.now;
    Timestamp end = start + m_random.logNormal(apiSpec(Api::LaunchKernel).medianNs, 0.35);
    CorrelationId correlation = nextCorrelation();
    addApiCall(thread, Api::LaunchKernel, start, end, correlation, 0, driver);

    KernelEvent event;
    event.start = gpuStart(stream, start);
    event.end = event.start + m_random.logNormal(spec.medianNs * kVariantDuration[variant], spec.spreadLog2);
    event.name = m_catalog.kernelNames[size_t(kernel)];
    event.correlation = correlation;
    event.launch = m_catalog.launches[size_t(kernel)][variant];
    m_builder.add(gpuTrack(stream, TrackKind::Kernels), event);
    stream.busyUntil = event.end;
    thread.now = end;
    think(thread);
    return true;
}

bool Emitter::copy(HostThread& thread, GpuStream& stream, const CopyRequest& request)
{
    bool driver = wantsDriverCall(request.api);
    if (!charge(driver ? 3 : 2)) return false;
    bool blocking = request.api == Api::Memcpy || request.source == MemoryKind::Pageable
        || request.destination == MemoryKind::Pageable;
    Timestamp start = thread.now;
    CorrelationId correlation = nextCorrelation();

    MemoryEvent event;
    event.start = gpuStart(stream, start);
    double transfer = double(request.bytes) / copyRate(request) * m_random.logNormal(1000, 0.15) / 1000.0;
    event.end = event.start + m_random.logNormal(1200, 0.3) + Duration(transfer);
    event.correlation = correlation;
    event.bytes = request.bytes;
    event.op.kind = MemoryOpKind::Memcpy;
    event.op.copyKind = request.kind;
    event.op.srcKind = request.source;
    event.op.dstKind = request.destination;
    event.op.srcDevice = request.peerSource.value_or(stream.device);
    event.op.dstDevice = stream.device;
    m_builder.add(gpuTrack(stream, TrackKind::Memory), event);
    stream.busyUntil = event.end;

    Timestamp end = start + m_random.logNormal(apiSpec(request.api).medianNs, 0.35);
    if (blocking) end = std::max(end, event.end + m_random.logNormal(2500, 0.4));
    addApiCall(thread, request.api, start, end, correlation, 0, driver);
    thread.now = end;
    think(thread);
    return true;
}

bool Emitter::memset(HostThread& thread, GpuStream& stream, uint64_t bytes, uint32_t value)
{
    bool driver = wantsDriverCall(Api::MemsetAsync);
    if (!charge(driver ? 3 : 2)) return false;
    Timestamp start = thread.now;
    Timestamp end = start + m_random.logNormal(apiSpec(Api::MemsetAsync).medianNs, 0.35);
    CorrelationId correlation = nextCorrelation();
    addApiCall(thread, Api::MemsetAsync, start, end, correlation, 0, driver);

    MemoryEvent event;
    event.start = gpuStart(stream, start);
    event.end = event.start + m_random.logNormal(1500, 0.3)
        + Duration(double(bytes) / 2500 * m_random.logNormal(1000, 0.1) / 1000.0);
    event.correlation = correlation;
    event.bytes = bytes;
    event.op.kind = MemoryOpKind::Memset;
    event.op.srcKind = MemoryKind::Device;
    event.op.memsetValue = value;
    event.op.srcDevice = stream.device;
    event.op.dstDevice = stream.device;
    m_builder.add(gpuTrack(stream, TrackKind::Memory), event);
    stream.busyUntil = event.end;
    thread.now = end;
    think(thread);
    return true;
}

void Emitter::addSync(GpuStream& stream, SyncType type, uint32_t eventId, Timestamp start, Timestamp end,
    CorrelationId correlation)
{
    start = std::max(start, stream.syncBusyUntil);
    end = std::max(end, start + 1);
    SyncEvent event {start, end, correlation, {type, eventId}};
    m_builder.add(gpuTrack(stream, TrackKind::Synchronization), event);
    stream.syncBusyUntil = end;
}

bool Emitter::synchronizeStream(HostThread& thread, GpuStream& stream)
{
    bool driver = wantsDriverCall(Api::StreamSynchronize);
    if (!charge(driver ? 3 : 2)) return false;
    Timestamp start = thread.now;
    Timestamp end = std::max(start + m_random.logNormal(apiSpec(Api::StreamSynchronize).medianNs, 0.3),
        stream.busyUntil + m_random.logNormal(1500, 0.3));
    CorrelationId correlation = nextCorrelation();
    addApiCall(thread, Api::StreamSynchronize, start, end, correlation, 0, driver);
    addSync(stream, SyncType::StreamSynchronize, 0, start + 300, end - 300, correlation);
    thread.now = end;
    think(thread);
    return true;
}

std::optional<CudaEvent> Emitter::recordEvent(HostThread& thread, GpuStream& stream)
{
    bool driver = wantsDriverCall(Api::EventRecord);
    if (!charge(driver ? 2 : 1)) return std::nullopt;
    Timestamp start = thread.now;
    Timestamp end = start + m_random.logNormal(apiSpec(Api::EventRecord).medianNs, 0.3);
    addApiCall(thread, Api::EventRecord, start, end, nextCorrelation(), 0, driver);
    thread.now = end;
    think(thread);
    return CudaEvent {++m_lastEventId, &stream, std::max(stream.busyUntil, start)};
}

bool Emitter::waitEvent(HostThread& thread, GpuStream& stream, const CudaEvent& event)
{
    bool driver = wantsDriverCall(Api::StreamWaitEvent);
    if (!charge(driver ? 3 : 2)) return false;
    Timestamp start = thread.now;
    Timestamp end = start + m_random.logNormal(apiSpec(Api::StreamWaitEvent).medianNs, 0.3);
    CorrelationId correlation = nextCorrelation();
    addApiCall(thread, Api::StreamWaitEvent, start, end, correlation, 0, driver);
    addSync(stream, SyncType::StreamWaitEvent, event.id, start + 200, end - 200, correlation);
    stream.busyUntil = std::max(stream.busyUntil, event.completes);
    thread.now = end;
    think(thread);
    return true;
}

bool Emitter::synchronizeEvent(HostThread& thread, const CudaEvent& event)
{
    bool driver = wantsDriverCall(Api::EventSynchronize);
    if (!charge(driver ? 3 : 2)) return false;
    Timestamp start = thread.now;
    Timestamp end = std::max(start + m_random.logNormal(apiSpec(Api::EventSynchronize).medianNs, 0.3),
        event.completes + m_random.logNormal(1500, 0.3));
    CorrelationId correlation = nextCorrelation();
    addApiCall(thread, Api::EventSynchronize, start, end, correlation, 0, driver);
    addSync(*event.stream, SyncType::EventSynchronize, event.id, start + 300, end - 300, correlation);
    thread.now = end;
    think(thread);
    return true;
}

bool Emitter::queryEvent(HostThread& thread, const CudaEvent& event)
{
    Timestamp start = thread.now;
    return plainCall(thread, Api::EventQuery, 0, event.completes > start ? kCudaErrorNotReady : 0);
}

bool Emitter::plainCall(HostThread& thread, Api api, Duration duration, int32_t returnCode)
{
    bool driver = wantsDriverCall(api);
    if (!charge(driver ? 2 : 1)) return false;
    if (duration <= 0) duration = m_random.logNormal(apiSpec(api).medianNs, 0.35);
    Timestamp start = thread.now;
    addApiCall(thread, api, start, start + duration, nextCorrelation(), returnCode, driver);
    thread.now = start + duration;
    think(thread);
    return true;
}

bool Emitter::osCall(HostThread& thread, OsFunction function, Duration duration, int64_t returnValue)
{
    if (!charge(1)) return false;
    recordOsCall(thread, function, thread.now, thread.now + std::max<Duration>(duration, 1), returnValue);
    thread.now += m_random.logNormal(800, 0.5);
    return true;
}

void Emitter::recordOsCall(
    HostThread& thread, OsFunction function, Timestamp start, Timestamp end, int64_t returnValue)
{
    if (thread.osTrack == kNoTrack)
        thread.osTrack = m_builder.hostTrack(TrackKind::OsRuntime, m_pid, thread.tid);
    m_builder.add(
        thread.osTrack, sightline::OsCall {start, end, m_catalog.osNames[size_t(function)], returnValue});
    thread.now = std::max(thread.now, end);
}

TrackId Emitter::nvtxTrack(HostThread& thread, DomainId domain)
{
    for (const auto& [d, track] : thread.nvtxTracks)
        if (d == domain) return track;
    TrackId track = m_builder.hostTrack(TrackKind::Nvtx, m_pid, thread.tid, domain);
    thread.nvtxTracks.emplace_back(domain, track);
    return track;
}

NvtxAttributes Emitter::attributesOf(const RangeStyle& style, Tid tid) const
{
    NvtxAttributes attributes;
    attributes.domain = style.domain;
    attributes.category = style.category;
    attributes.color = style.color;
    attributes.hasColor = style.color != 0;
    attributes.endThread = tid;
    attributes.payloadType = style.payloadType;
    attributes.payload = style.payload;
    return attributes;
}

bool Emitter::push(HostThread& thread, const RangeStyle& style)
{
    if (!charge(1)) return false;
    NvtxAttributes attributes = attributesOf(style, thread.tid);
    thread.pushed.push_back({thread.now, style.name, attributes, nvtxTrack(thread, style.domain)});
    thread.now += m_random.logNormal(250, 0.4);
    return true;
}

void Emitter::pop(HostThread& thread)
{
    OpenRange range = thread.pushed.back();
    thread.pushed.pop_back();
    m_builder.add(range.track, NvtxEvent {range.start, thread.now, range.name, range.attributes});
    thread.now += m_random.logNormal(250, 0.4);
}

bool Emitter::mark(HostThread& thread, const RangeStyle& style)
{
    if (!charge(1)) return false;
    NvtxAttributes attributes = attributesOf(style, thread.tid);
    attributes.style = NvtxStyle::Mark;
    m_builder.add(
        nvtxTrack(thread, style.domain), NvtxEvent {thread.now, thread.now, style.name, attributes});
    thread.now += m_random.logNormal(300, 0.4);
    return true;
}

std::optional<OpenRange> Emitter::startRange(HostThread& thread, const RangeStyle& style)
{
    if (!charge(1)) return std::nullopt;
    NvtxAttributes attributes = attributesOf(style, thread.tid);
    attributes.style = NvtxStyle::StartEnd;
    OpenRange range {thread.now, style.name, attributes, nvtxTrack(thread, style.domain)};
    thread.now += m_random.logNormal(300, 0.4);
    return range;
}

void Emitter::endRange(const OpenRange& range, const HostThread& ender)
{
    NvtxEvent event {range.start, std::max(ender.now, range.start + 1), range.name, range.attributes};
    event.attributes.endThread = ender.tid;
    m_builder.add(range.track, event);
}

void Emitter::padToLimit(HostThread& thread)
{
    while (m_budget.left() > 0) {
        ++m_budget.used;
        bool write = m_budget.left() % 2 == 0;
        Duration duration = write ? m_random.logNormal(9000, 0.5) : m_random.logNormal(120000, 0.8);
        recordOsCall(thread, write ? OsFunction::Write : OsFunction::Poll, thread.now, thread.now + duration,
            write ? 64 + int64_t(m_random.below(192)) : 0);
        thread.now += m_random.logNormal(2000, 0.5);
    }
}

} // namespace sightline::gen
