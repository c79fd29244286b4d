// Launch statistics per kernel name (what launching cost the CPU, how long a kernel waited to
// start after its launch call began) and the rule that finds kernels shorter than their
// launch: where those dominate, the GPU finishes each kernel before the CPU can queue the
// next. The launch queue's depth (kernels launched and not yet finished) goes in the sentence.
#include "model/analysis/finding_text.h"
#include "model/analysis/rules/rules.h"
#include "model/text/time_text.h"

#include <algorithm>

namespace sightline {

namespace {

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

// Sorts values that come in long ascending runs (kernel ends per stream, launch calls per
// thread) by merging the runs: O(n log runs) where a full sort would be O(n log n).
void sortRuns(std::vector<Timestamp>& values)
{
    std::vector<size_t> starts {0};
    for (size_t i = 1; i < values.size(); ++i)
        if (values[i] < values[i - 1]) starts.push_back(i);
    if (starts.size() > values.size() / 16 + 1) {
        std::sort(values.begin(), values.end());
        return;
    }
    mergeSortedRuns(values, std::move(starts), std::less<Timestamp>());
}

QueueDepth queueDepth(const std::vector<LaunchedKernel>& kernels)
{
    // Launch calls' starts enqueue, kernels' ends dequeue: two sorted lists walked together.
    std::vector<Timestamp> enqueued, dequeued;
    enqueued.reserve(kernels.size());
    dequeued.reserve(kernels.size());
    for (const LaunchedKernel& k : kernels) {
        enqueued.push_back(k.callRange.start);
        dequeued.push_back(std::max(k.kernelRange.end, k.callRange.start));
    }
    sortRuns(enqueued);
    sortRuns(dequeued);
    QueueDepth depth;
    if (enqueued.empty()) return depth;
    size_t in = 0, out = 0;
    double weighted = 0;
    Timestamp previous = enqueued.front();
    while (out < dequeued.size()) {
        const bool enqueue = in < enqueued.size() && enqueued[in] < dequeued[out];
        const Timestamp now = enqueue ? enqueued[in] : dequeued[out];
        weighted += double(in - out) * double(now - previous);
        previous = now;
        enqueue ? ++in : ++out;
        depth.maximum = std::max(depth.maximum, in - out);
    }
    const Duration span = dequeued.back() - enqueued.front();
    depth.mean = span > 0 ? weighted / double(span) : 0;
    return depth;
}

} // namespace

std::vector<KernelLaunchStats> launchStatistics(const AnalysisContext& context)
{
    // One row per short name, found through a slot per string id.
    std::vector<uint32_t> rowOfName(context.trace.strings.size(), UINT32_MAX);
    std::vector<KernelLaunchStats> out;
    for (const LaunchedKernel& k : context.launchedKernels()) {
        uint32_t& row = rowOfName[k.shortName.value];
        if (row == UINT32_MAX) {
            row = uint32_t(out.size());
            out.push_back({k.shortName, 0, 0, 0, 0, 0});
        }
        KernelLaunchStats& s = out[row];
        ++s.count;
        s.kernelTime += k.kernelRange.duration();
        s.launchCost += k.callRange.duration();
        s.launchLatency += std::max<Duration>(0, k.kernelRange.start - k.callRange.start);
        s.shorterThanLaunch += k.kernelRange.duration() < k.callRange.duration() ? 1 : 0;
    }
    std::sort(out.begin(), out.end(), [&](const KernelLaunchStats& a, const KernelLaunchStats& b) {
        return a.kernelTime != b.kernelTime ? a.kernelTime > b.kernelTime
                                            : context.text(a.name) < context.text(b.name);
    });
    return out;
}

void ruleLaunchBoundKernels(
    const AnalysisContext& context, const AnalysisResult& /*facts*/, std::vector<Finding>& findings)
{
    const std::vector<LaunchedKernel>& kernels = context.launchedKernels();
    std::vector<EvidenceCandidate> evidence;
    std::vector<Duration> kernelLengths, launchLengths;
    for (const LaunchedKernel& k : kernels) {
        if (k.kernelRange.duration() >= k.callRange.duration()) continue;
        kernelLengths.push_back(k.kernelRange.duration());
        launchLengths.push_back(k.callRange.duration());
        evidence.push_back({k.kernelRange, k.kernel, true});
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
    setEvidence(finding, std::move(evidence), context.options.evidenceLimit, [&](const EvidenceCandidate& e) {
        const Track& track = context.trace.track(e.event.track);
        const std::optional<EventRef> call = context.launchingCall(e.event);
        const Duration launch = call ? context.trace.track(call->track).duration(call->index) : 0;
        return sentence("%s ran %s, its launch took %s",
            std::string(
                context.text(context.trace.kernelLaunches[track.events.detail[e.event.index]].shortName))
                .c_str(),
            formatDuration(e.range.duration()).c_str(), formatDuration(launch).c_str());
    });
    findings.push_back(std::move(finding));
}

} // namespace sightline
