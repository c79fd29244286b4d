#include "export_fixture.h"

#include "../../test_paths.h"
#include "model/construct/trace_builder.h"
#include "model/export/exporters.h"
#include "model/text/utf8_repair.h"
#include "model/trace/event_access.h"

#include <bit>
#include <stdexcept>

namespace sightline::test {

const std::string kTrickyKernelName = "void gemm<float, 128>(\"tile\\\\a\",\n\tcaf\xC3\xA9)";
const std::string kInvalidUtf8KernelName = "bad\xFFname";

namespace {

constexpr Pid kPidA {4242};
constexpr Pid kPidB {5151};
constexpr Tid kMainThread {4242};
constexpr Tid kLoaderThread {4250};
constexpr Tid kWorkerThread {5151};

struct Launcher
{
    TraceBuilder& b;
    uint32_t nextCorrelation = 100;

    // A runtime call with a nested driver call, both carrying the returned correlation id.
    CorrelationId launch(Pid pid, Tid tid, std::string_view runtimeName, std::string_view driverName,
        Timestamp t, Duration length, int32_t returnCode = 0)
    {
        const CorrelationId id(nextCorrelation++);
        const TrackId api = b.hostTrack(TrackKind::CudaApi, pid, tid);
        b.add(api, ApiCall {t, t + length, b.intern(runtimeName), id, {ApiClass::Runtime, returnCode}});
        b.add(api, ApiCall {t + 300, t + length - 200, b.intern(driverName), id, {ApiClass::Driver, 0}});
        return id;
    }
};

void addEntities(TraceBuilder& b)
{
    ReportMetadata& m = b.metadata();
    m.toolVersion = "sightline 0.1.0";
    m.producer = "export test";
    m.commandLine = {"python3", "train.py", "--epochs", "1"};
    m.workingDirectory = "/work";
    m.hostname = "gpu-node-7";
    m.osName = "Debian 12 (Linux 6.1)";
    m.cpuModel = "Test CPU";
    m.cpuCores = 2;
    m.driverVersion = "560.35.03";
    m.cudaVersion = "12.6";
    m.startTimeUtcNs = 1'733'877'925'987'393'218;
    m.options = {{"trace", "cuda,nvtx,osrt"}};
    m.environment = {{"CUDA_VISIBLE_DEVICES", "0,1"}};

    b.addProcess({kPidA, "python3", {"python3", "train.py"}});
    b.addProcess({kPidB, "worker", {"worker", "--rank=1"}});
    b.addThread({kPidA, kMainThread, "python3"});
    b.addThread({kPidA, kLoaderThread, "loader"});
    b.addThread({kPidB, kWorkerThread, "worker"});
    b.addGpu({DeviceId(0), "NVIDIA H200", "GPU-9f8075aa-e02a-0953-1955-32f638fb2993", "0000:45:00.0", 9, 0,
        132, 150'137'864'192, 1'980'000, 2'619'000});
    b.addGpu({DeviceId(1), "NVIDIA H200", "GPU-bd2a81ed-b150-22a2-9a53-2cc03b8b3a43", "0000:46:00.0", 9, 0,
        132, 150'137'864'192, 1'980'000, 2'619'000});
    b.addContext({kPidA, DeviceId(0), ContextId(1)});
    b.addStream({kPidA, DeviceId(0), ContextId(1), StreamId(7), 0, true});
    b.addStream({kPidA, DeviceId(0), ContextId(1), StreamId(13), -2, false});
    b.addContext({kPidB, DeviceId(1), ContextId(2)});
    b.addStream({kPidB, DeviceId(1), ContextId(2), StreamId(7), 0, true});
    b.addContext({kPidB, DeviceId(0), ContextId(3)});
    b.addStream({kPidB, DeviceId(0), ContextId(3), StreamId(7), 0, true});
    b.addDiagnostic({Severity::Warning, "collector", "12 activity records were dropped."});
}

void addGpuWork(TraceBuilder& b)
{
    Launcher launcher {b};
    const std::string kernelNames[] = {
        "void gemm<float, 128>(float*, int)", "elementwise_add", kTrickyKernelName, kInvalidUtf8KernelName};
    const CopyKind copyKinds[] = {CopyKind::HtoD, CopyKind::DtoH, CopyKind::DtoD, CopyKind::PtoP};
    const MemoryKind srcKinds[]
        = {MemoryKind::Pageable, MemoryKind::Device, MemoryKind::Device, MemoryKind::Device};
    const MemoryKind dstKinds[]
        = {MemoryKind::Device, MemoryKind::Pinned, MemoryKind::Device, MemoryKind::Device};

    for (uint32_t i = 0; i < 60; ++i) {
        const Timestamp t = 1'000'000 + Timestamp(i) * 50'000 + Timestamp(i * 37 % 1000);
        const StreamId stream(i % 2 ? 13 : 7);
        const TrackId kernels = b.gpuTrack(TrackKind::Kernels, kPidA, DeviceId(0), ContextId(1), stream);
        const TrackId memory = b.gpuTrack(TrackKind::Memory, kPidA, DeviceId(0), ContextId(1), stream);
        const TrackId sync = b.gpuTrack(TrackKind::Synchronization, kPidA, DeviceId(0), ContextId(1), stream);
        const Timestamp gpuStart = t + 10'000 + Timestamp(i % 7);
        switch (i % 6) {
        case 0:
        case 1:
        case 2: {
            const CorrelationId id = launcher.launch(
                kPidA, kMainThread, "cudaLaunchKernel", "cuLaunchKernel", t, 4321, i == 57 ? 719 : 0);
            KernelEvent k;
            k.start = gpuStart;
            k.end = gpuStart + 2'000 + Timestamp(i) * 111;
            k.name = b.intern(kernelNames[i % 4]);
            k.correlation = id;
            k.launch.shortName = b.intern(i % 4 == 0 ? "gemm" : kernelNames[i % 4]);
            k.launch.mangledName = i % 4 == 0 ? b.intern("_Z4gemmIfLi128EEvPfi") : StringId();
            k.launch.grid = {i + 1, 2, 1};
            k.launch.block = {128, i % 3 + 1, 1};
            k.launch.registersPerThread = 32 + i % 8;
            k.launch.staticSharedMemory = 1024 * (i % 3);
            k.launch.dynamicSharedMemory = 512 * (i % 5);
            k.launch.localMemoryPerThread = i % 2 ? 16 : 0;
            k.launch.localMemoryTotal = 155'713'536;
            k.launch.launchType = LaunchType(i % kLaunchTypeCount);
            k.launch.graphId = i % 5 == 0 ? 3 : 0;
            k.launch.graphNodeId = i % 5 == 0 ? 0x1'0000'0001ull + i : 0;
            b.add(kernels, k);
            break;
        }
        case 3: {
            const uint32_t c = (i / 6) % 4;
            const CorrelationId id
                = launcher.launch(kPidA, kMainThread, "cudaMemcpyAsync", "cuMemcpyAsync", t, 3333);
            MemoryOp op {MemoryOpKind::Memcpy, copyKinds[c], srcKinds[c], dstKinds[c], 0, DeviceId(0),
                DeviceId(c == 3 ? 1 : 0)};
            b.add(memory,
                MemoryEvent {gpuStart, gpuStart + 700 + Timestamp(i), id, op, uint64_t(1) << (10 + i % 10)});
            break;
        }
        case 4: {
            const CorrelationId id
                = launcher.launch(kPidA, kMainThread, "cudaMemsetAsync", "cuMemsetD8Async", t, 2100);
            MemoryOp op;
            op.kind = MemoryOpKind::Memset;
            op.srcKind = i % 4 ? MemoryKind::Device : MemoryKind::Managed;
            op.memsetValue = i;
            b.add(memory, MemoryEvent {gpuStart, gpuStart + 450, id, op, 4096ull * i});
            break;
        }
        default: {
            const bool streamSync = (i / 6) % 2 == 0;
            const CorrelationId id = launcher.launch(kPidA, kMainThread,
                streamSync ? "cudaStreamSynchronize" : "cudaEventSynchronize",
                streamSync ? "cuStreamSynchronize" : "cuEventSynchronize", t, 9000);
            SyncOp op {
                streamSync ? SyncType::StreamSynchronize : SyncType::EventSynchronize, streamSync ? 0u : i};
            b.add(sync, SyncEvent {t + 500, t + 8'500, id, op});
        }
        }
    }
    // A call with no GPU work, and a copy with no launching call (correlation 0).
    launcher.launch(kPidA, kMainThread, "cudaGetDevice", "cuCtxGetDevice", 4'500'000, 900);
    const TrackId memory7 = b.gpuTrack(TrackKind::Memory, kPidA, DeviceId(0), ContextId(1), StreamId(7));
    b.add(memory7,
        MemoryEvent {4'600'123, 4'601'456, CorrelationId(),
            {MemoryOpKind::Memcpy, CopyKind::HtoD, MemoryKind::Pinned, MemoryKind::Device, 0, DeviceId(0),
                DeviceId(0)},
            65536});

    // Process B: kernels on device 1 and on device 0, where its stream 7 shares an id with A's.
    for (uint32_t j = 0; j < 20; ++j) {
        const Timestamp t = 1'200'000 + Timestamp(j) * 70'000 + 321;
        const bool device1 = j % 2 == 0;
        const CorrelationId id
            = launcher.launch(kPidB, kWorkerThread, "cudaLaunchKernel", "cuLaunchKernel", t, 3000);
        const TrackId kernels = b.gpuTrack(
            TrackKind::Kernels, kPidB, DeviceId(device1 ? 1 : 0), ContextId(device1 ? 2 : 3), StreamId(7));
        KernelEvent k;
        k.start = t + 20'000;
        k.end = t + 20'000 + 5'000 + Timestamp(j) * 3;
        k.name = b.intern(j % 3 ? "elementwise_add" : "reduce_sum");
        k.correlation = id;
        k.launch.shortName = k.name;
        k.launch.grid = {64, 1, 1};
        k.launch.block = {256, 1, 1};
        b.add(kernels, k);
    }
}

NvtxAttributes nvtxStyle(NvtxStyle style, DomainId domain, Tid endThread)
{
    NvtxAttributes a;
    a.style = style;
    a.domain = domain;
    a.endThread = endThread;
    return a;
}

void addNvtxAndOsRuntime(TraceBuilder& b)
{
    const DomainId io = b.addDomain("io");
    b.addDomain("unused");
    const TrackId mainDefault = b.hostTrack(TrackKind::Nvtx, kPidA, kMainThread);
    const PayloadType payloadTypes[] = {PayloadType::UInt64, PayloadType::Int64, PayloadType::Double,
        PayloadType::UInt32, PayloadType::Int32, PayloadType::Float};
    const uint64_t payloads[] = {(uint64_t(1) << 63) | 5, uint64_t(int64_t(-7)), std::bit_cast<uint64_t>(2.5),
        4'000'000'000u, uint32_t(int32_t(-3)), std::bit_cast<uint32_t>(1.25f)};
    for (uint32_t step = 0; step < 6; ++step) {
        const Timestamp t = 1'000'000 + Timestamp(step) * 500'000 + 250;
        NvtxAttributes outer = nvtxStyle(NvtxStyle::PushPop, DomainId(), kMainThread);
        outer.hasColor = true;
        outer.color = 0xFF76B900;
        outer.category = 1;
        outer.payloadType = payloadTypes[step];
        outer.payload = payloads[step];
        b.add(mainDefault, NvtxEvent {t, t + 400'000 + 7, b.intern("train_step"), outer});
        NvtxAttributes inner = nvtxStyle(NvtxStyle::PushPop, DomainId(), kMainThread);
        inner.hasColor = step % 2 == 0;
        inner.color = 0x80FF0000u + step;
        b.add(mainDefault, NvtxEvent {t + 1'000, t + 150'000 + 3, b.intern("forward"), inner});
        b.add(mainDefault, NvtxEvent {t + 160'000, t + 390'000 + 9, b.intern("backward"), inner});
        b.add(mainDefault,
            NvtxEvent {t + 155'555, t + 155'555, b.intern("checkpoint, \"mark\""),
                nvtxStyle(NvtxStyle::Mark, DomainId(), kMainThread)});
        // Start/end ranges in the "io" domain that begin on the loader and end on the main thread,
        // overlapping each other.
        const TrackId loaderIo = b.hostTrack(TrackKind::Nvtx, kPidA, kLoaderThread, io);
        b.add(loaderIo,
            NvtxEvent {t + 20'001, t + 620'002, b.intern("load_batch"),
                nvtxStyle(NvtxStyle::StartEnd, io, kMainThread)});
    }
    const TrackId workerIo = b.hostTrack(TrackKind::Nvtx, kPidB, kWorkerThread, io);
    b.add(workerIo,
        NvtxEvent {
            1'300'000, 1'900'000, b.intern("prefetch"), nvtxStyle(NvtxStyle::PushPop, io, kWorkerThread)});

    const TrackId osrt = b.hostTrack(TrackKind::OsRuntime, kPidA, kLoaderThread);
    for (uint32_t i = 0; i < 10; ++i) {
        const Timestamp t = 1'100'000 + Timestamp(i) * 200'000 + 11;
        b.add(osrt, OsCall {t, t + 5'000 + i, b.intern("pthread_mutex_lock"), 0});
        b.add(osrt, OsCall {t + 100, t + 4'000, b.intern("futex"), i % 3 == 0 ? -1 : 0});
        b.add(osrt, OsCall {t + 10'000, t + 12'345, b.intern(i % 2 ? "read" : "open"), i % 2 ? 4096 : -1});
    }
}

} // namespace

Trace makeEveryKindTrace()
{
    TraceBuilder builder;
    addEntities(builder);
    addGpuWork(builder);
    addNvtxAndOsRuntime(builder);
    return builder.build(1);
}

std::map<std::string, KindTotals> totalsByName(const Trace& trace, TrackKind kind)
{
    std::map<std::string, KindTotals> totals;
    for (const Track& t : trace.tracks) {
        if (t.key.kind != kind) continue;
        for (uint32_t i = 0; i < t.size(); ++i) {
            KindTotals& entry = totals[repairUtf8(trace.strings[t.events.name[i]])]; // as exports write it
            ++entry.count;
            entry.totalDuration += t.events.end[i] - t.events.start[i];
        }
    }
    return totals;
}

KindTotals totalsOf(const Trace& trace, TrackKind kind)
{
    KindTotals sum;
    for (const auto& [name, totals] : totalsByName(trace, kind)) {
        sum.count += totals.count;
        sum.totalDuration += totals.totalDuration;
    }
    return sum;
}

size_t memsetCount(const Trace& trace)
{
    size_t n = 0;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
        if (trace.tracks[t].key.kind != TrackKind::Memory) continue;
        for (uint32_t i = 0; i < trace.tracks[t].size(); ++i)
            if (memoryAt(trace, {TrackId(t), i}).op.kind == MemoryOpKind::Memset) ++n;
    }
    return n;
}

size_t memcpyCount(const Trace& trace)
{
    return trace.eventCount(TrackKind::Memory) - memsetCount(trace);
}

std::string exportToScratch(const Trace& trace, const std::string& name)
{
    const std::string path = (scratchDir(name) / "trace.sqlite").string();
    if (const std::string error = exportSqlite(trace, path, {}).error(); !error.empty())
        throw std::runtime_error(error);
    return path;
}

} // namespace sightline::test
