// Small text helpers for findings: printf-style sentences, shares and evidence lists kept
// largest first within the options' limit.
#pragma once

#include "model/analysis/analysis.h"

#include <string>

namespace sightline {

std::string sentence(const char* pattern, ...) __attribute__((format(printf, 1, 2)));
// "1 copy", "12 copies".
std::string counted(size_t count, const char* one, const char* many);
// part / whole as a percentage, 0 when whole is 0.
double percentOf(Duration part, Duration whole);
// Sorts `evidence` by length, longest first (then by start), keeps at most `limit` and records
// how many there were.
void setEvidence(Finding& finding, std::vector<Evidence> evidence, size_t limit);
// "GPU 0" or the GPU's name when the trace knows it: "GPU 0 (NVIDIA H200)".
std::string gpuLabel(const Trace& trace, DeviceId device);

} // namespace sightline
