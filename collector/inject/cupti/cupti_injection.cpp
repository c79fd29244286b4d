// InitializeInjection: the CUDA driver calls it from inside cuInit when CUDA_INJECTION64_PATH
// names this library. Only CUPTI set-up happens here (no CUDA calls): find CUPTI, subscribe,
// take the thread-id type and our clock, register buffers, enable the activity kinds (early:
// enabling kernels late stalls), mute noisy APIs, and install the control callbacks and the
// flush hook. When another tool holds CUPTI, NVTX and OS-runtime recording go on and the report
// says why CUDA activity is missing.
#include "collector/inject/clock.h"
#include "collector/inject/cupti/cupti_session.h"
#include "collector/inject/records.h"
#include "collector/inject/session.h"

#include <cstdlib>
#include <mutex>

namespace sightline::inject::cupti {

namespace {

std::once_flag g_setUpOnce;

void writeVersions(CuptiState& s)
{
    uint32_t version = 0;
    s.api.getVersion(&version);
    s.settings.cuptiVersion = version;
    ThreadBuffer* buffer = BufferRegistry::current();
    if (!buffer) return;
    if (auto* r = reserveRecord<spool::CudaVersionsRecord>(*buffer, spool::RecordType::CudaVersions, 0, 0)) {
        r->cuptiApiVersion = version;
        r->driverVersion = 0; // the launcher reads the driver's version from the host
        commitRecord(*buffer, r);
    }
}

bool subscribe(CuptiState& s)
{
    CUptiResult result;
    char holder[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN + 64] = {};
    if (s.api.subscribeV2) {
        CUpti_SubscriberParams params {};
        params.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
        params.subscriberName = "sightline";
        params.oldSubscriberName = holder;
        params.oldSubscriberSize = sizeof(holder);
        result = s.api.subscribeV2(&s.subscriber, &onCallback, nullptr, &params);
    } else {
        result = s.api.subscribe(&s.subscriber, &onCallback, nullptr);
    }
    if (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
        reportDiagnostic(spool::Severity::Error,
            "CUDA activity was not recorded: CUPTI is already in use by %s (only one CUPTI client "
            "can subscribe); NVTX and OS runtime were still recorded.",
            holder[0] ? holder : "another tool (a profiler, debugger or torch.profiler)");
        return false;
    }
    if (result != CUPTI_SUCCESS) {
        reportDiagnostic(spool::Severity::Error,
            "CUDA activity was not recorded: cuptiSubscribe failed (%s).", resultText(s.api, result));
        return false;
    }
    return true;
}

void atExitFlush()
{
    finalFlush();
}

void setUp()
{
    ToolScope scope;
    CuptiState& s = state();
    char error[600];
    if (!loadCupti(s.api, error, sizeof(error))) {
        reportDiagnostic(spool::Severity::Error, "CUDA activity was not recorded: %s.", error);
        return;
    }
    writeVersions(s);
    if (!subscribe(s)) return;
    s.api.setThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);
    if (!registerActivityBuffers(s)) return;
    enableActivityKinds(s);
    muteNoisyApis(s);
    enableControlCallbacks(s);
    s.active.store(true);
    setCudaFlushHook(&flushActivity);
    // Registered after CUDA's own handlers exist, so it runs before they tear CUDA down.
    atexit(&atExitFlush);
}

} // namespace

CuptiState& state()
{
    static CuptiState* instance = new CuptiState;
    return *instance;
}

} // namespace sightline::inject::cupti

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void)
{
    using namespace sightline::inject;
    ensureInitialized();
    if (g_config.traceCuda) std::call_once(cupti::g_setUpOnce, &cupti::setUp);
    return 1;
}
