#include "collector/inject/cupti/cupti_decode.h"

#include <cstring>

namespace sightline::inject::cupti {

namespace {

using spool::RecordType;

// Model values (model/core/enums.h): MemoryKind::Unknown, CopyKind::Unknown...
constexpr uint8_t kUnknownMemoryKind = 7;
constexpr uint8_t kLastCopyKind = 10; // PtoP
constexpr uint8_t kLastSyncType = 4; // ContextSynchronize
constexpr uint8_t kLastLaunchType = 2; // CooperativeMultiDevice
constexpr uint32_t kFirstKernel9Version = 18; // cuptiGetVersion() of CUDA 12.0

template <class R> R& begin(DecodedRecord& out, RecordType type, uint32_t tid = 0)
{
    static_assert(sizeof(R) <= sizeof(out.bytes));
    std::memset(out.bytes, 0, sizeof(R));
    out.size = sizeof(R);
    auto& r = *reinterpret_cast<R*>(out.bytes);
    r.header = {type, uint16_t(sizeof(R)), tid};
    return r;
}

int64_t shifted(uint64_t timestamp, const DecodeSettings& s)
{
    return int64_t(timestamp) + s.timestampOffsetNs;
}

bool hasTimes(uint64_t start, uint64_t end)
{
    return start != 0 && end != 0;
}

// Where and when a GPU operation ran, and which API call launched it: fields every GPU record
// (kernel, copy, memset, synchronization) takes from its CUPTI activity the same way.
template <class R, class Activity>
R& beginGpuOperation(const Activity& a, RecordType type, const DecodeSettings& s, DecodedRecord& out)
{
    auto& r = begin<R>(out, type);
    r.startNs = shifted(a.start, s);
    r.endNs = shifted(a.end, s);
    r.context = a.contextId;
    r.stream = a.streamId;
    r.correlation = a.correlationId;
    return r;
}

DecodeResult decodeKernel(
    const CUpti_ActivityKernel10& k, const DecodeSettings& s, DecodeEnvironment& env, DecodedRecord& out)
{
    if (!hasTimes(k.start, k.end)) return DecodeResult::NoTimestamps;
    auto& r = beginGpuOperation<spool::CudaKernelRecord>(k, RecordType::CudaKernel, s, out);
    r.device = k.deviceId;
    r.grid[0] = uint32_t(k.gridX), r.grid[1] = uint32_t(k.gridY), r.grid[2] = uint32_t(k.gridZ);
    r.block[0] = uint32_t(k.blockX), r.block[1] = uint32_t(k.blockY), r.block[2] = uint32_t(k.blockZ);
    r.registersPerThread = k.registersPerThread;
    r.staticSharedMemory = uint32_t(k.staticSharedMemory);
    r.dynamicSharedMemory = uint32_t(k.dynamicSharedMemory);
    r.localMemoryPerThread = k.localMemoryPerThread;
    // localMemoryTotal_v2 (64-bit) is in the prefix Kernel9 (CUPTI 12) and Kernel10 share.
    const bool hasTotalV2 = s.cuptiVersion >= kFirstKernel9Version && k.localMemoryTotal_v2 != 0;
    r.localMemoryTotal = hasTotalV2 ? k.localMemoryTotal_v2 : k.localMemoryTotal;
    r.nameId = env.internKernelName(k.name);
    r.launchType = k.launchType <= kLastLaunchType ? k.launchType : 0;
    r.graphId = k.graphId;
    r.graphNodeId = k.graphNodeId;
    return DecodeResult::Record;
}

// The fields a same-device copy (Memcpy6) and a peer copy (MemcpyPtoP4) share.
template <class Copy>
spool::CudaMemcpyRecord& beginCopy(const Copy& m, const DecodeSettings& s, DecodedRecord& out)
{
    auto& r = beginGpuOperation<spool::CudaMemcpyRecord>(m, RecordType::CudaMemcpy, s, out);
    r.bytes = m.bytes;
    r.device = m.deviceId;
    r.copyKind = mapCopyKind(m.copyKind);
    r.srcKind = mapMemoryKind(m.srcKind);
    r.dstKind = mapMemoryKind(m.dstKind);
    r.graphId = m.graphId;
    return r;
}

DecodeResult decodeMemcpy(const CUpti_ActivityMemcpy6& m, const DecodeSettings& s, DecodedRecord& out)
{
    if (!hasTimes(m.start, m.end)) return DecodeResult::NoTimestamps;
    auto& r = beginCopy(m, s, out);
    r.srcDevice = r.dstDevice = m.deviceId;
    return DecodeResult::Record;
}

DecodeResult decodePeerCopy(const CUpti_ActivityMemcpyPtoP4& m, const DecodeSettings& s, DecodedRecord& out)
{
    if (!hasTimes(m.start, m.end)) return DecodeResult::NoTimestamps;
    auto& r = beginCopy(m, s, out);
    r.srcDevice = m.srcDeviceId;
    r.dstDevice = m.dstDeviceId;
    return DecodeResult::Record;
}

DecodeResult decodeMemoryUsage(const CUpti_ActivityMemory4& m, const DecodeSettings& s, DecodedRecord& out)
{
    if (m.timestamp == 0) return DecodeResult::NoTimestamps;
    if (m.memoryOperationType != CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION
        && m.memoryOperationType != CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE)
        return DecodeResult::Ignored;
    auto& r = begin<spool::CudaMemoryUsageRecord>(out, RecordType::CudaMemoryUsage);
    r.timestampNs = shifted(m.timestamp, s);
    r.address = m.address;
    r.bytes = m.bytes;
    r.device = m.deviceId;
    r.context = m.contextId;
    r.stream = m.streamId;
    r.correlation = m.correlationId;
    r.release = m.memoryOperationType == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE ? 1 : 0;
    r.memoryKind = mapMemoryKind(m.memoryKind);
    return DecodeResult::Record;
}

DecodeResult decodeMemset(const CUpti_ActivityMemset4& m, const DecodeSettings& s, DecodedRecord& out)
{
    if (!hasTimes(m.start, m.end)) return DecodeResult::NoTimestamps;
    auto& r = beginGpuOperation<spool::CudaMemsetRecord>(m, RecordType::CudaMemset, s, out);
    r.bytes = m.bytes;
    r.device = m.deviceId;
    r.value = m.value;
    r.memoryKind = mapMemoryKind(m.memoryKind);
    r.graphId = m.graphId;
    return DecodeResult::Record;
}

DecodeResult decodeSync(const CUpti_ActivitySynchronization2& y, const DecodeSettings& s, DecodedRecord& out)
{
    if (!hasTimes(y.start, y.end)) return DecodeResult::NoTimestamps;
    // stream: CUPTI_SYNCHRONIZATION_INVALID_VALUE for a context synchronisation.
    auto& r = beginGpuOperation<spool::CudaSyncRecord>(y, RecordType::CudaSync, s, out);
    r.eventId = y.cudaEventId == CUPTI_SYNCHRONIZATION_INVALID_VALUE ? 0 : y.cudaEventId;
    r.type = mapSyncType(y.type);
    return DecodeResult::Record;
}

DecodeResult decodeApi(const CUpti_ActivityAPI& a, spool::ApiClass apiClass, const DecodeSettings& s,
    DecodeEnvironment& env, DecodedRecord& out)
{
    auto& r = begin<spool::CudaApiRecord>(out, RecordType::CudaApi, a.threadId);
    r.startNs = shifted(a.start, s);
    r.endNs = shifted(a.end, s);
    r.correlation = a.correlationId;
    r.nameId = env.apiName(apiClass, a.cbid);
    r.result = int32_t(a.returnValue);
    r.apiClass = apiClass;
    return DecodeResult::Record;
}

DecodeResult decodeDevice(const CUpti_ActivityDevice5& d, DecodeEnvironment& env, DecodedRecord& out)
{
    auto& r = begin<spool::CudaDeviceRecord>(out, RecordType::CudaDevice);
    r.device = d.id;
    r.computeMajor = d.computeCapabilityMajor;
    r.computeMinor = d.computeCapabilityMinor;
    r.smCount = d.numMultiprocessors;
    r.memoryBytes = d.globalMemorySize;
    r.coreClockKHz = d.coreClockRate;
    r.nameId = env.internText(d.name);
    static_assert(sizeof(r.uuid) == sizeof(d.uuid.bytes));
    std::memcpy(r.uuid, d.uuid.bytes, sizeof(r.uuid));
    return DecodeResult::Record;
}

DecodeResult decodeContext(const CUpti_ActivityContext3& c, DecodedRecord& out)
{
    auto& r = begin<spool::CudaContextRecord>(out, RecordType::CudaContext);
    r.context = c.contextId;
    r.device = c.deviceId;
    r.nullStream = c.nullStreamId;
    return DecodeResult::Record;
}

DecodeResult decodeStream(const CUpti_ActivityStream& st, DecodedRecord& out)
{
    auto& r = begin<spool::CudaStreamRecord>(out, RecordType::CudaStream);
    r.context = st.contextId;
    r.stream = st.streamId;
    r.priority = int32_t(st.priority);
    r.isDefault = st.flag == CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL ? 1 : 0;
    return DecodeResult::Record;
}

} // namespace

uint8_t mapMemoryKind(uint32_t k)
{
    // CUPTI: 0 unknown, 1 pageable ... 7 managed static; model: 0 pageable ... 6, 7 unknown.
    return k >= CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE && k <= CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC
        ? uint8_t(k - 1)
        : kUnknownMemoryKind;
}

uint8_t mapCopyKind(uint32_t k)
{
    return k <= kLastCopyKind ? uint8_t(k) : 0;
}
uint8_t mapSyncType(uint32_t t)
{
    return t <= kLastSyncType ? uint8_t(t) : 0;
}

std::string_view stripVersionSuffix(std::string_view name)
{
    const size_t marker = name.rfind("_v");
    if (marker == std::string_view::npos || marker + 2 == name.size()) return name;
    for (size_t i = marker + 2; i < name.size(); ++i)
        if (name[i] < '0' || name[i] > '9') return name;
    return name.substr(0, marker);
}

DecodeResult decodeActivity(
    const CUpti_Activity& record, const DecodeSettings& s, DecodeEnvironment& env, DecodedRecord& out)
{
    out.size = 0;
    switch (record.kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        return decodeKernel(reinterpret_cast<const CUpti_ActivityKernel10&>(record), s, env, out);
    case CUPTI_ACTIVITY_KIND_MEMCPY:
        return decodeMemcpy(reinterpret_cast<const CUpti_ActivityMemcpy6&>(record), s, out);
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
        return decodePeerCopy(reinterpret_cast<const CUpti_ActivityMemcpyPtoP4&>(record), s, out);
    case CUPTI_ACTIVITY_KIND_MEMSET:
        return decodeMemset(reinterpret_cast<const CUpti_ActivityMemset4&>(record), s, out);
    case CUPTI_ACTIVITY_KIND_MEMORY2:
        return decodeMemoryUsage(reinterpret_cast<const CUpti_ActivityMemory4&>(record), s, out);
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
        return decodeSync(reinterpret_cast<const CUpti_ActivitySynchronization2&>(record), s, out);
    case CUPTI_ACTIVITY_KIND_RUNTIME:
        return decodeApi(
            reinterpret_cast<const CUpti_ActivityAPI&>(record), spool::ApiClass::Runtime, s, env, out);
    case CUPTI_ACTIVITY_KIND_DRIVER:
        return decodeApi(
            reinterpret_cast<const CUpti_ActivityAPI&>(record), spool::ApiClass::Driver, s, env, out);
    case CUPTI_ACTIVITY_KIND_DEVICE:
        return decodeDevice(reinterpret_cast<const CUpti_ActivityDevice5&>(record), env, out);
    case CUPTI_ACTIVITY_KIND_CONTEXT:
        return decodeContext(reinterpret_cast<const CUpti_ActivityContext3&>(record), out);
    case CUPTI_ACTIVITY_KIND_STREAM:
        return decodeStream(reinterpret_cast<const CUpti_ActivityStream&>(record), out);
    default:
        return DecodeResult::Ignored;
    }
}

} // namespace sightline::inject::cupti
