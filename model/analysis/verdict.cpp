// The verdict: which limit dominates a span of time, from the busiest GPU's time breakdown and
// what its launching thread did, in this order:
//   no operation on a GPU                                   -> no GPU work
//   copies busy >= 30% of the span and >= kernels busy      -> memory-transfer bound
//   kernels busy >= 80% of the span                         -> GPU compute bound
//   otherwise the launching thread's largest share of the span, if >= 50%:
//     synchronization calls -> synchronization bound; launch and other CUDA calls -> launch
//     bound; copy calls (cudaMemcpy waits for the copy) -> memory-transfer bound; outside CUDA
//     calls -> CPU bound
//   else                                                    -> balanced
// The span is the GPU's active window within the scope (or within each instance of an NVTX
// range, the instances' figures summed), so start-up before the first GPU operation does not
// count as idle time.
#include "model/analysis/finding_text.h"
#include "model/analysis/rules.h"
#include "model/text/time_text.h"

#include <algorithm>
#include <map>

namespace sightline {

namespace {

constexpr double kMemoryShare = 30;
constexpr double kComputeShare = 80;
constexpr double kHostShare = 50;
constexpr size_t kRangeNames = 20;

struct LimitInputs
{
    Duration span = 0;
    Duration kernels = 0;
    Duration memory = 0; // copies and memsets not overlapped by kernels
    Duration host[4] = {0, 0, 0, 0}; // by CallRole
};

void addInputs(const AnalysisContext& context, const GpuActivity& gpu, TimeRange range, LimitInputs& in)
{
    const TimeRange window {std::max(range.start, gpu.active.start), std::min(range.end, gpu.active.end)};
    if (window.empty()) return;
    in.span += window.duration();
    const Duration kernels = coveredTime(gpu.kernels, window);
    in.kernels += kernels;
    in.memory += coveredTime(gpu.busy, window) - kernels;
    if (gpu.hasLaunchingThread) context.hostTime(gpu.launchingApiTrack, window, in.host);
}

Verdict decide(const AnalysisContext& context, const GpuActivity* gpu, const LimitInputs& in)
{
    Verdict v;
    if (!gpu || in.span == 0) {
        v.limit = Limit::NoGpuWork;
        v.reason = "No kernel, copy or memset ran on a GPU here.";
        return v;
    }
    const std::string name = gpuLabel(context.trace, gpu->device);
    const double kernels = percentOf(in.kernels, in.span), memory = percentOf(in.memory, in.span);
    const double sync = percentOf(in.host[size_t(CallRole::Synchronization)], in.span);
    const double launch
        = percentOf(in.host[size_t(CallRole::Launch)] + in.host[size_t(CallRole::Other)], in.span);
    const double copyCalls = percentOf(in.host[size_t(CallRole::Memory)], in.span);
    const double outside = std::max(0.0, 100.0 - sync - launch - copyCalls);
    const std::string gpuPart = sentence("%s ran kernels %.1f%% and copies %.1f%% of %s", name.c_str(),
        kernels, memory, formatDuration(in.span).c_str());
    const std::string hostPart
        = sentence("its launching thread spent %.1f%% in synchronization calls, %.1f%% in launch "
                   "and other CUDA calls, %.1f%% in copy calls and %.1f%% outside CUDA calls",
            sync, launch, copyCalls, outside);
    v.reason = gpuPart + "; " + hostPart + ".";
    if (memory >= kMemoryShare && in.memory >= in.kernels) {
        v.limit = Limit::MemoryTransfer;
    } else if (kernels >= kComputeShare) {
        v.limit = Limit::GpuCompute;
    } else {
        const double largest = std::max({sync, launch, copyCalls, outside});
        if (largest < kHostShare)
            v.limit = Limit::Balanced;
        else if (largest == sync)
            v.limit = Limit::Synchronization;
        else if (largest == launch)
            v.limit = Limit::LaunchBound;
        else if (largest == copyCalls)
            v.limit = Limit::MemoryTransfer;
        else
            v.limit = Limit::CpuBound;
    }
    return v;
}

} // namespace

std::vector<Verdict> verdicts(const AnalysisContext& context)
{
    const GpuActivity* gpu = context.gpus().empty() ? nullptr : &context.gpus().front();
    std::vector<Verdict> out;
    LimitInputs whole;
    if (gpu) addInputs(context, *gpu, context.scope, whole);
    Verdict scope = decide(context, gpu, whole);
    scope.scope = context.options.range ? "the range analyzed" : "whole report";
    scope.range = context.scope;
    out.push_back(std::move(scope));
    if (!gpu) return out;

    // Top-level NVTX ranges (depth 0 of push/pop rows), grouped by name.
    struct Group
    {
        LimitInputs inputs;
        TimeRange range {INT64_MAX, INT64_MIN};
        size_t instances = 0;
        Duration length = 0;
    };
    std::map<uint32_t, Group> groups;
    const Trace& trace = context.trace;
    for (TrackId id : context.tracksOf(TrackKind::Nvtx)) {
        const Track& track = trace.track(id);
        if (!track.nested || track.laneCount() == 0) continue;
        const IndexRange ranges = trace.eventsStartingIn(id, 0, context.scope);
        for (uint32_t i = ranges.begin; i < ranges.end; ++i) {
            if (track.events.end[i] <= track.events.start[i]) continue;
            Group& g = groups[track.events.name[i].value];
            addInputs(context, *gpu, {track.events.start[i], track.events.end[i]}, g.inputs);
            g.range = {
                std::min(g.range.start, track.events.start[i]), std::max(g.range.end, track.events.end[i])};
            ++g.instances;
            g.length += track.duration(i);
        }
        if (context.cancelled()) return out;
    }
    std::vector<std::pair<uint32_t, const Group*>> byLength;
    for (const auto& [name, group] : groups)
        byLength.push_back({name, &group});
    std::sort(byLength.begin(), byLength.end(), [](const auto& a, const auto& b) {
        return a.second->length != b.second->length ? a.second->length > b.second->length : a.first < b.first;
    });
    if (byLength.size() > kRangeNames) byLength.resize(kRangeNames);
    for (const auto& [name, group] : byLength) {
        Verdict v = decide(context, gpu, group->inputs);
        v.scope = std::string(context.text(StringId(name)));
        v.range = group->range;
        v.instances = group->instances;
        out.push_back(std::move(v));
    }
    return out;
}

} // namespace sightline
