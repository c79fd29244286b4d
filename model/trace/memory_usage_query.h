// Questions about a trace's GPU memory usage records (Trace::memoryUsage, by time): the
// changes on one device in a time range, and how long an allocation lived. The timeline's
// Memory row asks them of what lies under the cursor. Cost: O(log n + the records in the
// range), and for a lifetime O(the records until the release).
#pragma once

#include "model/trace/trace.h"

#include <optional>
#include <vector>

namespace sightline {

// The indexes (into Trace::memoryUsage) of `device`'s records with time in [range.start,
// range.end), in time order.
std::vector<uint32_t> memoryChangesIn(const Trace& trace, DeviceId device, TimeRange range);

// The latest record of `device` before `time`: the change that set the bytes in use shown
// there. None when the device has none before it.
std::optional<uint32_t> lastMemoryChangeBefore(const Trace& trace, DeviceId device, Timestamp time);

// The release of the allocation at `index`: the first later release of the same address on
// the same device by the same process. None for a release, or memory still held at the end.
std::optional<uint32_t> releaseOf(const Trace& trace, uint32_t index);

} // namespace sightline
