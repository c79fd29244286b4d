// The hover tooltip of a counter row (GPU metrics, GPU memory in use, a process's CPU
// utilization): the series' value under the cursor (the time-weighted mean of the samples the
// pixel covers, with their minimum and maximum when there are several), and, while a time
// range is selected, the mean over the selection. On a GPU's Memory row it lists the
// allocations and releases under the cursor (or the last one before it), each with its size,
// kind, address, the API call and thread that made it and how long the memory was held.
// Rendered through EventTooltip like an event's.
#pragma once

#include "views/timeline/tooltips/event_tooltip.h"

#include <optional>

namespace sightline::views {

// Empty (no title) where the series has no known value in `pixel`.
EventTooltip describeCounter(
    const Trace& trace, uint32_t series, TimeRange pixel, const std::optional<TimeRange>& selection);

// A series value with its unit: "87.3 %", "1.42 TB/s".
QString counterValueText(const CounterSeries& series, double value);
// What a source's series measure: "GPU metric", "GPU memory in use", "CPU utilization".
QString counterKindText(CounterSource source);

} // namespace sightline::views
