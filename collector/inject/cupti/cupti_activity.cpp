// CUPTI activity: the buffers CUPTI fills (activity_buffers.h), their decoding into spool records,
// dropped-record counts, and the flush hook the writer calls every ~100 ms (and once, forced, at exit).
// bufferCompleted runs on CUPTI's thread or on whichever thread flushes; it appends to that
// thread's own buffer like any producer. No lock is held while calling into CUPTI.
#include "collector/inject/cupti/activity_buffers.h"
#include "collector/inject/cupti/cupti_clock.h"
#include "collector/inject/cupti/cupti_session.h"
#include "collector/inject/interned_strings.h"
#include "collector/inject/records.h"

#include <cstdlib>
#include <cstring>
#include <string>

namespace sightline::inject::cupti {

namespace {

class ProcessEnvironment final : public DecodeEnvironment
{
public:
    uint32_t internKernelName(const char* mangled) override
    {
        return strings::internStable(mangled, mangled);
    }
    uint32_t internText(const char* text) override { return strings::intern(text); }
    uint32_t apiName(spool::ApiClass apiClass, uint32_t cbid) override
    {
        const auto domain
            = apiClass == spool::ApiClass::Runtime ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API;
        const char* name = nullptr;
        if (state().api.getCallbackName(domain, cbid, &name) != CUPTI_SUCCESS || !name)
            return strings::intern(apiClass == spool::ApiClass::Runtime ? "cudaUnknown" : "cuUnknown");
        const std::string_view stripped = stripVersionSuffix(name);
        return strings::intern(stripped.data(), stripped.size());
    }
};

void emitLoss(spool::LossKind kind, uint64_t count)
{
    if (count == 0) return;
    ThreadBuffer* buffer = BufferRegistry::current();
    if (!buffer) return;
    if (auto* r = reserveRecord<spool::LossRecord>(*buffer, spool::RecordType::Loss, 0, 0)) {
        r->kind = kind;
        r->reserved = 0;
        r->count = count;
        commitRecord(*buffer, r);
    }
}

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords)
{
    *buffer = takeActivityBuffer();
    *size = *buffer ? kActivityBufferBytes : 0;
    *maxNumRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext context, uint32_t streamId, uint8_t* buffer, size_t, size_t validSize)
{
    ToolScope scope;
    CuptiState& s = state();
    DecodeSettings settings = s.settings;
    settings.timestampOffsetNs = cuptiClockOffsetNs();
    ProcessEnvironment env;
    ThreadBuffer* out = BufferRegistry::current();
    uint64_t noTimestamps = 0;
    CUpti_Activity* record = nullptr;
    while (out && s.api.getNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
        DecodedRecord decoded;
        const DecodeResult result = decodeActivity(*record, settings, env, decoded);
        if (result == DecodeResult::NoTimestamps) ++noTimestamps;
        if (result != DecodeResult::Record) continue;
        if (void* space = out->reserve(decoded.size)) {
            memcpy(space, decoded.bytes, decoded.size);
            out->commit(decoded.size);
        }
    }
    size_t dropped = 0;
    if (s.api.getNumDroppedRecords(context, streamId, &dropped) == CUPTI_SUCCESS)
        emitLoss(spool::LossKind::CuptiDroppedRecords, dropped);
    emitLoss(spool::LossKind::CuptiZeroTimestamps, noTimestamps);
    returnActivityBuffer(buffer, validSize);
}

} // namespace

bool registerActivityBuffers(CuptiState& s)
{
    setUpCuptiClock(s);
    prepareActivityBuffers(s);
    const CUptiResult result = s.api.registerCallbacks(&bufferRequested, &bufferCompleted);
    if (result != CUPTI_SUCCESS) {
        reportDiagnostic(spool::Severity::Error,
            "CUDA activity was not recorded: cuptiActivityRegisterCallbacks failed (%s).",
            resultText(s.api, result));
        return false;
    }
    return true;
}

