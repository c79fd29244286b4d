#include "views/timeline/scale/zoom_history.h"

namespace sightline::views {

void ZoomHistory::push(std::deque<TimeRange>& stack, TimeRange range)
{
    if (!stack.empty() && stack.back() == range) return;
    stack.push_back(range);
    if (stack.size() > kMaxEntries) stack.pop_front();
}

void ZoomHistory::record(TimeRange left)
{
    push(m_back, left);
    m_forward.clear();
    m_lastGestureMs.reset();
}

void ZoomHistory::recordGestureStep(TimeRange left, int64_t nowMs)
{
    const bool continuing = m_lastGestureMs && nowMs - *m_lastGestureMs <= kGestureGapMs;
    m_lastGestureMs = nowMs;
    if (continuing) return;
    push(m_back, left);
    m_forward.clear();
}

std::optional<TimeRange> ZoomHistory::back(TimeRange current)
{
    m_lastGestureMs.reset();
    while (!m_back.empty() && m_back.back() == current)
        m_back.pop_back();
    if (m_back.empty()) return std::nullopt;
    const TimeRange previous = m_back.back();
    m_back.pop_back();
    push(m_forward, current);
    return previous;
}

std::optional<TimeRange> ZoomHistory::forward(TimeRange current)
{
    m_lastGestureMs.reset();
    while (!m_forward.empty() && m_forward.back() == current)
        m_forward.pop_back();
    if (m_forward.empty()) return std::nullopt;
    const TimeRange next = m_forward.back();
    m_forward.pop_back();
    push(m_back, current);
    return next;
}

void ZoomHistory::clear()
{
    m_back.clear();
    m_forward.clear();
    m_lastGestureMs.reset();
}

} // namespace sightline::views
