// The CUDA and OS runtime event tables: one SELECT each, rows straight into the builder.
#include "model/import/nsys/nsys_importer.h"
#include "model/nsys/api_version.h"
#include "model/nsys/global_id.h"
#include "model/nsys/sqlite_schema.h"

#include <algorithm>
#include <map>

namespace sightline::nsys_import {
namespace {

// ENUM_NSYS_EVENT_CLASS values of CUDA calls.
constexpr int64_t kClassCudaRuntime = 0;
constexpr int64_t kClassCudaDriver = 1;

// The columns every GPU activity table starts with, in this order.
enum GpuColumn { kStart, kEnd, kDevice, kContext, kStream, kCorrelation, kGlobalPid, kGpuColumnCount };
constexpr Column kGpuColumns[] = {{"start", true}, {"end", true}, {"deviceId", true}, {"contextId", true},
    {"streamId", true}, {"correlationId", false}, {"globalPid", false}};

template <size_t N> std::vector<Column> gpuColumnsAnd(const Column (&more)[N])
{
    std::vector<Column> columns(std::begin(kGpuColumns), std::end(kGpuColumns));
    columns.insert(columns.end(), std::begin(more), std::end(more));
    return columns;
}

struct GpuRow
{
    Timestamp start, end;
    Pid pid;
    DeviceId device;
    ContextId context;
    StreamId stream;
    CorrelationId correlation;
};

GpuRow gpuRow(const SqliteRows& rows, TimeRange time)
{
    return {time.start, time.end, pidOfGlobalId(rows.integerOr(kGlobalPid, 0)),
        DeviceId(u32(rows.integer(kDevice))), ContextId(u32(rows.integer(kContext))),
        StreamId(uint32_t(rows.integer(kStream))), CorrelationId(u32(rows.integerOr(kCorrelation, 0)))};
}

} // namespace

StringId Importer::apiNameOf(int64_t fileId)
{
    // nsys names calls with their ABI version ("cudaLaunchKernel_v7000"); shown without it.
    if (fileId < 0 || uint64_t(fileId) >= m_fileStrings.size()) return stringOf(fileId);
    if (m_apiNames.size() < m_fileStrings.size()) m_apiNames.resize(m_fileStrings.size(), kNoString);
    uint32_t& cached = m_apiNames[size_t(fileId)];
    if (cached == kNoString) {
        const StringId full = stringOf(fileId);
        const std::string name(m_builder.strings()[full]);
        const std::string_view shown = nsys::withoutApiVersion(name);
        cached = shown.size() == name.size() ? full.value : m_builder.intern(shown).value;
    }
    return StringId(cached);
}

void Importer::readApiCalls()
{
    const char* table = nsys::table::kCudaRuntime;
    if (!m_db.hasTable(table)) return;
    enum { kStartCol, kEndCol, kClass, kThread, kCorrelationCol, kName, kReturn };
    constexpr Column kColumns[] = {{"start", true}, {"end", true}, {"eventClass", false},
        {"globalTid", false}, {"correlationId", false}, {"nameId", true}, {"returnValue", false}};
    SqliteRows rows = select(table, kColumns);
    while (rows.next()) {
        tick();
        const int64_t eventClass = rows.integerOr(kClass, kClassCudaRuntime);
        if (eventClass != kClassCudaRuntime && eventClass != kClassCudaDriver) {
            ++m_skippedApiClasses[eventClass];
            continue;
        }
        const std::optional<TimeRange> time = rowInterval(rows, kStartCol, kEndCol, table);
        if (!time) continue;
        const int64_t thread = rows.integerOr(kThread, 0);
        ApiCall call;
        call.start = time->start;
        call.end = time->end;
        call.name = apiNameOf(rows.integer(kName));
        call.correlation = CorrelationId(u32(rows.integerOr(kCorrelationCol, 0)));
        call.result = {eventClass == kClassCudaDriver ? ApiClass::Driver : ApiClass::Runtime,
            int32_t(rows.integerOr(kReturn, 0))};
        noteEnd(call.end);
        m_builder.add(m_tracks.host(TrackKind::CudaApi, pidOfGlobalId(thread), tidOfGlobalId(thread)), call);
    }
}

void Importer::readKernels()
{
    const char* table = nsys::table::kCudaKernel;
    if (!m_db.hasTable(table)) return;
    enum {
        kDemangled = kGpuColumnCount,
        kShort,
        kMangled,
        kLaunchType,
        kRegisters,
        kGridX,
        kGridY,
        kGridZ,
        kBlockX,
        kBlockY,
        kBlockZ,
        kStatic,
        kDynamic,
        kLocalPerThread,
        kLocalTotal,
        kGraphNode,
        kGraph
    };
    static const std::vector<Column> columns
        = gpuColumnsAnd<17>({{"demangledName", true}, {"shortName", false}, {"mangledName", false},
            {"launchType", false}, {"registersPerThread", false}, {"gridX", false}, {"gridY", false},
            {"gridZ", false}, {"blockX", false}, {"blockY", false}, {"blockZ", false},
            {"staticSharedMemory", false}, {"dynamicSharedMemory", false}, {"localMemoryPerThread", false},
            {"localMemoryTotal", false}, {"graphNodeId", false}, {"graphId", false}});
    SqliteRows rows = select(table, columns);
    while (rows.next()) {
        tick();
        const std::optional<TimeRange> time = rowInterval(rows, kStart, kEnd, table);
        if (!time) continue;
        const GpuRow r = gpuRow(rows, *time);
        KernelEvent e {r.start, r.end, stringOf(rows.integer(kDemangled)), r.correlation, {}};
        KernelLaunch& l = e.launch;
        l.shortName = rows.isNull(kShort) ? e.name : stringOf(rows.integer(kShort));
        l.mangledName = optionalStringOf(rows, kMangled);
        l.grid = {
            u32(rows.integerOr(kGridX, 1)), u32(rows.integerOr(kGridY, 1)), u32(rows.integerOr(kGridZ, 1))};
        l.block = {u32(rows.integerOr(kBlockX, 1)), u32(rows.integerOr(kBlockY, 1)),
            u32(rows.integerOr(kBlockZ, 1))};
        l.registersPerThread = u32(rows.integerOr(kRegisters, 0));
        l.staticSharedMemory = u32(rows.integerOr(kStatic, 0));
        l.dynamicSharedMemory = u32(rows.integerOr(kDynamic, 0));
        l.localMemoryPerThread = u32(rows.integerOr(kLocalPerThread, 0));
        l.localMemoryTotal = uint64_t(std::max<int64_t>(0, rows.integerOr(kLocalTotal, 0)));
        // ENUM_CUDA_KERNEL_LAUNCH_TYPE counts from 0 = unknown; the model from Regular.
        l.launchType = enumOr(rows.integerOr(kLaunchType, 1) - 1, kLaunchTypeCount, LaunchType::Regular);
        l.graphId = u32(rows.integerOr(kGraph, 0));
        l.graphNodeId = uint64_t(std::max<int64_t>(0, rows.integerOr(kGraphNode, 0)));
        noteEnd(e.end);
        m_builder.add(m_tracks.gpu(TrackKind::Kernels, r.pid, r.device, r.context, r.stream), e);
    }
}

void Importer::readMemcpys()
{
    const char* table = nsys::table::kCudaMemcpy;
    if (!m_db.hasTable(table)) return;
    enum { kBytes = kGpuColumnCount, kCopyKind, kSrcKind, kDstKind, kSrcDevice, kDstDevice };
    static const std::vector<Column> columns = gpuColumnsAnd<6>({{"bytes", true}, {"copyKind", false},
        {"srcKind", false}, {"dstKind", false}, {"srcDeviceId", false}, {"dstDeviceId", false}});
    SqliteRows rows = select(table, columns);
    while (rows.next()) {
        tick();
        const std::optional<TimeRange> time = rowInterval(rows, kStart, kEnd, table);
        if (!time) continue;
        const GpuRow r = gpuRow(rows, *time);
        MemoryEvent e {
            r.start, r.end, r.correlation, {}, uint64_t(std::max<int64_t>(0, rows.integer(kBytes)))};
        MemoryOp& op = e.op;
        op.kind = MemoryOpKind::Memcpy;
        op.copyKind = enumOr(rows.integerOr(kCopyKind, 0), kCopyKindCount, CopyKind::Unknown);
        op.srcKind = enumOr(rows.integerOr(kSrcKind, -1), kMemoryKindCount, MemoryKind::Unknown);
        op.dstKind = enumOr(rows.integerOr(kDstKind, -1), kMemoryKindCount, MemoryKind::Unknown);
        op.srcDevice = DeviceId(u32(rows.integerOr(kSrcDevice, r.device.value)));
        op.dstDevice = DeviceId(u32(rows.integerOr(kDstDevice, r.device.value)));
        noteEnd(e.end);
        m_builder.add(m_tracks.gpu(TrackKind::Memory, r.pid, r.device, r.context, r.stream), e);
    }
}

void Importer::readMemsets()
{
    const char* table = nsys::table::kCudaMemset;
    if (!m_db.hasTable(table)) return;
    enum { kValue = kGpuColumnCount, kBytes, kMemKind };
    static const std::vector<Column> columns
        = gpuColumnsAnd<3>({{"value", false}, {"bytes", true}, {"memKind", false}});
    SqliteRows rows = select(table, columns);
    while (rows.next()) {
        tick();
        const std::optional<TimeRange> time = rowInterval(rows, kStart, kEnd, table);
        if (!time) continue;
        const GpuRow r = gpuRow(rows, *time);
        MemoryEvent e {
            r.start, r.end, r.correlation, {}, uint64_t(std::max<int64_t>(0, rows.integer(kBytes)))};
        e.op.kind = MemoryOpKind::Memset;
        e.op.srcKind = enumOr(rows.integerOr(kMemKind, -1), kMemoryKindCount, MemoryKind::Unknown);
        e.op.memsetValue = uint32_t(rows.integerOr(kValue, 0));
        e.op.srcDevice = e.op.dstDevice = r.device;
        noteEnd(e.end);
        m_builder.add(m_tracks.gpu(TrackKind::Memory, r.pid, r.device, r.context, r.stream), e);
    }
}

void Importer::readSynchronization()
{
    const char* table = nsys::table::kCudaSynchronization;
    if (!m_db.hasTable(table)) return;
    enum { kType = kGpuColumnCount, kEvent };
    static const std::vector<Column> columns = gpuColumnsAnd<2>({{"syncType", false}, {"eventId", false}});
    // Nsight Systems writes deviceId 0 on synchronization rows whatever the GPU (a 2-GPU export
    // put GPU 1's context under GPU 0): a context's GPU is the one its kernels and copies ran on.
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> deviceOfContext; // (pid, context) -> device
    for (const auto& [pid, device, context] : m_tracks.gpuContexts())
        deviceOfContext.try_emplace({pid, context}, device);
    SqliteRows rows = select(table, columns);
    while (rows.next()) {
        tick();
        const std::optional<TimeRange> time = rowInterval(rows, kStart, kEnd, table);
        if (!time) continue;
        GpuRow r = gpuRow(rows, *time);
        if (const auto known = deviceOfContext.find({r.pid.value, r.context.value});
            known != deviceOfContext.end())
            r.device = DeviceId(known->second);
        SyncEvent e {r.start, r.end, r.correlation, {}};
        e.op.type = enumOr(rows.integerOr(kType, 0), kSyncTypeCount, SyncType::Unknown);
        e.op.eventId = uint32_t(rows.integerOr(kEvent, 0));
        noteEnd(e.end);
        m_builder.add(m_tracks.gpu(TrackKind::Synchronization, r.pid, r.device, r.context, r.stream), e);
    }
}

void Importer::readOsRuntime()
{
    const char* table = nsys::table::kOsrtApi;
    if (!m_db.hasTable(table)) return;
    enum { kStartCol, kEndCol, kThread, kName, kReturn };
    constexpr Column kColumns[]
        = {{"start", true}, {"end", true}, {"globalTid", false}, {"nameId", true}, {"returnValue", false}};
    SqliteRows rows = select(table, kColumns);
    while (rows.next()) {
        tick();
        const std::optional<TimeRange> time = rowInterval(rows, kStartCol, kEndCol, table);
        if (!time) continue;
        const int64_t thread = rows.integerOr(kThread, 0);
        const OsCall call {time->start, time->end, stringOf(rows.integer(kName)), rows.integerOr(kReturn, 0)};
        noteEnd(call.end);
        m_builder.add(
            m_tracks.host(TrackKind::OsRuntime, pidOfGlobalId(thread), tidOfGlobalId(thread)), call);
    }
}

} // namespace sightline::nsys_import
