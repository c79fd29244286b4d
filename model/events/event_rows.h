// Which events a listing holds (the Events View's table, the files of `sightline export --type
// csv`): the events of a set of tracks, optionally limited to a time range, or an explicit list
// of events, or the samples of a counter series (listed as rows like events, event_names.h), as
// (track, index) references in start order; the first few of them cheaply (so the first screen
// paints before the full list is sorted); and the events an NVTX range contains. Everything here
// reads the Trace's lanes: each lane is sorted by start and its events never overlap, so the
// events of a lane in a range, or inside a range, are one contiguous index run found by two
// binary searches.
#pragma once

#include "model/trace/trace.h"

#include <atomic>
#include <optional>
#include <vector>

namespace sightline {

// How a time range limits the list: events overlapping it (what the timeline shows in a
// selection), or events starting inside it (what the stats engine counts).
enum class RangeRule : uint8_t { Overlapping, StartingInside };

// An explicit list (`events` not empty) lists exactly those events, whatever `range` says;
// `tracks` should then name their tracks (the view's columns and title follow them). A counter
// series adds its samples (within `range`, by `rule`) to the list.
struct EventSource
{
    std::vector<TrackId> tracks;
    std::optional<TimeRange> range;
    RangeRule rule = RangeRule::Overlapping;
    std::vector<EventRef> events; // an explicit list (e.g. a finding's evidence), any order
    std::optional<uint32_t> counter; // a counter series (Trace::counterSeries)
    friend bool operator==(const EventSource&, const EventSource&) = default;
};

// The events of the source, ordered by start (ties: track order, then lane order). Returns
// an empty list when `cancel` was set before it finished.
std::vector<EventRef> collectRows(
    const Trace& trace, const EventSource& source, const std::atomic<bool>* cancel = nullptr);

// The first `limit` events of collectRows(), in the same order, in O(lanes + limit log lanes).
std::vector<EventRef> firstRowsByStart(const Trace& trace, const EventSource& source, size_t limit);

// The number of events of the source, without listing them.
size_t countRows(const Trace& trace, const EventSource& source);

// The events inside an NVTX range: the calls and nested ranges on its thread (CUDA API, NVTX
// of any domain, OS runtime) that start and end within it, and the GPU operations those API
// calls launched, ordered by start. At most `limit` are listed; `total` says how many there are
// (GPU operations past the limit are not counted).
struct ContainedEvents
{
    std::vector<EventRef> events;
    size_t total = 0;
};
ContainedEvents eventsInsideRange(const Trace& trace, EventRef range, size_t limit);

} // namespace sightline
