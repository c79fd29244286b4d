// Per-thread state of the injection library, in initial-exec TLS so the hot paths reach it with
// one fs-relative load. It is plain data (no constructor), zero for a new thread.
//
// `inTool` is the recursion guard: while it is non-zero the thread is running collector code
// (the writer thread always is), and the OS-runtime wrappers forward to the real function
// without recording. Anything the collector does that could reach a wrapper runs under a
// ToolScope.
#pragma once

#include <cstdint>

namespace sightline::inject {

class ThreadBuffer;

struct ThreadState
{
    ThreadBuffer* buffer; // claimed on the thread's first record, released when it exits
    uint32_t inTool;
    int32_t nvtxDepth; // push/pop nesting, returned by nvtxRangePush/Pop
};

#define SIGHTLINE_TLS __attribute__((tls_model("initial-exec")))
extern __thread ThreadState t_thread SIGHTLINE_TLS;

class ToolScope
{
public:
    ToolScope() { ++t_thread.inTool; }
    ~ToolScope() { --t_thread.inTool; }
    ToolScope(const ToolScope&) = delete;
    ToolScope& operator=(const ToolScope&) = delete;
};

} // namespace sightline::inject
