// The analysis rules by name: Nsight Systems' expert rules first, under their names, then
// Sightline's own. `sightline analyze --rule help` prints this list.
#pragma once

#include <span>
#include <string_view>
#include <vector>

namespace sightline {

class AnalysisContext;
struct AnalysisResult;
struct Finding;

struct RuleInfo
{
    std::string_view name; // "cuda_memcpy_async"
    std::string_view title; // "Asynchronous copies from pageable memory"
    std::string_view description; // what it looks for, one or two sentences
    bool fromNsight = false; // one of `nsys analyze`'s rules, same name and meaning
    void (*run)(const AnalysisContext&, const AnalysisResult& facts, std::vector<Finding>& findings)
        = nullptr;
};

std::span<const RuleInfo> analysisRules();
const RuleInfo* findAnalysisRule(std::string_view name); // null when unknown

} // namespace sightline
