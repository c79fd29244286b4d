// Focused synthetic traces for the diagnosis tests (`sightline-gen --scenario NAME --plant LIST`):
// one process with one launching thread driving one stream of one sm_90 GPU, a few thousand
// events with fixed, round timings (no randomness), so that every figure can be worked out by
// hand. Each iteration is a "step" NVTX range: kernels, then a pinned HtoD copy of the next
// batch (so that the clean scenario's GPU starts with a kernel longer than the host's pace).
//
// Scenarios (the verdict each one gets, see model/analysis/verdict.cpp):
//   clean          the reference: pinned async copies and 100 us kernels that the CPU queues
//                  faster than the GPU runs them, so the GPU never idles after its first
//                  operation and there is no synchronization call at all. No rule fires;
//                  verdict "GPU compute bound" (kernels ~95% of the GPU's active time).
//   compute-bound  1 ms kernels and a cudaStreamSynchronize closing each iteration: GPU busy
//                  >99%, kernels ~99% (cuda_api_sync reports the synchronization calls).
//   launch-bound   2 us kernels behind 5 us launch calls: kernels ~33%, launch calls ~83%.
//   sync-bound     a 10 us kernel then cudaDeviceSynchronize each iteration: sync calls ~63%.
//   cpu-bound      200 us of host work outside CUDA calls after every call: outside ~97%.
//   memory-bound   16 MiB pinned copies beside two 100 us kernels: copies ~78% of GPU time.
//
// Plants add problems at known places of any scenario; each planted event (or time range) is
// listed in ScenarioTrace::planted, so tests can compare a rule's evidence with exactly them.
// Most plants appear at three iterations (1/6, 3/6 and 5/6 of the way, each plant shifted by its
// own offset so that plants never share an iteration):
//   pageable-async  a 4 MiB cudaMemcpyAsync HtoD from pageable memory (blocks its thread)
//   sync-memcpy     a 64 KiB cudaMemcpy DtoH into pageable memory
//   sync-memset     a 1 MiB cudaMemset
//   sync-api        cudaDeviceSynchronize, cudaStreamSynchronize, cudaDeviceSynchronize (the calls)
//   short-kernels   four 2 us "planted_short_kernel" launches (launch calls take 5 us)
//   low-occupancy   one "planted_low_occupancy_kernel" launch, 255 registers per thread and
//                   256-thread blocks (12.5% theoretical occupancy on sm_90, limited by
//                   registers), 100, 300 and 200 us long: the second is the longest
//   gpu-gap         once (3/6): the host stalls until the GPU has sat idle exactly 600 ms
//   low-util        once (5/6): the host lets the GPU drain, then for 50 ms launches a 20 us
//                   kernel every 200 us (10% busy); the planted range runs from the first
//                   such kernel's start to the next operation's start
// Blocking calls (pageable copies, cudaMemcpy, cudaMemset, synchronization) wait for the work
// queued before them, so in the clean scenario the GPU idles briefly (about 0.1 ms) after each.
#pragma once

#include "model/trace/trace.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::gen {

enum class Scenario : uint8_t { Clean, ComputeBound, LaunchBound, SyncBound, CpuBound, MemoryBound, Count };
enum class Plant : uint8_t {
    PageableAsync,
    SyncMemcpy,
    SyncMemset,
    SyncApi,
    ShortKernels,
    LowOccupancy,
    GpuGap,
    LowUtil,
    Count
};

std::string_view scenarioName(Scenario scenario); // "compute-bound"
std::string_view plantName(Plant plant); // "pageable-async"
std::optional<Scenario> parseScenario(std::string_view name);
// "sync-api,gpu-gap" -> the plants (each once, in the order given); on an unknown or empty
// name, nothing and `error` says which names exist.
std::optional<std::vector<Plant>> parsePlants(std::string_view list, std::string& error);
// "clean, compute-bound, ..." and "pageable-async, sync-memcpy, ...", for usage texts.
std::string scenarioNames();
std::string plantNames();

// The names planted kernels carry (demangled, short and mangled alike).
inline constexpr std::string_view kPlantedShortKernel = "planted_short_kernel";
inline constexpr std::string_view kPlantedLowOccupancyKernel = "planted_low_occupancy_kernel";

// One planted event, told by its track's kind and its span (one thread and one stream make that
// unique), or a planted time range (gpu-gap, low-util) with no kind.
struct PlantedEvent
{
    Plant plant = Plant::Count;
    std::optional<TrackKind> kind;
    TimeRange range;
};

struct ScenarioTrace
{
    Trace trace; // indexes built
    std::vector<PlantedEvent> planted; // in time order per plant
};

ScenarioTrace generateScenario(Scenario scenario, std::span<const Plant> plants);

} // namespace sightline::gen
