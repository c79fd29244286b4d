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

namespace {

// Keeps the `limit` longest of `items` (then the earliest), longest first.
template <class Item, class RangeOf> void keepLongest(std::vector<Item>& items, size_t limit, RangeOf rangeOf)
{
    auto longerFirst = [&](const Item& a, const Item& b) {
        const TimeRange x = rangeOf(a), y = rangeOf(b);
        return x.duration() != y.duration() ? x.duration() > y.duration() : x.start < y.start;
    };
    if (items.size() > limit) {
        std::partial_sort(items.begin(), items.begin() + std::ptrdiff_t(limit), items.end(), longerFirst);
        items.resize(limit);
    } else {
        std::sort(items.begin(), items.end(), longerFirst);
    }
}

} // namespace

void setEvidence(
    Finding& finding, std::vector<EvidenceCandidate> candidates, size_t limit, const EvidenceLabel& label)
{
    finding.evidenceCount = candidates.size();
    keepLongest(candidates, limit, [](const EvidenceCandidate& c) { return c.range; });
    finding.evidence.clear();
    finding.evidence.reserve(candidates.size());
    for (const EvidenceCandidate& c : candidates)
        finding.evidence.push_back(
            {c.hasEvent ? std::optional<EventRef>(c.event) : std::nullopt, c.range, label(c)});
}

void setEvidence(Finding& finding, std::vector<Evidence> evidence, size_t limit)
{
    finding.evidenceCount = evidence.size();
    keepLongest(evidence, limit, [](const Evidence& e) { return e.range; });
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
