// Recording an OS-runtime call above the threshold, and resolving the real functions.
#include "collector/inject/osrt/osrt_timed.h"
#include "collector/inject/records.h"

#include <dlfcn.h>

namespace sightline::inject::osrt {

void* resolveNext(const char* name, const char* version)
{
    ToolScope scope;
    void* fn = version ? dlvsym(RTLD_NEXT, name, version) : nullptr;
    return fn ? fn : dlsym(RTLD_NEXT, name);
}

void record(OsFunction function, uint64_t startTicks, uint64_t endTicks, int64_t result)
{
    const int saved = errno;
    ToolScope scope;
    if (ThreadBuffer* buffer = BufferRegistry::current())
        emitOsCall(*buffer, uint16_t(function), startTicks, endTicks, result);
    errno = saved;
}

} // namespace sightline::inject::osrt
