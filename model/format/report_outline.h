// A report at a glance: what it holds, how many of each, over which span, without decoding a
// single batch. A format 1.1 .rep stores every track's and counter timeline's span, so its
// outline reads only the small chunks at the start of the file (milliseconds for any size);
// a report written before it, or a file of another tool, is opened whole and outlined from the
// Trace (outlineOf). `sightline info` prints an outline.
#pragma once

#include "model/common/result.h"
#include "model/trace/trace.h"

#include <optional>
#include <string>
#include <vector>

namespace sightline {

struct TrackOutline
{
    TrackKey key;
    uint64_t events = 0;
    uint32_t lanes = 0;
};

struct CounterOutline
{
    CounterSeries series; // without values
    uint64_t samples = 0;
    std::optional<TimeRange> span;
};

struct ReportOutline
{
    // Metadata, strings, entities, descriptors and diagnostics; no tracks, counters or CPU rows.
    Trace base;
    std::vector<TrackOutline> tracks;
    std::vector<CounterOutline> counters; // the stored series (not the derived CPU utilization)
    uint64_t cpuSamples = 0, threadStates = 0;
    std::optional<TimeRange> span; // of events and counter samples, as Trace::span

    uint64_t eventCount() const;
    uint64_t eventCount(TrackKind kind) const;
};

// The outline of a .rep file of format 1.1 or later from its small chunks alone. Fails with one
// sentence for a file that is not a report or is damaged; returns no value (and no error) for a
// report too old to store its spans, or one cut short (whose track list claims events that are
// lost): the caller opens those whole instead, and the reader says what was recovered.
Result<std::optional<ReportOutline>> readReportOutline(const std::string& path);

// The outline of a Trace already loaded (its events are left behind).
ReportOutline outlineOf(Trace&& trace);

} // namespace sightline
