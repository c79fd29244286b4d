// How much of a report to hold in memory: the one rule the viewer (and any command) follows.
// A report whose events fit the memory budget is held whole. One over it is held as its
// overview (model/format/report_overview.h) when it stores one, and refused otherwise; over
// its overview, the events starting in a time range are read when they fit: three times the
// view where that fits (panning then stays inside what was read), else the view itself.
// Events weigh kResidentBytesPerEvent each.
#pragma once

#include "model/core/time.h"

#include <cstdint>
#include <optional>

namespace sightline {

struct ReportOverview;

// What is known of a report before its events are read.
struct ReportSize
{
    // The report's own events (its outline's or its overview's count); none: not known (a
    // file that is no report, or one written before format 1.1), which is read whole.
    std::optional<uint64_t> events;
    const ReportOverview* overview = nullptr; // the overview it stores, if any
    TimeRange span {}; // the report's span: a view's margin stops at its ends
};

enum class HoldKind : uint8_t {
    Whole, // read every event
    Overview, // show the stored overview: the events do not fit
    Range, // read the events starting in `range`
    Refused, // the events do not fit and there is no overview to show instead
};

struct Hold
{
    HoldKind kind = HoldKind::Whole;
    TimeRange range {}; // Range: what to read
    // Whole, Overview and Refused: the report's events; Range: those starting in the range;
    // Overview with a view: those starting in the view, which did not fit.
    uint64_t events = 0;
};

// Around: a view is read with its width as margin on each side where that fits (the view
// follows the user); Exact: the view alone (a range the user chose).
enum class RangeMargin : uint8_t { Around, Exact };

// `view`: the time range the user looks at, over the overview; none when a report opens.
Hold decideHold(
    const ReportSize& report, std::optional<TimeRange> view, uint64_t budgetBytes, RangeMargin margin);

// Whether `events` events fit `budgetBytes`.
bool fitsBudget(uint64_t events, uint64_t budgetBytes);

} // namespace sightline
