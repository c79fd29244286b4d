#include "model/analysis/rule_catalog.h"

#include "model/analysis/rules/rules.h"

#include <array>

namespace sightline {

namespace {

const std::array kRules = {
    RuleInfo {"cuda_memcpy_async", "Asynchronous copies from pageable memory",
        "Copies launched by an ...Async call whose host side is pageable memory: they are staged through a "
        "driver "
        "buffer, block the calling thread and overlap with nothing.",
        true, ruleCudaMemcpyAsync},
    RuleInfo {"cuda_memcpy_sync", "Synchronous copies",
        "Copies launched by a synchronous call (cudaMemcpy, cuMemcpyHtoD, ...), which blocks the calling "
        "thread until "
        "the copy is done.",
        true, ruleCudaMemcpySync},
    RuleInfo {"cuda_memset_sync", "Synchronous memsets",
        "Memsets launched by a synchronous call (cudaMemset, ...).", true, ruleCudaMemsetSync},
    RuleInfo {"cuda_api_sync", "Synchronization calls",
        "CUDA calls that block the CPU until GPU work is done (cudaDeviceSynchronize, cudaStreamSynchronize, "
        "cudaEventSynchronize and their driver forms), at least --sync-threshold long.",
        true, ruleCudaApiSync},
    RuleInfo {"gpu_gaps", "GPU idle gaps",
        "Times a GPU had nothing running for at least --gap-threshold (default 500 ms), between its first "
        "and its "
        "last operation.",
        true, ruleGpuGaps},
    RuleInfo {"gpu_time_util", "GPU utilization below a threshold",
        "Each GPU's active time cut into --chunks equal chunks (default 30); the chunks where it was busy "
        "less than "
        "--util-threshold percent (default 50).",
        true, ruleGpuTimeUtil},
    RuleInfo {"pageable_copies", "Copies from or to pageable memory",
        "Every copy whose host side is pageable memory, synchronous or asynchronous, with its throughput "
        "against the "
        "report's pinned copies.",
        false, rulePageableCopies},
    RuleInfo {"gpu_idle_breakdown", "Why the GPU was idle",
        "The busiest GPU's idle time split by what its launching thread did meanwhile: running outside CUDA "
        "calls "
        "(nothing queued), waiting in synchronization calls, or in launch and other CUDA calls.",
        false, ruleGpuIdleBreakdown},
    RuleInfo {"launch_bound_kernels", "Kernels shorter than their launch",
        "Kernels that ran shorter than the CUDA call that launched them took on the CPU, with the launch "
        "queue's "
        "depth: the GPU finishes them faster than the CPU can queue more.",
        false, ruleLaunchBoundKernels},
    RuleInfo {"cpu_bound_ranges", "The GPU waits for the CPU",
        "Idle gaps of the busiest GPU, at least --cpu-gap-threshold long (default 1 ms), during which its "
        "launching "
        "thread ran outside CUDA calls and on a CPU, with the functions its samples were in (needs CPU "
        "samples or "
        "thread states).",
        false, ruleCpuBoundRanges},
    RuleInfo {"low_occupancy", "Low theoretical occupancy",
        "Kernel names whose launch configuration (registers per thread, shared memory, block size) keeps "
        "fewer than "
        "--occupancy-threshold percent (default 50) of the device's warps resident.",
        false, ruleLowOccupancy},
};

} // namespace

std::span<const RuleInfo> analysisRules()
{
    return kRules;
}

const RuleInfo* findAnalysisRule(std::string_view name)
{
    for (const RuleInfo& rule : kRules)
        if (rule.name == name) return &rule;
    return nullptr;
}

} // namespace sightline
