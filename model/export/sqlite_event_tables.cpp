// The event tables of the SQLite export: CUPTI_ACTIVITY_KIND_RUNTIME, _KERNEL, _MEMCPY, _MEMSET,
// _SYNCHRONIZATION, NVTX_EVENTS (with one NvtxDomainCreate row per process and named domain)
// and OSRT_API. Every field of every event lands in a column an importer can read back:
// StringIds ids are the trace's own, correlation id 0 ("none") is written as NULL, launch types
// are shifted to nsys' numbering, NVTX marks have a NULL end. Names are where SQL written for
// nsys files looks: a CUDA API call names its versioned nsys name ("cudaLaunchKernel_v7000")
// when the trace holds it, and an NVTX event's text is both inline (`text`, as nsys writes
// plain strings) and a StringIds id (`textId`, as it writes registered ones), so queries on
// either column, or on COALESCE(text, StringIds.value), find it.
#include "model/export/event_walk.h"
#include "model/export/sqlite_tables.h"
#include "model/nsys/api_version.h"
#include "model/nsys/global_id.h"
#include "model/trace/event_access.h"

#include <bit>
#include <map>
#include <unordered_map>

namespace sightline::sqlite_export {
namespace {

std::optional<int64_t> correlationOrNull(CorrelationId id)
{
    return id.value != 0 ? std::optional<int64_t>(id.value) : std::nullopt;
}

std::optional<int64_t> nonZeroOrNull(uint64_t value)
{
    return value != 0 ? std::optional<int64_t>(int64_t(value)) : std::nullopt;
}

// start, end, deviceId, contextId, greenContextId, streamId, correlationId, globalPid: the
// columns every GPU activity table starts with.
void bindGpuColumns(SqliteInsert& row, const TrackKey& key, Timestamp start, Timestamp end,
    CorrelationId correlation, std::optional<int64_t> greenContext)
{
    row.integer(start)
        .integer(end)
        .integer(key.device.value)
        .integer(key.context.value)
        .integerOrNull(greenContext)
        .integer(key.stream.value)
        .integerOrNull(correlationOrNull(correlation))
        .integer(globalPid(key.pid));
}

// The nameId of a CUDA API call: the id of the versioned string nsys gave the call
// ("cudaLaunchKernel_v7000") when the trace's strings hold one for its name (an imported nsys
// file's strings do), else its name's id. Should two versions of a name be there, the first wins.
class ApiNameIds
{
public:
    explicit ApiNameIds(const StringTable& strings)
        : m_strings(strings)
    {
        for (uint32_t i = 1; i < strings.size(); ++i) {
            const std::string_view text = strings[StringId(i)];
            const std::string_view name = nsys::withoutApiVersion(text);
            if (name.size() != text.size()) m_versioned.try_emplace(name, i);
        }
    }

