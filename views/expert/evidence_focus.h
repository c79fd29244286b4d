// What choosing a row of the Expert view shows elsewhere: the time range the timeline zooms to,
// the event it selects, and the events the Events View lists. Pure functions of a finding.
//
// A finding's zoom is the span of all its evidence (first start to last end), so that a
// cluster of slow copies or a run of idle gaps is seen together. When that span covers half
// the analysed scope or more (evidence spread over the whole run), zooming to it would show
// little new: the zoom is then the largest piece of evidence (the rules list it first). The timeline
// selects the first evidence event; the Events View lists every evidence event.
#pragma once

#include "model/analysis/analysis.h"

#include <optional>
#include <vector>

namespace sightline::views {

struct EvidenceFocus
{
    std::optional<TimeRange> zoom; // none: leave the timeline where it is
    std::optional<EventRef> event; // the event to select on the timeline
    std::vector<EventRef> events; // to list in the Events View; empty: leave it as it is
};

// The share of the scope above which a finding's evidence span counts as "the whole scope".
inline constexpr double kWholeScopeShare = 0.5;

// The finding's evidence, over `scope` (the range analysed).
EvidenceFocus findingFocus(const Finding& finding, TimeRange scope);
// One piece of evidence: its event selected, the timeline zoomed to its range.
EvidenceFocus evidenceFocus(const Evidence& evidence);
// The time range of everything in `evidence`, first start to last end (none when empty).
std::optional<TimeRange> evidenceSpan(const std::vector<Evidence>& evidence);

} // namespace sightline::views
