// CUPTI callbacks, used only for control: cuProfilerStart/Stop mark the capture range,
// cudaDeviceReset and context destruction flush records before CUDA drops them, and a fatal
// CUPTI state stops recording with a diagnostic. Each callback is one predictable branch on the
// target's thread; none is on a launch path.
#include "collector/inject/clock.h"
#include "collector/inject/cupti/cupti_session.h"
#include "collector/inject/records.h"

#include <cstdarg>
#include <cstdio>

namespace sightline::inject::cupti {

namespace {

void recordCapture(bool start)
{
    ToolScope scope;
    if (ThreadBuffer* buffer = BufferRegistry::current()) emitCaptureControl(*buffer, nowTicks(), start);
}

void onDriverApi(CUpti_CallbackId cbid, const CUpti_CallbackData& data)
{
    // The range starts once cuProfilerStart has returned and ends as cuProfilerStop is entered.
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart && data.callbackSite == CUPTI_API_EXIT)
        recordCapture(true);
    else if (cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop && data.callbackSite == CUPTI_API_ENTER)
        recordCapture(false);
}

void onRuntimeApi(CUpti_CallbackId cbid, const CUpti_CallbackData& data)
{
    if (cbid == CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020 && data.callbackSite == CUPTI_API_ENTER)
        flushActivity(true);
}

void enable(CuptiState& s, CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
    const CUptiResult result = s.api.enableCallback(1, s.subscriber, domain, cbid);
    if (result != CUPTI_SUCCESS)
        reportDiagnostic(spool::Severity::Warning, "CUPTI refused callback %u of domain %d (%s).",
            unsigned(cbid), int(domain), resultText(s.api, result));
}

} // namespace

void CUPTIAPI onCallback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data)
{
    switch (domain) {
    case CUPTI_CB_DOMAIN_DRIVER_API:
        onDriverApi(cbid, *static_cast<const CUpti_CallbackData*>(data));
        break;
    case CUPTI_CB_DOMAIN_RUNTIME_API:
        onRuntimeApi(cbid, *static_cast<const CUpti_CallbackData*>(data));
        break;
    case CUPTI_CB_DOMAIN_RESOURCE:
        if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) flushActivity(true);
        break;
    case CUPTI_CB_DOMAIN_STATE:
        if (cbid == CUPTI_CBID_STATE_FATAL_ERROR) {
            const auto* info = static_cast<const CUpti_StateData*>(data);
            reportDiagnostic(spool::Severity::Error,
                "CUPTI reported a fatal error (%s); CUDA recording stopped.",
                info && info->notification.message ? info->notification.message : "no message");
            state().active.store(false);
        }
        break;
    default:
        break;
    }
}

void enableControlCallbacks(CuptiState& s)
{
    enable(s, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
    enable(s, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
    enable(s, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020);
    enable(s, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
    enable(s, CUPTI_CB_DOMAIN_STATE, CUPTI_CBID_STATE_FATAL_ERROR);
}

void reportDiagnostic(spool::Severity severity, const char* format, ...)
{
    char text[512];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(text, sizeof(text), format, arguments);
    va_end(arguments);
    ToolScope scope;
    if (ThreadBuffer* buffer = BufferRegistry::current()) emitDiagnostic(*buffer, severity, text);
}

} // namespace sightline::inject::cupti
