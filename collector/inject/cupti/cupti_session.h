// The CUDA layer of the injection library: CUPTI found, subscribed and configured by
// InitializeInjection (cupti_injection.cpp); activity buffers decoded into spool records
// (cupti_activity.cpp); a few callbacks for control (cupti_callbacks.cpp): capture ranges,
// flushes before teardown, fatal errors. Timeline data comes only from activity records, which
// CUPTI writes without running our code on the target's threads.
#pragma once

#include "collector/inject/cupti/cupti_api.h"
#include "collector/inject/cupti/cupti_decode.h"

#include <atomic>

namespace sightline::inject::cupti {

struct CuptiState
{
    CuptiApi api;
    DecodeSettings settings;
    CUpti_SubscriberHandle subscriber = nullptr;
    std::atomic<bool> active {false}; // subscribed and recording
    bool ourClock = false; // CUPTI calls our timestamp callback (SIGHTLINE_CUPTI_CLOCK=callback)
};

CuptiState& state();

// cupti_activity.cpp
bool registerActivityBuffers(CuptiState& s);
void enableActivityKinds(CuptiState& s);
void muteNoisyApis(CuptiState& s);
// Flush hook: periodic (complete buffers only) or forced (everything, at exit).
void flushActivity(bool forced);

// cupti_callbacks.cpp
void CUPTIAPI onCallback(
    void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data);
void enableControlCallbacks(CuptiState& s);

// A diagnostic sentence into the spool, from any thread.
void reportDiagnostic(spool::Severity severity, const char* format, ...)
    __attribute__((format(printf, 2, 3)));

} // namespace sightline::inject::cupti
