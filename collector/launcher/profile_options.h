// What `sightline profile` is asked to do (the CLI reads it from the command line in
// app/cli/profile_args.cpp), and how it is recorded in the report's metadata.
#pragma once

#include "collector/convert/assemble/spool_merge.h"
#include "collector/perf/cpu_recording_options.h"
#include "model/core/metadata.h"

#include <string>
#include <utility>
#include <vector>

namespace sightline::collector {

struct ProfileOptions
{
    bool traceCuda = true;
    bool traceNvtx = true;
    bool traceOsrt = true;
    int64_t osrtThresholdNs = 1000;
    std::string output; // as given (may hold %p, %h); empty: report1.rep, report2.rep...
    bool forceOverwrite = false;
    CaptureSpec capture;
    bool stats = false;
    std::vector<std::pair<std::string, std::string>> environment; // -e NAME=VALUE
    bool showOutput = true;
    bool quiet = false;
    bool help = false;
    std::vector<std::string> command; // the program and its arguments

    // GPU metrics (collector/sampler): "none", "all" or device ordinals "0,2".
    std::string gpuMetricsDevices = "none";
    uint32_t gpuMetricsFrequency = 10000; // Hz, 10 to 200000
    std::string gpuMetricsSet = "general";
    bool listGpuMetricSets = false; // --gpu-metrics-set=help
    bool cudaMemoryUsage = false; // --cuda-memory-usage: GPU memory allocations as a per-device series
    bool gpuMetrics() const { return gpuMetricsDevices != "none"; }

    // CPU samples, thread states and stacks (collector/perf): -s, --sampling-frequency,
    // --cpuctxsw, --backtrace; --cudabacktrace picks the CUDA API calls that get a stack.
    CpuRecordingOptions cpu;
    CudaBacktraceSpec cudaBacktrace;

    std::string traceList() const; // "cuda,nvtx,osrt" or "none"
    // The options as the report's metadata lists them.
    KeyValueList asMetadata() const;
    // What converting the recording into a report needs of these options.
    ConversionOptions conversion() const;
};

} // namespace sightline::collector
