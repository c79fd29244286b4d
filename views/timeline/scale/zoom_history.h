// Back/forward history of the visible time range, like a browser's: every deliberate change
// records the range it leaves; going back records the current range for going forward, and a
// new change after going back forgets the forward entries. Continuous gestures (wheel zoom,
// panning) record only once per gesture: a record within `kGestureGapMs` of the previous
// gesture step is folded into it. Qt-free; time is passed in, so it is unit-testable.
#pragma once

#include "model/core/time.h"

#include <cstdint>
#include <deque>
#include <optional>

namespace sightline::views {

class ZoomHistory
{
public:
    static constexpr int64_t kGestureGapMs = 700;
    static constexpr size_t kMaxEntries = 200;

    // A deliberate change away from `left` (zoom to selection, reset, find...).
    void record(TimeRange left);
    // One step of a continuous gesture at time `nowMs` leaving `left`.
    void recordGestureStep(TimeRange left, int64_t nowMs);

    // The range to show instead of `current`, or none at the end of the history.
    std::optional<TimeRange> back(TimeRange current);
    std::optional<TimeRange> forward(TimeRange current);

    bool canGoBack() const { return !m_back.empty(); }
    bool canGoForward() const { return !m_forward.empty(); }
    void clear();

private:
    void push(std::deque<TimeRange>& stack, TimeRange range);

    std::deque<TimeRange> m_back;
    std::deque<TimeRange> m_forward;
    std::optional<int64_t> m_lastGestureMs;
};

} // namespace sightline::views