    int64_t of(StringId name) const
    {
        if (m_versioned.empty()) return name.value;
        const auto it = m_versioned.find(m_strings[name]);
        return it == m_versioned.end() ? name.value : it->second;
    }

private:
    const StringTable& m_strings;
    std::unordered_map<std::string_view, uint32_t> m_versioned; // name -> versioned name's id
};

void writeApiCalls(SqliteDatabase& db, const Trace& trace)
{
    SqliteInsert rows(db, nsys::kCudaRuntime);
    const ApiNameIds nameIds(trace.strings);
    forEachEvent(trace, TrackKind::CudaApi, [&](const Track& track, EventRef ref, uint32_t) {
        const ApiCall e = apiCallAt(trace, ref);
        rows.integer(e.start)
            .integer(e.end)
            .integer(nsys::eventClass(e.result.apiClass))
            .integer(globalTid(track.key.pid, track.key.tid))
            .integerOrNull(correlationOrNull(e.correlation))
            .integer(nameIds.of(e.name))
            .integer(e.result.returnCode)
            .integerOrNull(callchainIdOf(trace.cpu, track.key.tid, e.start))
            .insertRow();
    });
}

void writeKernels(SqliteDatabase& db, const Trace& trace)
{
    SqliteInsert rows(db, nsys::kCudaKernel);
    forEachEvent(trace, TrackKind::Kernels, [&](const Track& track, EventRef ref, uint32_t) {
        const KernelEvent e = kernelAt(trace, ref);
        const KernelLaunch& l = e.launch;
        bindGpuColumns(rows, track.key, e.start, e.end, e.correlation, 0);
        rows.integer(e.name.value) // demangledName
            .integer(l.shortName.value) // shortName
            .integerOrNull(nonZeroOrNull(l.mangledName.value)) // mangledName
            .integer(nsys::launchTypeValue(l.launchType)) // launchType
            .null() // cacheConfig
            .integer(l.registersPerThread)
            .integer(l.grid[0])
            .integer(l.grid[1])
            .integer(l.grid[2])
            .integer(l.block[0])
            .integer(l.block[1])
            .integer(l.block[2])
            .integer(l.staticSharedMemory)
            .integer(l.dynamicSharedMemory)
            .integer(l.localMemoryPerThread)
            .integer(int64_t(l.localMemoryTotal))
            .integer(0) // gridId: not recorded
            .null() // sharedMemoryExecuted
            .integerOrNull(nonZeroOrNull(l.graphNodeId)) // graphNodeId
            .null(4) // sharedMemoryLimitConfig, qmdBulkReleaseDone, qmdPreexitDone, qmdLastCtaDone
            .integerOrNull(nonZeroOrNull(l.graphId)) // graphId
            .null(7) // clusterX/Y/Z, clusterSchedulingPolicy, maxPotentialClusterSize, maxActiveClusters,
                     // sharedMemoryRequestedPercentage
            .text("[]") // tensorSizeMinusOneElements
            .insertRow();
    });
}

void writeMemoryOperations(SqliteDatabase& db, const Trace& trace)
{
    SqliteInsert copies(db, nsys::kCudaMemcpy);
    SqliteInsert sets(db, nsys::kCudaMemset);
    forEachEvent(trace, TrackKind::Memory, [&](const Track& track, EventRef ref, uint32_t) {
        const MemoryEvent e = memoryAt(trace, ref);
        const MemoryOp& op = e.op;
        if (op.kind == MemoryOpKind::Memset) {
            bindGpuColumns(sets, track.key, e.start, e.end, e.correlation, 0);
            sets.integer(op.memsetValue)
                .integer(int64_t(e.bytes))
                .null() // graphNodeId
                .integer(int(op.srcKind))
                .insertRow();
            return;
        }
        bindGpuColumns(copies, track.key, e.start, e.end, e.correlation, 0);
        copies.integer(int64_t(e.bytes))
            .integer(int(op.copyKind))
            .null() // deprecatedSrcId
            .integer(int(op.srcKind))
            .integer(int(op.dstKind))
            .integer(op.srcDevice.value)
            .null() // srcContextId
            .integer(op.dstDevice.value)
            .null(4) // dstContextId, migrationCause, graphNodeId, virtualAddress
            .integer(1) // copyCount
            .insertRow();
    });
}

void writeSynchronization(SqliteDatabase& db, const Trace& trace)
{
    SqliteInsert rows(db, nsys::kCudaSynchronization);
    forEachEvent(trace, TrackKind::Synchronization, [&](const Track& track, EventRef ref, uint32_t) {
        const SyncEvent e = syncAt(trace, ref);
        bindGpuColumns(rows, track.key, e.start, e.end, e.correlation, std::nullopt);
        rows.null() // deprecatedSyncType
            .integer(int(e.op.type))
            .integer(e.op.eventId)
            .null() // eventSyncId
            .insertRow();
    });
}

// uint64Value, int64Value, doubleValue, uint32Value, int32Value, floatValue: the member the
// payload type names holds the value, the others are NULL.
void bindNvtxPayload(SqliteInsert& row, PayloadType type, uint64_t bits)
{
    const uint32_t low = uint32_t(bits);
    type == PayloadType::UInt64 ? row.integer(int64_t(bits)) : row.null();
    type == PayloadType::Int64 ? row.integer(int64_t(bits)) : row.null();
    type == PayloadType::Double ? row.real(std::bit_cast<double>(bits)) : row.null();
    type == PayloadType::UInt32 ? row.integer(low) : row.null();
    type == PayloadType::Int32 ? row.integer(std::bit_cast<int32_t>(low)) : row.null();
    type == PayloadType::Float ? row.real(std::bit_cast<float>(low)) : row.null();
}

// Start/end ranges always name their end thread; push/pop ranges and marks only when it
// differs from the thread the event is on (nsys leaves it NULL there).
std::optional<int64_t> endGlobalTid(const TrackKey& key, const NvtxAttributes& a)
{
    const Tid endThread = a.endThread.value != 0 ? a.endThread : key.tid;
    if (a.style == NvtxStyle::StartEnd || endThread != key.tid) return globalTid(key.pid, endThread);
    return std::nullopt;
}

void writeNvtxEvents(SqliteInsert& rows, const Trace& trace)
{
    forEachEvent(trace, TrackKind::Nvtx, [&](const Track& track, EventRef ref, uint32_t) {
        const NvtxEvent e = nvtxAt(trace, ref);
        const NvtxAttributes& a = e.attributes;
        rows.integer(e.start)
            .integerOrNull(a.style == NvtxStyle::Mark ? std::nullopt : std::optional<int64_t>(e.end))
            .integer(nsys::nvtxEventType(a.style))
            .null() // rangeId
            .integerOrNull(nonZeroOrNull(a.category))
            .integerOrNull(a.hasColor ? std::optional<int64_t>(a.color) : std::nullopt)
            .text(trace.strings[e.name])
            .integer(globalTid(track.key.pid, track.key.tid))
            .integerOrNull(endGlobalTid(track.key, a))
            .integer(e.name.value) // textId
            .integer(a.domain.value);
        bindNvtxPayload(rows, a.payloadType, a.payload);
        rows.null(3) // jsonTextId, jsonText, binaryData
            .insertRow();
    });
}

// nsys names a domain by an NvtxDomainCreate row in each process that uses it, and SQL joins
// events to it by domainId and the pid bits of globalTid; a domain no track uses gets one row
// without a thread, so that every domain of the trace is in the file.
void writeNvtxDomains(SqliteInsert& rows, const Trace& trace)
{
    std::map<std::pair<uint32_t, uint32_t>, int64_t> firstThreadOf; // (domain, pid) -> globalTid
    for (const Track& track : trace.tracks)
        if (track.key.kind == TrackKind::Nvtx && track.key.domain.value != 0)
            firstThreadOf.try_emplace(
                {track.key.domain.value, track.key.pid.value}, globalTid(track.key.pid, track.key.tid));
    auto addRow = [&](const NvtxDomain& domain, std::optional<int64_t> thread) {
        rows.integer(0) // start: creation time not recorded
            .null() // end
            .integer(nsys::kEventTypeNvtxDomainCreate)
            .null(3) // rangeId, category, color
            .text(domain.name)
            .integerOrNull(thread)
            .null(2) // endGlobalTid, textId
            .integer(domain.id.value)
            .null(9) // payload members, jsonTextId, jsonText, binaryData
            .insertRow();
    };
    for (const NvtxDomain& domain : trace.domains) {
        if (domain.id.value == 0) continue;
        auto first = firstThreadOf.lower_bound({domain.id.value, 0});
        if (first == firstThreadOf.end() || first->first.first != domain.id.value)
            addRow(domain, std::nullopt);
        for (auto it = first; it != firstThreadOf.end() && it->first.first == domain.id.value; ++it)
            addRow(domain, it->second);
    }
}

void writeOsRuntimeCalls(SqliteDatabase& db, const Trace& trace)
{
    SqliteInsert rows(db, nsys::kOsrtApi);
    forEachEvent(trace, TrackKind::OsRuntime, [&](const Track& track, EventRef ref, uint32_t lane) {
        const OsCall e = osCallAt(trace, ref);
        rows.integer(e.start)
            .integer(e.end)
            .integer(nsys::kEventClassOsRuntime)
            .integer(globalTid(track.key.pid, track.key.tid))
            .integer(e.name.value)
            .integer(e.returnValue)
            .integerOrNull(track.nested ? std::optional<int64_t>(lane) : std::nullopt) // nestingLevel
            .integerOrNull(callchainIdOf(trace.cpu, track.key.tid, e.start))
            .null() // argumentsId
            .insertRow();
    });
}

} // namespace

void writeEventTables(SqliteDatabase& db, const Trace& trace)
{
    writeApiCalls(db, trace);
    writeKernels(db, trace);
    writeMemoryOperations(db, trace);
    writeSynchronization(db, trace);
    SqliteInsert nvtxRows(db, nsys::kNvtxEvents);
    writeNvtxDomains(nvtxRows, trace);
    writeNvtxEvents(nvtxRows, trace);
    writeOsRuntimeCalls(db, trace);
}

} // namespace sightline::sqlite_export
