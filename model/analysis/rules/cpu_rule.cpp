// The host side of GPU idle time, where the report has CPU samples or thread states: the idle
// gaps of the busiest GPU (at least --cpu-gap-threshold long) during which its launching
// thread stayed outside CUDA calls and ran on a CPU most of the time. Those gaps are the CPU
// work the GPU waited for; the finding names the functions the thread's samples were in.
#include "model/analysis/finding_text.h"
#include "model/analysis/rules/rules.h"
#include "model/stats/call_tree.h"
#include "model/text/time_text.h"

#include <algorithm>
#include <map>

namespace sightline {

namespace {

constexpr double kOutsideCudaShare = 80; // % of the gap outside CUDA calls
constexpr double kRunningShare = 50; // % of the gap on a CPU (thread states), or sampled as busy
constexpr size_t kGapsForFunctions = 20; // the longest gaps whose samples name the functions
constexpr size_t kFunctionsNamed = 3;

Duration runningTime(const CpuProfile& cpu, Tid tid, TimeRange gap)
{
    Duration running = 0;
    for (const ThreadStateInterval& s : cpu.threadStates(tid, gap))
        if (s.state == ThreadState::Running)
            running += std::min(s.end, gap.end) - std::max(s.start, gap.start);
    return running;
}

// Without thread states, samples at the sampling period stand for the time on a CPU.
Duration sampledTime(const CpuProfile& cpu, Tid tid, TimeRange gap)
{
    return Duration(cpu.threadSamples(tid, gap).size()) * cpu.samplingPeriod;
}

} // namespace

void ruleCpuBoundRanges(
    const AnalysisContext& context, const AnalysisResult& /*facts*/, std::vector<Finding>& findings)
{
    const Trace& trace = context.trace;
    if (context.gpus().empty() || trace.cpu.empty()) return;
    const GpuActivity& gpu = context.gpus().front();
    if (!gpu.hasLaunchingThread) return;
    const Tid tid = trace.track(gpu.launchingApiTrack).key.tid;
    const bool haveStates = !trace.cpu.threadStates(tid, context.scope).empty();
    const TimeRange window {
        std::max(context.scope.start, gpu.active.start), std::min(context.scope.end, gpu.active.end)};

    std::vector<Evidence> evidence;
    Duration total = 0;
    for (const Interval& gap : gapsWithin(gpu.busy.intervals(), window)) {
        if (gap.duration() < context.options.cpuGapThreshold) continue;
        const TimeRange range {gap.start, gap.end};
        Duration byRole[kCallRoleCount] = {0, 0, 0, 0};
        context.hostTime(gpu.launchingApiTrack, range, byRole);
        const Duration outside = gap.duration() - byRole[0] - byRole[1] - byRole[2] - byRole[3];
        const Duration onCpu
            = haveStates ? runningTime(trace.cpu, tid, range) : sampledTime(trace.cpu, tid, range);
        if (percentOf(outside, gap.duration()) < kOutsideCudaShare
            || percentOf(onCpu, gap.duration()) < kRunningShare)
            continue;
        total += gap.duration();
        evidence.push_back({std::nullopt, range,
            sentence("GPU idle %s, thread %u on a CPU %.0f%% of it", formatDuration(gap.duration()).c_str(),
                tid.value, std::min(100.0, percentOf(onCpu, gap.duration())))});
    }
    if (evidence.empty()) return;
    Finding finding {"cpu_bound_ranges", Severity::Warning, {}, {}, {}, 0};
    const size_t count = evidence.size();
    setEvidence(finding, std::move(evidence), context.options.evidenceLimit);

    // The functions the thread's samples were in during the longest gaps, by self samples.
    std::map<std::pair<uint32_t, uint32_t>, int64_t> selfSamples;
    int64_t samples = 0;
    for (size_t e = 0; e < std::min(kGapsForFunctions, finding.evidence.size()); ++e) {
        const CallTrees trees = computeCallTrees(
            trace, {finding.evidence[e].range, std::vector<Tid> {tid}}, context.cancelRequest());
        samples += trees.samples;
        for (const CallFunction& f : trees.functions)
            selfSamples[{f.name.value, f.module.value}] += f.self;
    }
    std::vector<std::pair<int64_t, std::string>> ranked;
    for (const auto& [key, self] : selfSamples)
        if (self > 0) ranked.push_back({self, std::string(trace.strings[StringId(key.first)])});
    std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string functions;
    for (size_t f = 0; f < std::min(kFunctionsNamed, ranked.size()); ++f)
        functions += sentence("%s%s (%.0f%%)", f > 0 ? ", " : "",
            ranked[f].second.empty() ? "[unknown]" : ranked[f].second.c_str(),
            100.0 * double(ranked[f].first) / double(std::max<int64_t>(samples, 1)));
    finding.summary = sentence("%s, %s in all, %s sat idle while its launching thread ran its own code%s%s.",
        counted(count, "time", "times").c_str(), formatDuration(total).c_str(),
        gpuLabel(trace, gpu.device).c_str(), functions.empty() ? "" : "; its samples there were mostly in ",
        functions.c_str());
    finding.advice
        = "Move this work off the launching thread (a DataLoader worker, a second thread) or queue the GPU "
          "work before it, so the GPU computes while the CPU does.";
    findings.push_back(std::move(finding));
}

} // namespace sightline
