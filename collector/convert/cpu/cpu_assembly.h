// The CPU recording (perf_records.h) into the report: every sample's stack unwound (frame
// pointers walked by the kernel, or the copied stack unwound with libdwfl) and named
// (process_images.h), thread states with the reason of each wait (thread_states.h), the
// threads and processes only the kernel saw (a child that did not load the collector), and
// the stack of each slow CUDA API call (--cudabacktrace), taken from the sample or context
// switch that fell inside the call.
#pragma once

#include "collector/convert/cpu/perf_records.h"
#include "collector/convert/decode/decoded_process.h"
#include "model/construct/trace_builder.h"

#include <string>
#include <vector>

namespace sightline::collector {

// --cudabacktrace: which CUDA API calls get a stack, and from what duration.
struct CudaBacktraceSpec
{
    bool kernel = false; // launches
    bool memory = false; // copies, sets, allocations
    bool sync = false; // synchronization
    int64_t thresholdNs = 0;
    bool any() const { return kernel || memory || sync; }
};

struct CpuConversionOptions
{
    bool dwarf = false; // the recording copied stacks for libdwfl to unwind
    CudaBacktraceSpec cudaBacktrace;
};

struct CpuAssemblyStats
{
    size_t samples = 0;
    size_t states = 0;
    size_t eventStacks = 0;
    size_t unwound = 0; // user stacks unwound from their copy (dwarf, or where frame pointers broke)
    size_t truncated = 0; // user stacks that reach no thread start
};

CpuAssemblyStats addCpuProfile(const PerfRecording& recording, int64_t originMonotonicNs,
    Timestamp sessionEnd, const std::vector<ProcessCapture>& processes, const CpuConversionOptions& options,
    TraceBuilder& builder);

} // namespace sightline::collector
