// The overview of a report: what the viewer paints first, before any event batch is decoded.
// A format 1.2 .rep stores, after its track list, each lane's overview (model/derived/
// overview_tracks.h: a few thousand stand-in events per lane that draw the same whole-span
// picture as the lane's real events). Reading it touches only the small chunks at the start of
// the file, so its cost does not grow with the report's event count.
//
// The overview Trace has the report's metadata, strings, entities, diagnostics and span, and
// every stored track with its key and lane count, holding the stand-ins instead of events
// (indexes built); its descriptor tables are the overview's own (model/derived/overview_tracks.h),
// not the report's, and it has no flows. It has no counters, no CPU profile and no derived
// tracks (its stand-ins link to no call, so no NVTX range projects). Its events are not the
// report's: views show it as a picture only (no tooltips, selection or tables) until the
// report itself is loaded.
#pragma once

#include "model/common/result.h"
#include "model/format/report_outline.h"
#include "model/trace/trace.h"

#include <optional>
#include <string>
#include <vector>

namespace sightline {

struct ReportOverview
{
    Trace trace; // the stand-ins, per track and lane as stored
    uint64_t events = 0; // the report's own event count
    uint64_t fileBytes = 0;
    // The report's event batches as its footer lists them: where their events start and how
    // many they hold, so that a viewer knows what reading a range costs before reading it.
    struct Batch
    {
        std::optional<TimeRange> starts;
        uint32_t count = 0;
        uint32_t track = 0; // its index in the report's track list (and in `trace`)
    };
    std::vector<Batch> eventBatches;

    // At most how many events a read of `range` decodes (ReadOptions::select's startsIn):
    // every batch reaching into it, whole.
    uint64_t eventsStartingIn(TimeRange range) const;
    // The events of stored track `track`, by the footer.
    uint64_t trackEvents(uint32_t track) const;
};

// Memory a report takes once read whole with its indexes, per event (31-36 bytes measured on
// generated reports of 10M and 1B events, peak included), to weigh a read against a budget.
constexpr uint64_t kResidentBytesPerEvent = 40;

// The overview of a .rep file of format 1.2 or later. Fails with one sentence for a file that
// is not a report or is damaged; returns no value (and no error) for a report that stores no
// overview (older, small, or cut short): the caller opens those whole.
Result<std::optional<ReportOverview>> readReportOverview(const std::string& path);

} // namespace sightline
