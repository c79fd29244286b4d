// Writers for `sightline analyze`: a text report for people (verdicts, GPU time, findings with
// their longest evidence, launch statistics), JSON with everything, and CSV with one row per
// verdict and per piece of evidence, for scripts and CI gates.
#pragma once

#include "model/analysis/analysis.h"

#include <ostream>

namespace sightline::cli {

// `evidenceShown`: pieces of evidence listed under each finding.
void writeAnalysisText(
    std::ostream& out, const Trace& trace, const AnalysisResult& result, size_t evidenceShown);
void writeAnalysisJson(std::ostream& out, const Trace& trace, const AnalysisResult& result);
void writeAnalysisCsv(std::ostream& out, const AnalysisResult& result);

} // namespace sightline::cli
