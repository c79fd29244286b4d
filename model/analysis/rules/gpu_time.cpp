// Where a GPU's time went over a range, and what its launching thread did while it was idle:
// each idle gap is split by the thread's outermost CUDA calls overlapping it (synchronization
// calls; launch, copy and other calls), the rest of the gap counting as the CPU being late.
#include "model/analysis/rules/rules.h"

#include <algorithm>

namespace sightline {

GpuTimeBreakdown gpuTimeBreakdown(const AnalysisContext& context, const GpuActivity& gpu, TimeRange range)
{
    GpuTimeBreakdown b;
    b.device = gpu.device;
    const TimeRange window {std::max(range.start, gpu.active.start), std::min(range.end, gpu.active.end)};
    if (window.empty()) return b;
    b.span = window.duration();
    b.compute = gpu.compute.covered(window);
    const Duration kernels = gpu.kernels.covered(window);
    b.communication = kernels - b.compute;
    const Duration busy = gpu.busy.covered(window);
    b.memory = busy - kernels;
    b.idle = b.span - busy;
    const Intervals gaps = gapsWithin(gpu.busy.intervals(), window);
    Duration byRole[kCallRoleCount] = {0, 0, 0, 0};
    if (gpu.hasLaunchingThread) context.hostTime(gpu.launchingApiTrack, gaps, byRole);
    b.idleSynchronizing = byRole[size_t(CallRole::Synchronization)];
    b.idleLaunching = byRole[size_t(CallRole::Launch)] + byRole[size_t(CallRole::Memory)]
        + byRole[size_t(CallRole::Other)];
    b.idleCpuLate = b.idle - b.idleSynchronizing - b.idleLaunching;
    return b;
}

} // namespace sightline
