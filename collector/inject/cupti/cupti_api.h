// CUPTI, loaded at run time. We never link libcupti: a PyTorch process may already carry its
// own (libcupti.so.12 or .13 from a wheel), and two CUPTIs in one process fight. So we first
// look for one already loaded (RTLD_NOLOAD), and only then load one: SIGHTLINE_CUPTI_PATH (set
// by the launcher to the toolkit's copy), then the library search path.
#pragma once

#include <cstddef>
#include <cupti.h>

namespace sightline::inject::cupti {

struct CuptiApi
{
    void* library = nullptr;
    bool alreadyLoaded = false; // found in the process, not loaded by us
    char path[512] = {}; // what we used, for diagnostics

    decltype(&cuptiGetVersion) getVersion = nullptr;
    decltype(&cuptiSubscribe) subscribe = nullptr;
    decltype(&cuptiSubscribe_v2) subscribeV2 = nullptr; // 13.0 and later
    decltype(&cuptiEnableCallback) enableCallback = nullptr;
    decltype(&cuptiActivityEnable) activityEnable = nullptr;
    decltype(&cuptiActivityDisable) activityDisable = nullptr;
    decltype(&cuptiActivityRegisterCallbacks) registerCallbacks = nullptr;
    decltype(&cuptiActivityRegisterTimestampCallback) registerTimestampCallback = nullptr; // optional
    decltype(&cuptiActivityFlushAll) flushAll = nullptr;
    decltype(&cuptiActivityGetNextRecord) getNextRecord = nullptr;
    decltype(&cuptiActivityGetNumDroppedRecords) getNumDroppedRecords = nullptr;
    decltype(&cuptiSetThreadIdType) setThreadIdType = nullptr;
    decltype(&cuptiGetTimestamp) getTimestamp = nullptr;
    decltype(&cuptiGetCallbackName) getCallbackName = nullptr;
    decltype(&cuptiGetResultString) getResultString = nullptr;
    decltype(&cuptiActivityEnableRuntimeApi) enableRuntimeApi = nullptr; // optional (12.5+)
    decltype(&cuptiActivityEnableDriverApi) enableDriverApi = nullptr; // optional (12.5+)
    decltype(&cuptiActivitySetAttribute) activitySetAttribute = nullptr; // optional
};

// Fills `api`; false (with `error` set to a sentence fragment) when no usable CUPTI was found.
bool loadCupti(CuptiApi& api, char* error, size_t errorBytes);

// CUPTI's text for a result code, or "error N".
const char* resultText(const CuptiApi& api, CUptiResult result);

} // namespace sightline::inject::cupti
