// Notices another CUPTI client taking the activity buffers over. CUPTI's activity API is
// process-global: when torch.profiler (Kineto) starts, it registers its own buffer callbacks
// and our records flow to it from then on. Our preloaded library interposes
// cuptiActivityRegisterCallbacks: when someone else calls it while we record, we flush what
// CUPTI holds for us, stop calling CUPTI, store a diagnostic saying why CUDA activity ends
// there, and forward the call unchanged. (Our own registration goes to libcupti directly.)
#include "collector/inject/cupti/cupti_session.h"
#include "collector/inject/thread_state.h"

#include <dlfcn.h>

extern "C" __attribute__((visibility("default"))) CUptiResult cuptiActivityRegisterCallbacks(
    CUpti_BuffersCallbackRequestFunc requested, CUpti_BuffersCallbackCompleteFunc completed)
{
    using namespace sightline::inject;
    using Register = CUptiResult (*)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc);
    static std::atomic<Register> real {nullptr};
    Register forward = real.load();
    if (!forward) {
        ToolScope scope;
        forward = reinterpret_cast<Register>(dlsym(RTLD_NEXT, "cuptiActivityRegisterCallbacks"));
        real.store(forward);
    }
    cupti::CuptiState& s = cupti::state();
    if (s.active.exchange(false)) {
        ToolScope scope;
        s.api.flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
        cupti::reportDiagnostic(sightline::spool::Severity::Warning,
            "CUDA activity stops early: another CUPTI client (torch.profiler or a similar tool) "
            "took over CUPTI's activity buffers while the program ran.");
    }
    return forward ? forward(requested, completed) : CUPTI_ERROR_NOT_INITIALIZED;
}
