// The injection library's process-wide configuration and lifecycle. The configuration comes
// from the environment the launcher sets (spool/spool_format.h lists the variables) and is
// read once, in the library constructor, before any wrapper may record. Without
// SIGHTLINE_SPOOL_DIR the library stays inert: every wrapper forwards, NVTX and CUPTI decline.
//
// Lifecycle: constructor -> clock, buffers, fork handlers, atexit, writer thread. Exit paths
// (atexit, the library destructor, the _exit/exec wrappers) call finalFlush(), which never
// calls exit() and never throws.
#pragma once

#include <atomic>
#include <cstdint>

namespace sightline::inject {

struct SessionConfig
{
    bool enabled = false;
    bool traceCuda = false;
    bool traceNvtx = false;
    bool traceOsrt = false;
    int64_t osrtThresholdNs = 1000;
    char spoolDir[1024] = {};
    char keepEnv[1024] = {}; // comma-separated names of variables stored in the report
};

inline SessionConfig g_config;
// Hot-path switches, derived from g_config.
inline bool g_osrtEnabled = false;
inline std::atomic<uint64_t> g_osrtThresholdTicks {1000};
// The process our state belongs to (set by the constructor and the fork-child handler): a
// vfork child shares our memory under another pid and must leave it alone.
inline std::atomic<int> g_ownerPid {0};

// Runs the constructor's work if it has not run yet (an entry point reached first). Idempotent.
void ensureInitialized();

// Hooks the CUDA layer installs: a periodic flush (from the writer thread, outside the drain
// lock) and a forced one at exit.
using FlushHook = void (*)(bool forced);
void setCudaFlushHook(FlushHook hook);
void runCudaFlushHook(bool forced);

// Drains every buffer to the spool file now. Safe to call repeatedly and from exit paths.
void finalFlush();

} // namespace sightline::inject
