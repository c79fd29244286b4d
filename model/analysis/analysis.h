// Diagnosis: rules that read a Trace and say what limits the program, each finding with the
// events or time ranges behind it (`sightline analyze`, the viewer's Expert view).
//
// A rule is a function of the trace and the options that appends findings (rule_catalog.h
// lists them: Nsight Systems' six expert rules under their names, then Sightline's own). Each
// finding carries one sentence with numbers saying what was found, one saying what to do, and
// its evidence: events (openable in the timeline and the Events View) or time ranges (gaps,
// low-utilization chunks), largest first. Beside the findings, analyze() returns the facts
// they are built from (per GPU time breakdown, launch statistics per kernel name, occupancy)
// and the verdict: the dominant limit of the whole scope and of each top-level NVTX range name.
//
// Scope: with a range, the events that start inside it count (the stats engine's rule); the
// GPU timelines are clipped to it. The trace is only read: the facts, then the rules, run as
// independent pieces over every core; when `cancel` becomes true the work stops and the result
// holds nothing but `cancelled`.
#pragma once

#include "model/core/metadata.h"
#include "model/core/time.h"
#include "model/core/track.h"
#include "model/trace/trace.h"

#include <atomic>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sightline {

std::string_view severityName(Severity severity); // "info", "warning", "error"

// One piece of evidence: an event (its span is `range`), or a time range alone (`event` empty).
struct Evidence
{
    std::optional<EventRef> event;
    TimeRange range;
    std::string label; // what it is, e.g. "cudaMemcpyAsync 64 MiB HtoD from pageable memory"
};

struct Finding
{
    std::string rule; // "cuda_memcpy_async"
    Severity severity = Severity::Warning;
    std::string summary; // one sentence with numbers
    std::string advice; // one sentence on what to do
    std::vector<Evidence> evidence; // largest first, at most AnalysisOptions::evidenceLimit
    size_t evidenceCount = 0; // how many were found, also those left out of `evidence`
};

// The limits a verdict can name.
enum class Limit : uint8_t {
    GpuCompute, // the GPU busy with kernels nearly all the time
    LaunchBound, // the GPU waits while the CPU launches (CUDA API launch calls dominate)
    Synchronization, // the GPU waits while the CPU sits in synchronization calls
    CpuBound, // the GPU waits while the CPU runs its own code
    MemoryTransfer, // copies take most of the GPU time
    Balanced, // nothing dominates
    NoGpuWork, // nothing ran on a GPU in the scope
};
std::string_view limitName(Limit limit); // "GPU compute bound", "CUDA API / launch bound", ...

struct Verdict
{
    std::string scope; // "whole report" or the NVTX range's name
    TimeRange range; // the scope's span (the first to the last instance for a range name)
    size_t instances = 1; // NVTX ranges of that name
    Limit limit = Limit::Balanced;
    std::string reason; // the two or three numbers that justify it, as one sentence
};

// Where one GPU's time went over the scope (kernels and copies overlapping count once, the
// categories in the order listed take precedence), and what the CPU did while it was idle.
struct GpuTimeBreakdown
{
    DeviceId device;
    Duration span = 0; // the scope's length
    Duration compute = 0; // kernels other than communication
    Duration communication = 0; // NCCL and other collective kernels
    Duration memory = 0; // copies and memsets
    Duration idle = 0;
    // Idle time by what the launching threads were doing meanwhile.
    Duration idleCpuLate = 0; // outside CUDA calls: nothing was queued because the CPU was late
    Duration idleSynchronizing = 0; // inside synchronization calls
    Duration idleLaunching = 0; // inside launch and other CUDA calls (launch latency)
};

// Per kernel name: what launching it cost the CPU and how long it waited to start.
struct KernelLaunchStats
{
    StringId name; // short name
    size_t count = 0;
    Duration kernelTime = 0; // sum of the kernels' durations
    Duration launchCost = 0; // sum of the launching calls' durations
    Duration launchLatency = 0; // sum of (kernel start - launching call start)
    size_t shorterThanLaunch = 0; // kernels that ran shorter than their launch call took
};

// Theoretical occupancy of a kernel name's launches (occupancy.h computes it).
struct KernelOccupancy
{
    StringId name;
    DeviceId device;
    double theoretical = 0; // 0..1 of the device's warps per SM
    std::string limiter; // "registers", "shared memory", "block size", "blocks per SM" or "warps"
    size_t launches = 0;
    // What GPU metrics measured while the name's kernels ran (all devices), when recorded: %.
    std::optional<double> smsActive, warpOccupancy, tensorActive;
};

struct AnalysisOptions
{
    std::optional<TimeRange> range;
    std::vector<std::string> rules; // empty: all
    Duration gapThreshold = 500'000'000; // gpu_gaps: idle gaps at least this long (ns)
    double utilizationThreshold = 50; // gpu_time_util: chunks below this % are reported
    int utilizationChunks = 30; // gpu_time_util: the scope is cut into this many chunks
    Duration syncThreshold = 0; // cuda_api_sync: calls at least this long (ns); 0: all, as nsys
    Duration cpuGapThreshold = 1'000'000; // cpu_bound_ranges: GPU idle gaps at least this long (ns)
    double occupancyThreshold = 50; // low_occupancy: theoretical occupancy below this %
    size_t evidenceLimit = 1000; // at most this many pieces of evidence per finding
};

struct AnalysisResult
{
    std::vector<Finding> findings; // by severity (errors first), then rule order
    std::vector<Verdict> verdicts; // the whole scope first, then top-level NVTX range names
    std::vector<GpuTimeBreakdown> gpus;
    std::vector<KernelLaunchStats> launches; // by kernel time, largest first
    std::vector<KernelOccupancy> occupancy; // by launches, most first
    bool cancelled = false;
};

AnalysisResult analyze(
    const Trace& trace, const AnalysisOptions& options, const std::atomic<bool>* cancel = nullptr);

// Whether any rule or fact reads tracks of `kind` (none reads OS runtime calls), so a reader
// may leave the others out. Counters and the CPU profile are read.
constexpr bool analysisReads(TrackKind kind)
{
    return kind != TrackKind::OsRuntime;
}

} // namespace sightline
