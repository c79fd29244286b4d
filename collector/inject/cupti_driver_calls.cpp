// Driver API calls recorded from CUPTI callbacks instead of CUPTI's DRIVER activity kind.
// That kind records every driver call, including the cuLaunchKernel inside each
// cudaLaunchKernel, which the launcher then drops as nested; on a launch-bound loop it
// doubled the collector's cost per launch (tests/gpu/overhead.sh). Only driver functions that
// submit or wait for GPU work are needed on the timeline (Triton, JAX and the like launch
// through the driver with no runtime call around), so those get an enter/exit callback that
// writes one CudaApiRecord; nested calls are still dropped at assembly. The callback's
// correlation id is the one CUPTI gives the GPU records the call launched.
//
// SIGHTLINE_CUDA_DRIVER_API selects: "launches" (default, these callbacks), "all" (the DRIVER
// activity kind, every driver call), "0" (no driver calls).
#include "clock.h"
#include "cupti_session.h"
#include "interned_strings.h"
#include "records.h"

#include <atomic>
#include <cstring>
#include <string_view>

namespace sightline::inject::cupti {

namespace {

// Name ids of the driver functions recorded, by cbid; 0 for functions not recorded.
std::atomic<uint32_t> g_driverNames[CUPTI_DRIVER_TRACE_CBID_SIZE];

// Driver functions that put work on the GPU, wait for it, or allocate for it.
constexpr const char* kRecordedPrefixes[] = {"cuLaunch", "cuMemcpy", "cuMemset", "cuGraphLaunch",
    "cuStreamSynchronize", "cuCtxSynchronize", "cuEventSynchronize", "cuStreamWaitEvent", "cuEventRecord",
    "cuMemAlloc", "cuMemFree", "cuMemHostAlloc", "cuModuleLoad", "cuLibraryLoad"};

bool recorded(std::string_view name)
{
    for (const char* prefix : kRecordedPrefixes)
        if (name.starts_with(prefix)) return true;
    return false;
}

} // namespace

DriverCalls driverCallMode()
{
    const char* value = getenv("SIGHTLINE_CUDA_DRIVER_API");
    if (!value || !*value) return DriverCalls::Launches;
    if (strcmp(value, "0") == 0) return DriverCalls::None;
    if (strcmp(value, "all") == 0) return DriverCalls::All;
    return DriverCalls::Launches;
}

void enableDriverCallRecording(CuptiState& s)
{
    unsigned enabled = 0;
    for (uint32_t cbid = 1; cbid < CUPTI_DRIVER_TRACE_CBID_SIZE; ++cbid) {
        const char* name = nullptr;
        if (s.api.getCallbackName(CUPTI_CB_DOMAIN_DRIVER_API, cbid, &name) != CUPTI_SUCCESS || !name) continue;
        const std::string_view stripped = stripVersionSuffix(name);
        if (!recorded(stripped)) continue;
        // Named before enabled: the callback may run at once on another thread.
        g_driverNames[cbid].store(strings::intern(stripped.data(), stripped.size()), std::memory_order_relaxed);
        if (s.api.enableCallback(1, s.subscriber, CUPTI_CB_DOMAIN_DRIVER_API, cbid) == CUPTI_SUCCESS)
            ++enabled;
        else
            g_driverNames[cbid].store(0, std::memory_order_relaxed);
    }
    if (enabled == 0)
        reportDiagnostic(spool::Severity::Warning,
            "CUPTI refused the driver API callbacks; CUDA work launched through the driver has no API call.");
}

bool onDriverCall(CUpti_CallbackId cbid, const CUpti_CallbackData& data)
{
    const uint32_t nameId = cbid < CUPTI_DRIVER_TRACE_CBID_SIZE ? g_driverNames[cbid].load(std::memory_order_relaxed) : 0;
    if (nameId == 0) return false;
    // Enter keeps its time in the slot CUPTI passes to the matching exit.
    if (data.callbackSite == CUPTI_API_ENTER) {
        if (data.correlationData) *data.correlationData = uint64_t(spool::monotonicNs());
        return true;
    }
    const int64_t end = spool::monotonicNs();
    ThreadState& thread = t_thread;
    if (thread.inTool || !data.correlationData) return true;
    ++thread.inTool;
    if (ThreadBuffer* buffer = BufferRegistry::current()) {
        if (auto* r = reserveRecord<spool::CudaApiRecord>(*buffer, spool::RecordType::CudaApi, 0, buffer->tid())) {
            r->startNs = int64_t(*data.correlationData);
            r->endNs = end;
            r->correlation = data.correlationId;
            r->nameId = nameId;
            r->result = data.functionReturnValue ? *static_cast<const int32_t*>(data.functionReturnValue) : 0;
            r->apiClass = spool::ApiClass::Driver;
            memset(r->reserved, 0, sizeof(r->reserved));
            commitRecord(*buffer, r);
        }
    }
    --thread.inTool;
    return true;
}

} // namespace sightline::inject::cupti
