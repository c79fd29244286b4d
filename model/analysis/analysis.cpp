#include "model/analysis/analysis.h"

#include "model/analysis/rule_catalog.h"
#include "model/analysis/rules.h"

#include <algorithm>

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
    for (const RuleInfo& rule : analysisRules()) {
        if (!options.rules.empty()
            && std::find(options.rules.begin(), options.rules.end(), rule.name) == options.rules.end())
            continue;
        if (context.cancelled()) break;
        rule.run(context, result);
    }
    // Errors first, then warnings, then notes; rules keep their catalog order within each.
    std::stable_sort(result.findings.begin(), result.findings.end(),
        [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
    if (!context.cancelled()) {
        for (const GpuActivity& gpu : context.gpus())
            result.gpus.push_back(gpuTimeBreakdown(context, gpu, context.scope));
        result.launches = launchStatistics(context);
        result.occupancy = occupancyByKernel(context);
        result.verdicts = verdicts(context);
    }
    result.cancelled = context.cancelled();
    return result;
}

} // namespace sightline
