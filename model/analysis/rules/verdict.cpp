// The verdict: which limit dominates a span of time, from the busiest GPU's time breakdown and
// what its launching thread did, in this order:
//   no operation on a GPU                                   -> no GPU work
//   copies busy >= 30% of the span and >= kernels busy      -> memory-transfer bound
//   kernels and copies busy >= 80% of the span              -> GPU compute bound (the GPU
//                                                              never waits long, whatever the
//                                                              CPU does meanwhile)
//   otherwise the GPU waits; the launching thread's largest share of the span, if >= 50%:
//     synchronization calls -> synchronization bound; launch and other CUDA calls -> CUDA API /
//     launch bound; copy calls (cudaMemcpy waits for the copy) -> memory-transfer bound;
//     outside CUDA calls -> CPU bound
//   else                                                    -> balanced
// The span is the GPU's active window within the scope (or within each instance of an NVTX
// range, the instances' figures summed), so start-up before the first GPU operation does not
// count as idle time.
#include "model/analysis/finding_text.h"
#include "model/analysis/rules/rules.h"
#include "model/common/parallel_for.h"
#include "model/text/time_text.h"

#include <algorithm>
#include <map>

namespace sightline {

namespace {

constexpr double kMemoryShare = 30;
constexpr double kBusyShare = 80;
constexpr double kHostShare = 50;
constexpr size_t kRangeNames = 20;

struct LimitInputs
{
    Duration span = 0;
    Duration kernels = 0;
    Duration memory = 0; // copies and memsets not overlapped by kernels
    Duration host[kCallRoleCount] = {0, 0, 0, 0}; // by CallRole
};

// Adds the figures of the GPU's active window within each range (sorted by start).
void addInputs(const AnalysisContext& context, const GpuActivity& gpu,
    const std::vector<TimeRange>& rangesByStart, LimitInputs& in)
{
    std::vector<TimeRange> windows;
    windows.reserve(rangesByStart.size());
    Intervals asIntervals;
    for (const TimeRange& range : rangesByStart) {
        const TimeRange window {std::max(range.start, gpu.active.start), std::min(range.end, gpu.active.end)};
        if (window.empty()) continue;
        windows.push_back(window);
        asIntervals.push_back({window.start, window.end});
        in.span += window.duration();
    }
    const Duration kernels = gpu.kernels.covered(windows);
    in.kernels += kernels;
    in.memory += gpu.busy.covered(windows) - kernels;
    if (gpu.hasLaunchingThread) context.hostTime(gpu.launchingApiTrack, asIntervals, in.host);
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
    } else if (kernels + memory >= kBusyShare) {
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
    if (gpu) addInputs(context, *gpu, {context.scope}, whole);
    Verdict scope = decide(context, gpu, whole);
    scope.scope = context.options.range ? "the range analyzed" : "whole report";
    scope.range = context.scope;
    out.push_back(std::move(scope));
    if (!gpu) return out;

    // Top-level NVTX ranges (depth 0 of push/pop rows), grouped by name; the longest names
    // (by their instances' summed length) get a verdict.
    struct Group
    {
        std::vector<TimeRange> instances;
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
            g.instances.push_back({track.events.start[i], track.events.end[i]});
            g.length += track.duration(i);
        }
    }
    std::vector<std::pair<uint32_t, const Group*>> byLength;
    for (const auto& [name, group] : groups)
        byLength.push_back({name, &group});
    std::sort(byLength.begin(), byLength.end(), [](const auto& a, const auto& b) {
        return a.second->length != b.second->length ? a.second->length > b.second->length : a.first < b.first;
    });
    if (byLength.size() > kRangeNames) byLength.resize(kRangeNames);
    // Each name's verdict is independent of the others': on every core.
    std::vector<Verdict> named(byLength.size());
    parallelFor(byLength.size(), [&](size_t n) {
        if (context.cancelled()) return;
        std::vector<TimeRange> instances = byLength[n].second->instances;
        std::sort(instances.begin(), instances.end(),
            [](const TimeRange& a, const TimeRange& b) { return a.start < b.start; });
        LimitInputs inputs;
        addInputs(context, *gpu, instances, inputs);
        Verdict& v = named[n];
        v = decide(context, gpu, inputs);
        v.scope = std::string(context.text(StringId(byLength[n].first)));
        v.range = {instances.front().start, instances.front().end};
        for (const TimeRange& instance : instances)
            v.range.end = std::max(v.range.end, instance.end);
        v.instances = instances.size();
    });
    for (Verdict& v : named)
        out.push_back(std::move(v));
    return out;
}

} // namespace sightline
