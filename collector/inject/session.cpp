#include "collector/inject/session.h"

#include "collector/inject/clock.h"
#include "collector/inject/interned_strings.h"
#include "collector/inject/nvtx_registry.h"
#include "collector/inject/spool_writer.h"
#include "collector/inject/thread_buffer.h"
#include "collector/inject/thread_state.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace sightline::inject {

namespace {

std::atomic<bool> g_initialized {false};
std::atomic<FlushHook> g_cudaFlushHook {nullptr};

bool listHas(const char* list, const char* word)
{
    const size_t length = strlen(word);
    for (const char* p = list; p && *p;) {
        const char* comma = strchr(p, ',');
        const size_t itemLength = comma ? size_t(comma - p) : strlen(p);
        if (itemLength == length && strncmp(p, word, length) == 0) return true;
        p = comma ? comma + 1 : nullptr;
    }
    return false;
}

void copyEnv(char* out, size_t size, const char* name)
{
    const char* value = getenv(name);
    if (value) strncpy(out, value, size - 1);
}

void readConfig()
{
    SessionConfig& c = g_config;
    copyEnv(c.spoolDir, sizeof(c.spoolDir), spool::kEnvSpoolDir);
    copyEnv(c.keepEnv, sizeof(c.keepEnv), spool::kEnvKeepEnv);
    c.enabled = c.spoolDir[0] != '\0';
    const char* trace = getenv(spool::kEnvTrace);
    if (!trace) trace = "cuda,nvtx,osrt";
    c.traceCuda = c.enabled && listHas(trace, "cuda");
    c.traceNvtx = c.enabled && listHas(trace, "nvtx");
    c.traceOsrt = c.enabled && listHas(trace, "osrt");
    if (const char* threshold = getenv(spool::kEnvOsrtThreshold)) {
        char* end = nullptr;
        const long long value = strtoll(threshold, &end, 10);
        if (end != threshold && value >= 0) c.osrtThresholdNs = value;
    }
}

void forkPrepare()
{
    if (!g_config.enabled) return;
    ++t_thread.inTool;
    writer::lockForFork();
    nvtx::lockForFork();
    strings::lockForFork();
}

void forkParent()
{
    if (!g_config.enabled) return;
    strings::unlockAfterForkParent();
    nvtx::unlockAfterForkParent();
    writer::unlockAfterForkParent();
    --t_thread.inTool;
}

void forkChild()
{
    if (!g_config.enabled) return;
    // The child has only this thread; the CUDA layer is not usable in it.
    g_cudaFlushHook.store(nullptr);
    strings::resetAfterForkChild();
    nvtx::resetAfterForkChild();
    writer::resetAfterForkChild();
    BufferRegistry::resetAfterFork(uint32_t(syscall(SYS_gettid)));
    g_ownerPid.store(int(syscall(SYS_getpid)));
    --t_thread.inTool;
    writer::start();
}

void atExit()
{
    finalFlush();
}

__attribute__((constructor)) void onLoad()
{
    ensureInitialized();
}

// After atexit handlers: catch records made by later destructors. CUPTI may be unloaded by
// now, so only our own buffers are drained.
__attribute__((destructor)) void onUnload()
{
    if (!g_config.enabled) return;
    const int savedErrno = errno;
    writer::drain();
    errno = savedErrno;
}

} // namespace

void ensureInitialized()
{
    bool expected = false;
    if (!g_initialized.compare_exchange_strong(expected, true)) return;
    ToolScope scope;
    readConfig();
    if (!g_config.enabled) return;
    g_ownerPid.store(int(syscall(SYS_getpid)));
    initializeClock();
    writer::setStartPair(spool::samplePair(g_tickSource));
    g_osrtThresholdTicks.store(uint64_t(g_config.osrtThresholdNs));
    BufferRegistry::initialize();
    pthread_atfork(&forkPrepare, &forkParent, &forkChild);
    atexit(&atExit);
    writer::start();
    g_osrtEnabled = g_config.traceOsrt;
}

void setCudaFlushHook(FlushHook hook)
{
    g_cudaFlushHook.store(hook);
}

void runCudaFlushHook(bool forced)
{
    if (FlushHook hook = g_cudaFlushHook.load()) hook(forced);
}

void finalFlush()
{
    if (!g_config.enabled || t_thread.inTool > 0) return;
    const int savedErrno = errno;
    ToolScope scope;
    runCudaFlushHook(true);
    writer::drain();
    errno = savedErrno;
}

} // namespace sightline::inject
