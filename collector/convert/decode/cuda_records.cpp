// Spool CUDA records (decoded from CUPTI inside the target) into the model's events and
// entities. The spool already uses the model's enum values (spool_format.h); the asserts below
// hold the two numberings together. Devices of synchronisation events and streams are filled
// in later from the context table (trace_assembly.cpp): CUPTI does not give them there.
#include "collector/convert/decode/chunk_decoder.h"
#include "model/core/enums.h"
#include "model/text/kernel_names.h"

#include <algorithm>
#include <cstdio>

namespace sightline::collector {

static_assert(uint8_t(MemoryKind::Unknown) == 7 && uint8_t(MemoryKind::Pageable) == 0);
static_assert(uint8_t(CopyKind::PtoP) == 10 && uint8_t(SyncType::ContextSynchronize) == 4);
static_assert(uint8_t(LaunchType::CooperativeMultiDevice) == 2 && uint8_t(PayloadType::Float) == 6);
static_assert(uint8_t(ApiClass::Driver) == uint8_t(spool::ApiClass::Driver));
static_assert(uint32_t(Severity::Error) == uint32_t(spool::Severity::Error));

namespace {

using spool::RecordType;

std::string uuidText(const uint8_t (&b)[16])
{
    char text[64];
    snprintf(text, sizeof(text), "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
        b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    return text;
}

void addKernel(DecodedChunk& out, SpoolContext& context, const spool::CudaKernelRecord& r)
{
    KernelEvent e;
    e.start = context.cudaTime(r.startNs);
    e.end = context.cudaTime(r.endNs);
    e.correlation = CorrelationId(r.correlation);
    auto names = context.kernelNames.find(r.nameId);
    if (names == context.kernelNames.end()) {
        const std::string_view mangled = context.tables.string(r.nameId);
        const std::string demangled = demangleKernelName(mangled);
        // In this order, as the report's string table has always received them.
        const uint32_t demangledId = context.strings.internCopy(demangled);
        const uint32_t mangledId = context.strings.intern(mangled);
        const uint32_t shortId = context.strings.internCopy(shortKernelName(demangled));
        names = context.kernelNames
                    .emplace(r.nameId, SpoolContext::KernelNames {demangledId, mangledId, shortId})
                    .first;
    }
    e.name = StringId(names->second.demangled);
    KernelLaunch& k = e.launch;
    k.mangledName = StringId(names->second.mangled);
    k.shortName = StringId(names->second.shortName);
    k.grid = {r.grid[0], r.grid[1], r.grid[2]};
    k.block = {r.block[0], r.block[1], r.block[2]};
    k.registersPerThread = r.registersPerThread;
    k.staticSharedMemory = r.staticSharedMemory;
    k.dynamicSharedMemory = r.dynamicSharedMemory;
    k.localMemoryPerThread = r.localMemoryPerThread;
    k.localMemoryTotal = r.localMemoryTotal;
    k.launchType = LaunchType(r.launchType);
    k.graphId = r.graphId;
    k.graphNodeId = r.graphNodeId;
    out.kernels.push_back({DeviceId(r.device), ContextId(r.context), StreamId(r.stream), e});
}

void addMemcpy(DecodedChunk& out, SpoolContext& context, const spool::CudaMemcpyRecord& r)
{
    MemoryEvent e;
    e.start = context.cudaTime(r.startNs);
    e.end = context.cudaTime(r.endNs);
    e.correlation = CorrelationId(r.correlation);
    e.bytes = r.bytes;
    e.op.kind = MemoryOpKind::Memcpy;
    e.op.copyKind = CopyKind(r.copyKind);
    e.op.srcKind = MemoryKind(r.srcKind);
    e.op.dstKind = MemoryKind(r.dstKind);
    e.op.srcDevice = DeviceId(r.srcDevice);
    e.op.dstDevice = DeviceId(r.dstDevice);
    out.memory.push_back({DeviceId(r.device), ContextId(r.context), StreamId(r.stream), e});
}

void addMemset(DecodedChunk& out, SpoolContext& context, const spool::CudaMemsetRecord& r)
{
    MemoryEvent e;
    e.start = context.cudaTime(r.startNs);
    e.end = context.cudaTime(r.endNs);
    e.correlation = CorrelationId(r.correlation);
    e.bytes = r.bytes;
    e.op.kind = MemoryOpKind::Memset;
    e.op.srcKind = MemoryKind(r.memoryKind);
    e.op.memsetValue = r.value;
    out.memory.push_back({DeviceId(r.device), ContextId(r.context), StreamId(r.stream), e});
}

void addSync(DecodedChunk& out, SpoolContext& context, const spool::CudaSyncRecord& r)
{
    SyncEvent e;
    e.start = context.cudaTime(r.startNs);
    e.end = context.cudaTime(r.endNs);
    e.correlation = CorrelationId(r.correlation);
    e.op.type = SyncType(r.type);
    e.op.eventId = r.eventId;
    out.syncs.push_back({DeviceId(), ContextId(r.context), StreamId(r.stream), e});
}

void addApi(DecodedChunk& out, SpoolContext& context, const spool::CudaApiRecord& r)
{
    ApiCall e;
    e.start = context.cudaTime(r.startNs);
    e.end = context.cudaTime(r.endNs);
    e.name = context.string(r.nameId);
    e.correlation = CorrelationId(r.correlation);
    e.result.apiClass = ApiClass(r.apiClass);
    e.result.returnCode = r.result;
    out.apiCalls.push_back({Tid(r.header.tid), e});
    out.lastTime = std::max(out.lastTime, e.end);
    out.active(Tid(r.header.tid));
}

void addDevice(ProcessCapture& capture, const FileTables& tables, const spool::CudaDeviceRecord& r)
{
    Gpu gpu;
    gpu.device = DeviceId(r.device);
    gpu.name = std::string(tables.string(r.nameId));
    gpu.uuid = uuidText(r.uuid);
    gpu.computeMajor = r.computeMajor;
    gpu.computeMinor = r.computeMinor;
    gpu.smCount = r.smCount;
    gpu.memoryBytes = r.memoryBytes;
    gpu.coreClockKHz = r.coreClockKHz;
    capture.gpus.push_back(gpu);
}

} // namespace

void decodeCudaEvent(SpoolContext& context, DecodedChunk& out, const spool::RecordHeader& record)
{
    switch (record.type) {
    case RecordType::CudaApi:
        addApi(out, context, SpoolFile::as<spool::CudaApiRecord>(record));
        break;
    case RecordType::CudaKernel:
        addKernel(out, context, SpoolFile::as<spool::CudaKernelRecord>(record));
        break;
    case RecordType::CudaMemcpy:
        addMemcpy(out, context, SpoolFile::as<spool::CudaMemcpyRecord>(record));
        break;
    case RecordType::CudaMemset:
        addMemset(out, context, SpoolFile::as<spool::CudaMemsetRecord>(record));
        break;
    case RecordType::CudaSync:
        addSync(out, context, SpoolFile::as<spool::CudaSyncRecord>(record));
        break;
    case RecordType::CudaMemoryUsage: {
        const auto& r = SpoolFile::as<spool::CudaMemoryUsageRecord>(record);
        MemoryUsageEvent& e = out.memoryUsage.emplace_back();
        e.time = context.cudaTime(r.timestampNs);
        e.device = DeviceId(r.device);
        e.context = ContextId(r.context);
        e.address = r.address;
        e.bytes = r.bytes;
        e.kind = r.memoryKind < kMemoryKindCount ? MemoryKind(r.memoryKind) : MemoryKind::Unknown;
        e.release = r.release != 0;
        e.correlation = CorrelationId(r.correlation);
        break;
    }
    default:
        break;
    }
}

void decodeCudaEntity(ProcessCapture& capture, const FileTables& tables, const spool::RecordHeader& record)
{
    switch (record.type) {
    case RecordType::CudaDevice:
        addDevice(capture, tables, SpoolFile::as<spool::CudaDeviceRecord>(record));
        break;
    case RecordType::CudaContext: {
        const auto& r = SpoolFile::as<spool::CudaContextRecord>(record);
        capture.contexts.push_back({capture.process.pid, DeviceId(r.device), ContextId(r.context)});
        capture.contextNullStreams.emplace_back(ContextId(r.context), StreamId(r.nullStream));
        break;
    }
    case RecordType::CudaStream: {
        const auto& r = SpoolFile::as<spool::CudaStreamRecord>(record);
        capture.streams.push_back({capture.process.pid, DeviceId(), ContextId(r.context), StreamId(r.stream),
            r.priority, r.isDefault != 0});
        break;
    }
    case RecordType::CudaVersions:
        capture.cuptiVersion = SpoolFile::as<spool::CudaVersionsRecord>(record).cuptiApiVersion;
        break;
    default:
        break;
    }
}

} // namespace sightline::collector
