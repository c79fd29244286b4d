#include "views/expert/evidence_focus.h"

#include <algorithm>

namespace sightline::views {

std::optional<TimeRange> evidenceSpan(const std::vector<Evidence>& evidence)
{
    if (evidence.empty()) return std::nullopt;
    TimeRange span = evidence.front().range;
    for (const Evidence& piece : evidence) {
        span.start = std::min(span.start, piece.range.start);
        span.end = std::max(span.end, piece.range.end);
    }
    return span;
}

EvidenceFocus findingFocus(const Finding& finding, TimeRange scope)
{
    EvidenceFocus focus;
    for (const Evidence& piece : finding.evidence)
        if (piece.event) focus.events.push_back(*piece.event);
    if (!focus.events.empty()) focus.event = focus.events.front();
    focus.zoom = evidenceSpan(finding.evidence);
    if (focus.zoom && double(focus.zoom->duration()) >= kWholeScopeShare * double(scope.duration()))
        focus.zoom = finding.evidence.front().range;
    return focus;
}

EvidenceFocus evidenceFocus(const Evidence& evidence)
{
    EvidenceFocus focus;
    focus.zoom = evidence.range;
    focus.event = evidence.event;
    return focus;
}

} // namespace sightline::views
