// Where a GPU's time went over a range, and what its launching thread did while it was idle:
// each idle gap is split by the thread's outermost CUDA calls overlapping it (synchronization
// calls; launch, copy and other calls), the rest of the gap counting as the CPU being late.
#include "model/analysis/rules.h"

#include <algorithm>

namespace sightline {

GpuTimeBreakdown gpuTimeBreakdown(const AnalysisContext& context, const GpuActivity& gpu, TimeRange range)
{
    GpuTimeBreakdown b;
    b.device = gpu.device;
    const TimeRange window {std::max(range.start, gpu.active.start), std::min(range.end, gpu.active.end)};
    if (window.empty()) return b;
    b.span = window.duration();
    b.compute = coveredTime(gpu.compute, window);
    const Duration kernels = coveredTime(gpu.kernels, window);
    b.communication = kernels - b.compute;
    const Duration busy = coveredTime(gpu.busy, window);
    b.memory = busy - kernels;
    b.idle = b.span - busy;
    for (const Interval& gap : gapsWithin(gpu.busy, window)) {
        Duration byClass[4] = {0, 0, 0, 0};
        if (gpu.hasLaunchingThread) context.hostTime(gpu.launchingApiTrack, {gap.start, gap.end}, byClass);
        const Duration synchronizing = byClass[size_t(CallRole::Synchronization)];
        const Duration launching = byClass[size_t(CallRole::Launch)] + byClass[size_t(CallRole::Memory)]
            + byClass[size_t(CallRole::Other)];
        b.idleSynchronizing += synchronizing;
        b.idleLaunching += launching;
        b.idleCpuLate += gap.duration() - synchronizing - launching;
    }
    return b;
}

} // namespace sightline
