#include "model/open/report_hold.h"

#include "model/format/report_overview.h"

#include <algorithm>

namespace sightline {

bool fitsBudget(uint64_t events, uint64_t budgetBytes)
{
    return events <= budgetBytes / kResidentBytesPerEvent;
}

Hold decideHold(
    const ReportSize& report, std::optional<TimeRange> view, uint64_t budgetBytes, RangeMargin margin)
{
    const uint64_t events = report.events.value_or(0);
    if (!report.events || fitsBudget(events, budgetBytes)) return {HoldKind::Whole, {}, events};
    if (!report.overview) return {HoldKind::Refused, {}, events};
    if (!view) return {HoldKind::Overview, {}, events};
    const ReportOverview& overview = *report.overview;
    if (margin == RangeMargin::Around) {
        const TimeRange around {std::max(report.span.start, view->start - view->duration()),
            std::min(report.span.end, view->end + view->duration())};
        const uint64_t inAround = overview.eventsStartingIn(around);
        if (fitsBudget(inAround, budgetBytes)) return {HoldKind::Range, around, inAround};
    }
    const uint64_t inView = overview.eventsStartingIn(*view);
    if (fitsBudget(inView, budgetBytes)) return {HoldKind::Range, *view, inView};
    return {HoldKind::Overview, {}, inView};
}

} // namespace sightline
