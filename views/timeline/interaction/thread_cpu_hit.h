// What lies under a point of a thread's CPU row (RowContent::ThreadCpu): above the state strip,
// the sample tick nearest the point within kHitSlopPixels; on the strip, or where no sample is
// that near, the thread state at the time under the point. It places the strip and the ticks
// with threadCpuBands, as the draw list does, and costs a few binary searches.
#pragma once

#include "views/timeline/interaction/timeline_state.h"

#include <QPointF>
#include <optional>

namespace sightline::views {

struct ThreadCpuHit
{
    enum class Kind : uint8_t { State, Sample };
    Kind kind = Kind::State;
    size_t index = 0; // into CpuProfile::states or CpuProfile::samples
};

std::optional<ThreadCpuHit> threadCpuHitAt(const TimelineState& state, QPointF pos);

} // namespace sightline::views
