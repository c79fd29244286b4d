#include "collector/inject/cupti/cupti_api.h"

#include "collector/inject/thread_state.h"
#include "collector/spool/spool_format.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

namespace sightline::inject::cupti {

namespace {

constexpr const char* kSonames[] = {"libcupti.so.13", "libcupti.so.12", "libcupti.so"};

void* openLibrary(CuptiApi& api)
{
    for (const char* name : kSonames) {
        if (void* handle = dlopen(name, RTLD_NOW | RTLD_NOLOAD)) {
            api.alreadyLoaded = true;
            snprintf(api.path, sizeof(api.path), "%s (already loaded)", name);
            return handle;
        }
    }
    if (const char* path = getenv(spool::kEnvCuptiPath); path && *path) {
        if (void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL)) {
            snprintf(api.path, sizeof(api.path), "%s", path);
            return handle;
        }
    }
    for (const char* name : kSonames) {
        if (void* handle = dlopen(name, RTLD_NOW | RTLD_LOCAL)) {
            snprintf(api.path, sizeof(api.path), "%s", name);
            return handle;
        }
    }
    return nullptr;
}

template <class Fn> void bind(void* library, Fn& out, const char* name)
{
    out = reinterpret_cast<Fn>(dlsym(library, name));
}

} // namespace

bool loadCupti(CuptiApi& api, char* error, size_t errorBytes)
{
    ToolScope scope;
    api.library = openLibrary(api);
    if (!api.library) {
        snprintf(error, errorBytes, "libcupti could not be loaded (tried %s, SIGHTLINE_CUPTI_PATH and %s)",
            kSonames[0], kSonames[1]);
        return false;
    }
    bind(api.library, api.getVersion, "cuptiGetVersion");
    bind(api.library, api.subscribe, "cuptiSubscribe");
    bind(api.library, api.subscribeV2, "cuptiSubscribe_v2");
    bind(api.library, api.enableCallback, "cuptiEnableCallback");
    bind(api.library, api.activityEnable, "cuptiActivityEnable");
    bind(api.library, api.activityDisable, "cuptiActivityDisable");
    bind(api.library, api.registerCallbacks, "cuptiActivityRegisterCallbacks");
    bind(api.library, api.registerTimestampCallback, "cuptiActivityRegisterTimestampCallback");
    bind(api.library, api.flushAll, "cuptiActivityFlushAll");
    bind(api.library, api.getNextRecord, "cuptiActivityGetNextRecord");
    bind(api.library, api.getNumDroppedRecords, "cuptiActivityGetNumDroppedRecords");
    bind(api.library, api.setThreadIdType, "cuptiSetThreadIdType");
    bind(api.library, api.getTimestamp, "cuptiGetTimestamp");
    bind(api.library, api.getCallbackName, "cuptiGetCallbackName");
    bind(api.library, api.getResultString, "cuptiGetResultString");
    bind(api.library, api.enableRuntimeApi, "cuptiActivityEnableRuntimeApi");
    bind(api.library, api.enableDriverApi, "cuptiActivityEnableDriverApi");
    bind(api.library, api.activitySetAttribute, "cuptiActivitySetAttribute");
    const bool complete = api.getVersion && api.subscribe && api.enableCallback && api.activityEnable
        && api.activityDisable && api.registerCallbacks && api.flushAll && api.getNextRecord
        && api.getNumDroppedRecords && api.setThreadIdType && api.getTimestamp && api.getCallbackName;
    if (!complete) {
        snprintf(error, errorBytes, "%s lacks CUPTI activity functions this collector needs", api.path);
        return false;
    }
    return true;
}

const char* resultText(const CuptiApi& api, CUptiResult result)
{
    const char* text = nullptr;
    if (api.getResultString && api.getResultString(result, &text) == CUPTI_SUCCESS && text) return text;
    static char fallback[32];
    snprintf(fallback, sizeof(fallback), "error %d", int(result));
    return fallback;
}

} // namespace sightline::inject::cupti