void enableActivityKinds(CuptiState& s)
{
    constexpr CUpti_ActivityKind kKinds[] = {
        CUPTI_ACTIVITY_KIND_DEVICE,
        CUPTI_ACTIVITY_KIND_CONTEXT,
        CUPTI_ACTIVITY_KIND_STREAM,
        CUPTI_ACTIVITY_KIND_RUNTIME,
        CUPTI_ACTIVITY_KIND_DRIVER,
        CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
        CUPTI_ACTIVITY_KIND_MEMCPY,
        CUPTI_ACTIVITY_KIND_MEMCPY2,
        CUPTI_ACTIVITY_KIND_MEMSET,
        CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
    };
    // SIGHTLINE_CUDA_DRIVER_API=0 leaves driver API records out (runtime calls only): cheaper
    // per launch, but launches made straight through the driver (Triton, cuBLAS) lose their
    // API call.
    // SIGHTLINE_CUDA_API=0 records no API calls at all (GPU work only): for measuring what
    // API records cost; GPU operations then have no launching call.
    auto disabled = [](const char* name) {
        const char* value = getenv(name);
        return value && strcmp(value, "0") == 0;
    };
    const bool withApi = !disabled("SIGHTLINE_CUDA_API");
    const bool withDriver = withApi && !disabled("SIGHTLINE_CUDA_DRIVER_API");
    // --cuda-memory-usage: every allocation and release of GPU memory.
    const char* memory = getenv(spool::kEnvCudaMemoryUsage);
    const bool withMemory = memory && strcmp(memory, "1") == 0;
    auto enable = [&](CUpti_ActivityKind kind) {
        const CUptiResult result = s.api.activityEnable(kind);
        if (result != CUPTI_SUCCESS)
            reportDiagnostic(spool::Severity::Warning, "CUPTI refused to record activity kind %d (%s).",
                int(kind), resultText(s.api, result));
    };
    for (CUpti_ActivityKind kind : kKinds) {
        if (kind == CUPTI_ACTIVITY_KIND_DRIVER && !withDriver) continue;
        if (kind == CUPTI_ACTIVITY_KIND_RUNTIME && !withApi) continue;
        enable(kind);
    }
    if (withMemory) enable(CUPTI_ACTIVITY_KIND_MEMORY2);
}

void muteNoisyApis(CuptiState& s)
{
    // Queries called thousands of times per second by frameworks, with no GPU work behind them.
    constexpr CUpti_CallbackId kRuntime[] = {CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020,
        CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020, CUPTI_RUNTIME_TRACE_CBID_cudaPeekAtLastError_v3020,
        CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_v10000,
        CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_ptsz_v10000};
    constexpr CUpti_CallbackId kDriver[] = {CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent,
        CUPTI_DRIVER_TRACE_CBID_cuCtxGetDevice, CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxGetState,
        CUPTI_DRIVER_TRACE_CBID_cuPointerGetAttribute, CUPTI_DRIVER_TRACE_CBID_cuPointerGetAttributes,
        CUPTI_DRIVER_TRACE_CBID_cuGetProcAddress, CUPTI_DRIVER_TRACE_CBID_cuGetProcAddress_v2,
        CUPTI_DRIVER_TRACE_CBID_cuKernelGetAttribute, CUPTI_DRIVER_TRACE_CBID_cuFuncGetAttribute,
        // Called once per kernel launch under CUDA 13 (22,001 calls beside 22,001 launches of
        // a PyTorch loop): a name lookup with no GPU work behind it, one more row per launch.
        CUPTI_DRIVER_TRACE_CBID_cuKernelGetName, CUPTI_DRIVER_TRACE_CBID_cuFuncGetName};
    if (s.api.enableRuntimeApi)
        for (CUpti_CallbackId cbid : kRuntime)
            s.api.enableRuntimeApi(cbid, 0);
    if (s.api.enableDriverApi)
        for (CUpti_CallbackId cbid : kDriver)
            s.api.enableDriverApi(cbid, 0);
}

void flushActivity(bool forced)
{
    CuptiState& s = state();
    if (!s.active.load()) return;
    ToolScope scope;
    recalibrateCuptiClock(s); // the records this flush hands over are decoded with the newest offset
    s.api.flushAll(forced ? CUPTI_ACTIVITY_FLAG_FLUSH_FORCED : 0);
}

} // namespace sightline::inject::cupti
