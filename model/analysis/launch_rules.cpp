// Launch statistics per kernel name (what launching cost the CPU, how long a kernel waited to
// start after its launch call began) and the rule that finds kernels shorter than their
// launch: where those dominate, the GPU finishes each kernel before the CPU can queue the
// next. The launch queue's depth (kernels launched and not yet finished) goes in the sentence.
#include "model/analysis/finding_text.h"
#include "model/analysis/rules.h"
#include "model/text/time_text.h"

#include <algorithm>
#include <unordered_map>

namespace sightline {

namespace {

struct LaunchedKernel
{
    EventRef kernel;
    TimeRange kernelRange;
    TimeRange callRange;
    StringId shortName;
};

// Every kernel starting in the scope whose launching call the report has.
std::vector<LaunchedKernel> launchedKernels(const AnalysisContext& context)
{
    const Trace& trace = context.trace;
    std::vector<LaunchedKernel> out;
    for (TrackId id : context.tracksOf(TrackKind::Kernels)) {
        const Track& track = trace.track(id);
        for (uint32_t i = 0; i < track.size(); ++i) {
            if (!context.inScope(track.events.start[i])) continue;
            const std::optional<EventRef> call = context.launchingCall({id, i});
            if (!call) continue;
            const Track& api = trace.track(call->track);
            out.push_back({{id, i}, {track.events.start[i], track.events.end[i]},
                {api.events.start[call->index], api.events.end[call->index]},
                trace.kernelLaunches[track.events.detail[i]].shortName});
        }
        if (context.cancelled()) break;
    }
    return out;
}

Duration median(std::vector<Duration> values)
{
    if (values.empty()) return 0;
    const auto middle = values.begin() + std::ptrdiff_t(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
}

struct QueueDepth
{
    size_t maximum = 0;
    double mean = 0; // time-weighted, from the first launch to the last kernel's end
};

QueueDepth queueDepth(const std::vector<LaunchedKernel>& kernels)
{
    std::vector<std::pair<Timestamp, int>> steps;
    steps.reserve(kernels.size() * 2);
    for (const LaunchedKernel& k : kernels) {
        steps.push_back({k.callRange.start, +1});
        steps.push_back({std::max(k.kernelRange.end, k.callRange.start), -1});
    }
    std::sort(steps.begin(), steps.end());
    QueueDepth depth;
    if (steps.empty()) return depth;
    int64_t current = 0;
    double weighted = 0;
    for (size_t s = 0; s < steps.size(); ++s) {
        if (s > 0) weighted += double(current) * double(steps[s].first - steps[s - 1].first);
        current += steps[s].second;
        depth.maximum = std::max(depth.maximum, size_t(std::max<int64_t>(current, 0)));
    }
    const Duration span = steps.back().first - steps.front().first;
    depth.mean = span > 0 ? weighted / double(span) : 0;
    return depth;
}

} // namespace

std::vector<KernelLaunchStats> launchStatistics(const AnalysisContext& context)
{
    std::unordered_map<uint32_t, KernelLaunchStats> byName;
    for (const LaunchedKernel& k : launchedKernels(context)) {
        KernelLaunchStats& s = byName[k.shortName.value];
        s.name = k.shortName;
        ++s.count;
        s.kernelTime += k.kernelRange.duration();
        s.launchCost += k.callRange.duration();
        s.launchLatency += std::max<Duration>(0, k.kernelRange.start - k.callRange.start);
        s.shorterThanLaunch += k.kernelRange.duration() < k.callRange.duration() ? 1 : 0;
    }
    std::vector<KernelLaunchStats> out;
    out.reserve(byName.size());
    for (auto& [name, stats] : byName)
        out.push_back(stats);
    std::sort(out.begin(), out.end(), [&](const KernelLaunchStats& a, const KernelLaunchStats& b) {
        return a.kernelTime != b.kernelTime ? a.kernelTime > b.kernelTime
                                            : context.text(a.name) < context.text(b.name);
    });
    return out;
}

void ruleLaunchBoundKernels(const AnalysisContext& context, AnalysisResult& result)
{
    const std::vector<LaunchedKernel> kernels = launchedKernels(context);
    std::vector<Evidence> evidence;
    std::vector<Duration> kernelLengths, launchLengths;
    for (const LaunchedKernel& k : kernels) {
        if (k.kernelRange.duration() >= k.callRange.duration()) continue;
        kernelLengths.push_back(k.kernelRange.duration());
        launchLengths.push_back(k.callRange.duration());
        evidence.push_back({k.kernel, k.kernelRange,
            sentence("%s ran %s, its launch took %s", std::string(context.text(k.shortName)).c_str(),
                formatDuration(k.kernelRange.duration()).c_str(),
                formatDuration(k.callRange.duration()).c_str())});
    }
    if (evidence.empty()) return;
    const double share = 100.0 * double(evidence.size()) / double(kernels.size());
    Finding finding {"launch_bound_kernels", share >= 50 ? Severity::Warning : Severity::Info, {}, {}, {}, 0};
    const QueueDepth depth = queueDepth(kernels);
    finding.summary
        = sentence("%zu of %zu kernels (%.1f%%) ran shorter than the CPU took to launch them (median kernel "
                   "%s, median launch %s); the launch queue held at most %zu %s, %.1f on average.",
            evidence.size(), kernels.size(), share, formatDuration(median(kernelLengths)).c_str(),
            formatDuration(median(launchLengths)).c_str(), depth.maximum,
            depth.maximum == 1 ? "kernel" : "kernels", depth.mean);
    finding.advice
        = "Give the GPU more work per launch: fuse small kernels, capture the loop in a CUDA graph "
          "(torch.compile with mode=\"reduce-overhead\"), or batch the inputs.";
    // The shortest kernels come first.
    finding.evidenceCount = evidence.size();
    std::sort(evidence.begin(), evidence.end(), [](const Evidence& a, const Evidence& b) {
        return a.range.duration() != b.range.duration() ? a.range.duration() < b.range.duration()
                                                        : a.range.start < b.range.start;
    });
    if (evidence.size() > context.options.evidenceLimit) evidence.resize(context.options.evidenceLimit);
    finding.evidence = std::move(evidence);
    result.findings.push_back(std::move(finding));
}

} // namespace sightline
