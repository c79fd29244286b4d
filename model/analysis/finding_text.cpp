#include "model/analysis/finding_text.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

namespace sightline {

std::string sentence(const char* pattern, ...)
{
    va_list args;
    va_start(args, pattern);
    va_list copy;
    va_copy(copy, args);
    const int length = std::vsnprintf(nullptr, 0, pattern, copy);
    va_end(copy);
    std::string out(size_t(std::max(length, 0)), '\0');
    if (length > 0) std::vsnprintf(out.data(), out.size() + 1, pattern, args);
    va_end(args);
    return out;
}

std::string counted(size_t count, const char* one, const char* many)
{
    return std::to_string(count) + " " + (count == 1 ? one : many);
}

double percentOf(Duration part, Duration whole)
{
    return whole > 0 ? 100.0 * double(part) / double(whole) : 0.0;
}

void setEvidence(Finding& finding, std::vector<Evidence> evidence, size_t limit)
{
    finding.evidenceCount = evidence.size();
    auto longerFirst = [](const Evidence& a, const Evidence& b) {
        const Duration da = a.range.duration(), db = b.range.duration();
        return da != db ? da > db : a.range.start < b.range.start;
    };
    if (evidence.size() > limit) {
        std::partial_sort(
            evidence.begin(), evidence.begin() + std::ptrdiff_t(limit), evidence.end(), longerFirst);
        evidence.resize(limit);
    } else {
        std::sort(evidence.begin(), evidence.end(), longerFirst);
    }
    finding.evidence = std::move(evidence);
}

std::string gpuLabel(const Trace& trace, DeviceId device)
{
    const Gpu* gpu = trace.findGpu(device);
    std::string label = "GPU " + std::to_string(device.value);
    if (gpu && !gpu->name.empty()) label += " (" + gpu->name + ")";
    return label;
}

} // namespace sightline
