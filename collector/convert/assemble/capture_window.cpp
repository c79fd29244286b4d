#include "collector/convert/assemble/capture_window.h"

#include <algorithm>
#include <limits>

namespace sightline::collector {

namespace {

std::vector<TimeRange> profilerApiWindows(const std::vector<ProcessCapture>& processes, Timestamp sessionEnd)
{
    std::vector<CaptureControl> controls;
    for (const ProcessCapture& p : processes)
        controls.insert(controls.end(), p.captureControls.begin(), p.captureControls.end());
    std::stable_sort(controls.begin(), controls.end(),
        [](const CaptureControl& a, const CaptureControl& b) { return a.time < b.time; });
    std::vector<TimeRange> windows;
    std::optional<Timestamp> openedAt;
    for (const CaptureControl& c : controls) {
        if (c.start && !openedAt)
            openedAt = c.time;
        else if (!c.start && openedAt) {
            windows.push_back({*openedAt, c.time});
            openedAt.reset();
        }
    }
    if (openedAt) windows.push_back({*openedAt, sessionEnd});
    return windows;
}

std::vector<TimeRange> nvtxWindows(
    const CaptureSpec& spec, const std::vector<ProcessCapture>& processes, TraceBuilder& builder)
{
    const DomainId domain = spec.nvtxDomain.empty() ? DomainId() : builder.addDomain(spec.nvtxDomain);
    StringId name;
    if (!builder.strings().find(spec.nvtxRange, name)) return {};
    std::vector<TimeRange> windows;
    for (const ProcessCapture& p : processes)
        forEachNvtxEvent(p, [&](Tid, const NvtxEvent& e) {
            if (e.name == name && e.attributes.domain == domain && e.attributes.style != NvtxStyle::Mark)
                windows.push_back({e.start, e.end});
        });
    return windows;
}

std::vector<TimeRange> intersect(const std::vector<TimeRange>& windows, TimeRange limit)
{
    std::vector<TimeRange> out;
    for (const TimeRange& w : windows) {
        const TimeRange cut {std::max(w.start, limit.start), std::min(w.end, limit.end)};
        if (cut.end > cut.start) out.push_back(cut);
    }
    return out;
}

// Sorted and merged, so keeps() is one binary search.
std::vector<TimeRange> normalise(std::vector<TimeRange> windows)
{
    std::sort(windows.begin(), windows.end(), [](TimeRange a, TimeRange b) { return a.start < b.start; });
    std::vector<TimeRange> merged;
    for (const TimeRange& w : windows) {
        if (!merged.empty() && w.start <= merged.back().end)
            merged.back().end = std::max(merged.back().end, w.end);
        else
            merged.push_back(w);
    }
    return merged;
}

} // namespace

CaptureWindows CaptureWindows::compute(const CaptureSpec& spec, const std::vector<ProcessCapture>& processes,
    TraceBuilder& builder, Timestamp sessionEnd)
{
    CaptureWindows result;
    const bool timed = spec.delay || spec.duration;
    if (spec.mode == CaptureMode::None && !timed) return result;
    result.m_everything = false;
    constexpr Timestamp kForever = std::numeric_limits<Timestamp>::max() / 2;
    std::vector<TimeRange> windows;
    if (spec.mode == CaptureMode::CudaProfilerApi)
        windows = profilerApiWindows(processes, sessionEnd);
    else if (spec.mode == CaptureMode::Nvtx)
        windows = nvtxWindows(spec, processes, builder);
    else
        windows = {{std::numeric_limits<Timestamp>::min() / 2, kForever}};
    if (timed) {
        const Timestamp from = spec.delay.value_or(0);
        const Timestamp to = spec.duration ? from + *spec.duration : kForever;
        windows = intersect(windows, {from, to});
    }
    result.m_windows = normalise(std::move(windows));
    return result;
}

bool CaptureWindows::keeps(Timestamp start, Timestamp end) const
{
    if (m_everything) return true;
    // The first window ending after `start`; the event is kept when it begins before that ends.
    auto w = std::upper_bound(
        m_windows.begin(), m_windows.end(), start, [](Timestamp t, const TimeRange& r) { return t < r.end; });
    return w != m_windows.end() && overlaps(start, end, *w);
}

} // namespace sightline::collector
