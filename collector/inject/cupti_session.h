// The CUDA layer of the injection library: CUPTI found, subscribed and configured by
// InitializeInjection (cupti_injection.cpp); activity buffers decoded into spool records
// (cupti_activity.cpp); a few callbacks for control (cupti_callbacks.cpp): capture ranges,
// flushes before teardown, fatal errors; and driver API calls that submit GPU work
// (cupti_driver_calls.cpp). All other timeline data comes from activity records, which CUPTI
// writes without running our code on the target's threads.
#pragma once

#include "cupti_api.h"
#include "cupti_decode.h"

#include <atomic>

namespace sightline::inject::cupti {

struct CuptiState
{
    CuptiApi api;
    DecodeSettings settings;
    CUpti_SubscriberHandle subscriber = nullptr;
    std::atomic<bool> active {false}; // subscribed and recording
    bool ourClock = false; // CUPTI accepted our timestamp callback
};

CuptiState& state();

// cupti_activity.cpp
bool registerActivityBuffers(CuptiState& s);
void enableActivityKinds(CuptiState& s);
void muteNoisyApis(CuptiState& s);
// Flush hook: periodic (complete buffers only) or forced (everything, at exit).
void flushActivity(bool forced);

// cupti_driver_calls.cpp: driver API calls from callbacks (the file explains why).
enum class DriverCalls : uint8_t { None, Launches, All };
DriverCalls driverCallMode();
void enableDriverCallRecording(CuptiState& s);
// Records a driver call on its exit; false when `cbid` is not one recorded here.
bool onDriverCall(CUpti_CallbackId cbid, const CUpti_CallbackData& data);

// cupti_callbacks.cpp
void CUPTIAPI onCallback(
    void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data);
void enableControlCallbacks(CuptiState& s);

// A diagnostic sentence into the spool, from any thread.
void reportDiagnostic(spool::Severity severity, const char* format, ...)
    __attribute__((format(printf, 2, 3)));

} // namespace sightline::inject::cupti
