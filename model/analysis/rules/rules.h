// The rule functions rule_catalog.cpp lists (one file per family) and the facts beside the
// findings that analyze() always computes. Each rule appends at most one finding.
#pragma once

#include "model/analysis/analysis_context.h"

namespace sightline {

// api_rules.cpp: Nsight Systems' CUDA API rules.
void ruleCudaMemcpyAsync(
    const AnalysisContext& context, const AnalysisResult& facts, std::vector<Finding>& findings);
void ruleCudaMemcpySync(
    const AnalysisContext& context, const AnalysisResult& facts, std::vector<Finding>& findings);
void ruleCudaMemsetSync(
    const AnalysisContext& context, const AnalysisResult& facts, std::vector<Finding>& findings);
void ruleCudaApiSync(
    const AnalysisContext& context, const AnalysisResult& facts, std::vector<Finding>& findings);
// Sightline's: every copy from or to pageable memory, synchronous or not.
void rulePageableCopies(
    const AnalysisContext& context, const AnalysisResult& facts, std::vector<Finding>& findings);

// gpu_rules.cpp: Nsight Systems' GPU idle rules and the idle breakdown.
void ruleGpuGaps(const AnalysisContext& context, const AnalysisResult& facts, std::vector<Finding>& findings);
void ruleGpuTimeUtil(
    const AnalysisContext& context, const AnalysisResult& facts, std::vector<Finding>& findings);
void ruleGpuIdleBreakdown(
    const AnalysisContext& context, const AnalysisResult& facts, std::vector<Finding>& findings);

// launch_rules.cpp: kernels shorter than their launch, and the launch statistics.
void ruleLaunchBoundKernels(
    const AnalysisContext& context, const AnalysisResult& facts, std::vector<Finding>& findings);
std::vector<KernelLaunchStats> launchStatistics(const AnalysisContext& context);

// occupancy_rule.cpp: kernels whose launch configuration caps their occupancy.
void ruleLowOccupancy(
    const AnalysisContext& context, const AnalysisResult& facts, std::vector<Finding>& findings);
std::vector<KernelOccupancy> occupancyByKernel(const AnalysisContext& context);

// cpu_rule.cpp: GPU idle gaps the launching thread spent running its own code (CPU samples).
void ruleCpuBoundRanges(
    const AnalysisContext& context, const AnalysisResult& facts, std::vector<Finding>& findings);

// gpu_time.cpp: where a GPU's time went over a range (its active window within the scope).
GpuTimeBreakdown gpuTimeBreakdown(const AnalysisContext& context, const GpuActivity& gpu, TimeRange range);

// verdict.cpp: the dominant limit of the scope and of each top-level NVTX range name.
std::vector<Verdict> verdicts(const AnalysisContext& context);

} // namespace sightline
