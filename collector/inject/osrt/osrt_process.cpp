// OS-runtime wrappers around process life: fork and wait are timed like any call; _exit and
// the exec family drain our buffers first, because after them this image's memory is gone.
// A vfork child shares its parent's memory and must not touch our state: those paths act only
// when the caller is the process our state belongs to.
#include "collector/inject/osrt/osrt_timed.h"

#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace sightline::inject;
using namespace sightline::inject::osrt;

#define SIGHTLINE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

RealFunction<decltype(fork)> realFork {"fork"};
RealFunction<decltype(wait)> realWait {"wait"};
RealFunction<decltype(waitpid)> realWaitpid {"waitpid"};
RealFunction<decltype(_exit)> realExit {"_exit"};
RealFunction<decltype(_Exit)> realUnderscoreExit {"_Exit"};
RealFunction<decltype(execve)> realExecve {"execve"};
RealFunction<decltype(execv)> realExecv {"execv"};
RealFunction<decltype(execvp)> realExecvp {"execvp"};
RealFunction<decltype(execvpe)> realExecvpe {"execvpe"};

// Our state belongs to the process that last ran our constructor or fork handler; a vfork
// child runs with the same memory but another pid.
void flushIfOurProcess()
{
    if (g_config.enabled && pid_t(syscall(SYS_getpid)) == g_ownerPid.load(std::memory_order_relaxed))
        finalFlush();
}

} // namespace

SIGHTLINE_EXPORT pid_t fork() noexcept
{
    if (!tracing()) return realFork.get()();
    const uint64_t start = nowTicks();
    const pid_t child = realFork.get()();
    const uint64_t end = nowTicks();
    // Only the parent records: the child's buffers were reset by the fork handler.
    if (child != 0 && end - start >= g_osrtThresholdTicks.load(std::memory_order_relaxed))
        record(OsFunction::fork, start, end, child);
    return child;
}

SIGHTLINE_EXPORT pid_t wait(int* status)
{
    return timed(OsFunction::wait, realWait.get(), status);
}

SIGHTLINE_EXPORT pid_t waitpid(pid_t pid, int* status, int options)
{
    return timed(OsFunction::waitpid, realWaitpid.get(), pid, status, options);
}

SIGHTLINE_EXPORT void _exit(int status)
{
    flushIfOurProcess();
    realExit.get()(status);
    __builtin_unreachable();
}

SIGHTLINE_EXPORT void _Exit(int status) noexcept
{
    flushIfOurProcess();
    realUnderscoreExit.get()(status);
    __builtin_unreachable();
}

SIGHTLINE_EXPORT int execve(const char* path, char* const argv[], char* const envp[]) noexcept
{
    flushIfOurProcess();
    return realExecve.get()(path, argv, envp);
}

SIGHTLINE_EXPORT int execv(const char* path, char* const argv[]) noexcept
{
    flushIfOurProcess();
    return realExecv.get()(path, argv);
}

SIGHTLINE_EXPORT int execvp(const char* file, char* const argv[]) noexcept
{
    flushIfOurProcess();
    return realExecvp.get()(file, argv);
}

SIGHTLINE_EXPORT int execvpe(const char* file, char* const argv[], char* const envp[]) noexcept
{
    flushIfOurProcess();
    return realExecvpe.get()(file, argv, envp);
}
