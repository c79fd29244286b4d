// Nsight Systems' GPU idle rules (gpu_gaps: idle gaps above a threshold; gpu_time_util: time
// chunks below a utilization threshold), both within each GPU's active window (its first
// operation to its last, inside the scope), and Sightline's idle breakdown: why each GPU was
// idle, told by what its launching thread was doing.
#include "model/analysis/finding_text.h"
#include "model/analysis/rules/rules.h"
#include "model/text/time_text.h"

#include <algorithm>

namespace sightline {

namespace {

TimeRange activeWindow(const AnalysisContext& context, const GpuActivity& gpu)
{
    return {std::max(context.scope.start, gpu.active.start), std::min(context.scope.end, gpu.active.end)};
}

} // namespace

void ruleGpuGaps(
    const AnalysisContext& context, const AnalysisResult& /*facts*/, std::vector<Finding>& findings)
{
    std::vector<Evidence> evidence;
    Duration total = 0;
    for (const GpuActivity& gpu : context.gpus()) {
        const std::string name = gpuLabel(context.trace, gpu.device);
        for (const Interval& gap : gapsWithin(gpu.busy.intervals(), activeWindow(context, gpu))) {
            if (gap.duration() < context.options.gapThreshold) continue;
            total += gap.duration();
            evidence.push_back({std::nullopt, {gap.start, gap.end},
                sentence("%s idle for %s", name.c_str(), formatDuration(gap.duration()).c_str())});
        }
    }
    if (evidence.empty()) return;
    Finding finding {"gpu_gaps", Severity::Warning, {}, {}, {}, 0};
    const size_t count = evidence.size();
    setEvidence(finding, std::move(evidence), context.options.evidenceLimit);
    finding.summary
        = sentence("%s a GPU sat idle for %s or more between operations, %s in all; the longest: %s.",
            counted(count, "time", "times").c_str(), formatDuration(context.options.gapThreshold).c_str(),
            formatDuration(total).c_str(), finding.evidence.front().label.c_str());
    finding.advice
        = "See what the CPU threads do in these gaps (select one: the timeline zooms to it); queue the next "
          "GPU work before the host work that delays it, or overlap them on another thread.";
    findings.push_back(std::move(finding));
}

void ruleGpuTimeUtil(
    const AnalysisContext& context, const AnalysisResult& /*facts*/, std::vector<Finding>& findings)
{
    std::vector<Evidence> evidence;
    size_t chunksSeen = 0;
    double lowest = 100;
    const int chunks = std::max(1, context.options.utilizationChunks);
    for (const GpuActivity& gpu : context.gpus()) {
        const TimeRange window = activeWindow(context, gpu);
        if (window.duration() < chunks) continue;
        const std::string name = gpuLabel(context.trace, gpu.device);
        for (int c = 0; c < chunks; ++c) {
            const TimeRange chunk {window.start + window.duration() * c / chunks,
                window.start + window.duration() * (c + 1) / chunks};
            ++chunksSeen;
            const double utilization = percentOf(gpu.busy.covered(chunk), chunk.duration());
            if (utilization >= context.options.utilizationThreshold) continue;
            lowest = std::min(lowest, utilization);
            evidence.push_back({std::nullopt, chunk, sentence("%s %.1f%% busy", name.c_str(), utilization)});
        }
    }
    if (evidence.empty()) return;
    Finding finding {"gpu_time_util", Severity::Warning, {}, {}, {}, 0};
    const size_t count = evidence.size();
    setEvidence(finding, std::move(evidence), context.options.evidenceLimit);
    // Chunks are equally long: list them in time order rather than by length.
    std::sort(finding.evidence.begin(), finding.evidence.end(),
        [](const Evidence& a, const Evidence& b) { return a.range.start < b.range.start; });
    finding.summary = sentence("%zu of %zu time chunks had GPU utilization below %.0f%% (the lowest %.1f%%).",
        count, chunksSeen, context.options.utilizationThreshold, lowest);
    finding.advice
        = "Open these chunks to see what kept the GPU waiting (the idle breakdown and the verdict say which "
          "kind of wait dominates).";
    findings.push_back(std::move(finding));
}

void ruleGpuIdleBreakdown(
    const AnalysisContext& context, const AnalysisResult& facts, std::vector<Finding>& findings)
{
    if (context.gpus().empty()) return;
    const GpuActivity& gpu = context.gpus().front();
    // analyze() computes each GPU's breakdown before the rules run.
    const auto found = std::find_if(facts.gpus.begin(), facts.gpus.end(),
        [&](const GpuTimeBreakdown& g) { return g.device == gpu.device; });
    const GpuTimeBreakdown b
        = found != facts.gpus.end() ? *found : gpuTimeBreakdown(context, gpu, context.scope);
    const double idle = percentOf(b.idle, b.span);
    if (idle < 1) return; // nothing worth explaining
    Finding finding {"gpu_idle_breakdown", idle >= 20 ? Severity::Warning : Severity::Info, {}, {}, {}, 0};
    finding.summary = sentence(
        "%s was idle %.1f%% of its active time (%s of %s): %.1f%% while its launching thread ran "
        "outside CUDA calls (nothing was queued), %.1f%% while it waited in synchronization calls, "
        "%.1f%% during launch and other CUDA calls.",
        gpuLabel(context.trace, gpu.device).c_str(), idle, formatDuration(b.idle).c_str(),
        formatDuration(b.span).c_str(), percentOf(b.idleCpuLate, b.span),
        percentOf(b.idleSynchronizing, b.span), percentOf(b.idleLaunching, b.span));
    const Duration largest = std::max({b.idleCpuLate, b.idleSynchronizing, b.idleLaunching});
    finding.advice = largest == b.idleCpuLate ? "Most idle time waits for the CPU: move host work off the "
                                                "launching thread or overlap it with GPU work."
        : largest == b.idleSynchronizing
        ? "Most idle time follows synchronization: drop the waits the host does not need, so work stays "
          "queued."
        : "Most idle time is launch latency: fewer, larger kernels or CUDA graphs keep the GPU fed.";
    std::vector<EvidenceCandidate> evidence;
    const TimeRange window = activeWindow(context, gpu);
    for (const Interval& gap : gapsWithin(gpu.busy.intervals(), window))
        evidence.push_back({{gap.start, gap.end}, {}, false});
    setEvidence(finding, std::move(evidence), std::min<size_t>(context.options.evidenceLimit, 100),
        [](const EvidenceCandidate& e) {
            return sentence("idle %s", formatDuration(e.range.duration()).c_str());
        });
    findings.push_back(std::move(finding));
}

} // namespace sightline
