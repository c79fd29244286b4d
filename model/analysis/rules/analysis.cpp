#include "model/analysis/analysis.h"

#include "model/analysis/rule_catalog.h"
#include "model/analysis/rules/rules.h"
#include "model/common/parallel_for.h"

#include <algorithm>
#include <functional>

namespace sightline {

std::string_view severityName(Severity severity)
{
    switch (severity) {
    case Severity::Info:
        return "info";
    case Severity::Warning:
        return "warning";
    case Severity::Error:
        return "error";
    }
    return "info";
}

std::string_view limitName(Limit limit)
{
    switch (limit) {
    case Limit::GpuCompute:
        return "GPU compute bound";
    case Limit::LaunchBound:
        return "CUDA API / launch bound";
    case Limit::Synchronization:
        return "synchronization bound";
    case Limit::CpuBound:
        return "CPU bound";
    case Limit::MemoryTransfer:
        return "memory-transfer bound";
    case Limit::Balanced:
        return "balanced";
    case Limit::NoGpuWork:
        return "no GPU work";
    }
    return "balanced";
}

AnalysisResult analyze(const Trace& trace, const AnalysisOptions& options, const std::atomic<bool>* cancel)
{
    AnalysisResult result;
    const AnalysisContext context(trace, options, cancel);
    // A cancelled analysis returns nothing but the flag: half a result would mislead.
    const auto stopped = [&] {
        if (!context.cancelled()) return false;
        result = {};
        result.cancelled = true;
        return true;
    };
    if (stopped()) return result;
    context.launchedKernels(); // built once, before the work spreads over the cores

    // The facts, then the rules (two of which read the facts): independent pieces of work over
    // a read-only context, spread over the cores.
    const std::function<void()> facts[] = {
        [&] {
            for (const GpuActivity& gpu : context.gpus())
                result.gpus.push_back(gpuTimeBreakdown(context, gpu, context.scope));
        },
        [&] { result.launches = launchStatistics(context); },
        [&] { result.occupancy = occupancyByKernel(context); },
        [&] { result.verdicts = verdicts(context); },
    };
    parallelFor(std::size(facts), [&](size_t i) { facts[i](); });
    if (stopped()) return result;

    std::vector<const RuleInfo*> rules;
    for (const RuleInfo& rule : analysisRules())
        if (options.rules.empty()
            || std::find(options.rules.begin(), options.rules.end(), rule.name) != options.rules.end())
            rules.push_back(&rule);
    std::vector<std::vector<Finding>> found(rules.size());
    parallelFor(rules.size(), [&](size_t r) {
        if (!context.cancelled()) rules[r]->run(context, result, found[r]);
    });
    for (std::vector<Finding>& findings : found)
        for (Finding& f : findings)
            result.findings.push_back(std::move(f));
    // Errors first, then warnings, then notes; rules keep their catalog order within each.
    std::stable_sort(result.findings.begin(), result.findings.end(),
        [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
    stopped();
    return result;
}

} // namespace sightline
