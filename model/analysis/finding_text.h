// Small text helpers for findings: printf-style sentences, shares and evidence lists kept
// largest first within the options' limit.
#pragma once

#include "model/analysis/analysis.h"

#include <functional>
#include <string>

namespace sightline {

std::string sentence(const char* pattern, ...) __attribute__((format(printf, 1, 2)));
// "1 copy", "12 copies".
std::string counted(size_t count, const char* one, const char* many);
// part / whole as a percentage, 0 when whole is 0.
double percentOf(Duration part, Duration whole);
// A piece of evidence before it is kept and labelled: rules that may find millions (every
// short kernel, every idle gap) collect these, and only the kept ones become Evidence.
struct EvidenceCandidate
{
    TimeRange range;
    EventRef event;
    bool hasEvent = false;
};
using EvidenceLabel = std::function<std::string(const EvidenceCandidate&)>;

// Sorts the candidates by length, longest first (then by start), keeps at most `limit`,
// labels those and records how many there were.
void setEvidence(
    Finding& finding, std::vector<EvidenceCandidate> candidates, size_t limit, const EvidenceLabel& label);
// The same for evidence labelled already (rules that find a handful).
void setEvidence(Finding& finding, std::vector<Evidence> evidence, size_t limit);
// "GPU 0" or the GPU's name when the trace knows it: "GPU 0 (NVIDIA H200)".
std::string gpuLabel(const Trace& trace, DeviceId device);

} // namespace sightline
