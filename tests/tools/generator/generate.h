// The deterministic synthetic report generator: a realistic trace of a PyTorch data-parallel
// training job (several processes and threads, CUDA API calls correlated to kernels and memory
// operations on several streams of several GPUs, nested NVTX ranges, OS runtime calls) of any
// size. Invariants: the same options give a bit-identical trace on any machine, and the trace
// holds exactly `events` events. Used by the benchmarks, the GUI tests and the sample report.
#pragma once

#include "model/trace/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sightline::gen {

// Bumped whenever the generated trace for given options changes (benchmark caches use it).
constexpr uint32_t kGeneratorVersion = 2;

struct GeneratorOptions
{
    uint64_t events = 100000; // exact number of events in the trace
    uint64_t seed = 1;
    uint32_t processes = 2; // training ranks
    uint32_t threadsPerProcess = 3; // main, autograd, data loader, then helper threads
    uint32_t gpus = 2;
    uint32_t streamsPerGpu = 4; // default (compute), NCCL, copy, side streams
    uint32_t layers = 0; // transformer layers per iteration; 0 picks from `events`
    uint32_t gpuMetricsHz = 0; // GPU metric samples per second, following the kernels; 0: none
    uint32_t cpuSamplesHz = 0; // CPU samples per second of each host thread; 0: none
    unsigned buildThreads = 0; // for TraceBuilder::build; 0 uses every core
};

// An empty string when the options are usable, else one sentence saying what to change.
std::string checkOptions(const GeneratorOptions& options);

// An event count as people type it: "250000", "250k", "10M", "1G"; no value otherwise.
std::optional<uint64_t> parseEventCount(std::string_view text);

// Generates the trace, indexes built. Options must pass checkOptions().
Trace generateTrace(const GeneratorOptions& options);

// Adds GPU metrics sampled at `hz` to every GPU of the trace, read off its kernels: SMs Active
// follows the share of each sample the GPU computed, the other series follow from it. Indexes
// are rebuilt.
void addGeneratedGpuMetrics(Trace& trace, uint32_t hz);

// Replaces the trace's CPU profile with samples at `hz` over each host thread's life (the span
// of its events), with thread states: 17 sampling periods of every 20 Running and sampled, then
// 3 Sleeping or Blocked in turn, with the stack the thread waits in. Samples take three call
// paths in a fixed pattern, so every ten samples hold exactly six of
// main > train_step > forward > matmul_kernel_launch, three of main > load_batch > decode_jpeg
// and one of main > train_step > backward > __memcpy_avx_unaligned_erms. Adds the derived CPU
// utilization series (after every stored series, so call it after addGeneratedGpuMetrics) and
// rebuilds the indexes. The same seed gives the same samples.
void addGeneratedCpuSamples(Trace& trace, uint32_t hz, uint64_t seed);

} // namespace sightline::gen
