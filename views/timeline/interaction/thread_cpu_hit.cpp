#include "views/timeline/interaction/thread_cpu_hit.h"

#include "views/timeline/frame/thread_cpu_columns.h"
#include "views/timeline/interaction/event_geometry.h"

#include <algorithm>
#include <cmath>

namespace sightline::views {
namespace {

std::optional<ThreadCpuHit> sampleNear(const CpuProfile& cpu, Tid tid, const TimeScale& scale, double x)
{
    const Timestamp t = scale.xToTime(x);
    const TimeRange window {scale.xToTime(x - kHitSlopPixels), scale.xToTime(x + kHitSlopPixels) + 1};
    const std::span<const CpuSample> near = cpu.threadSamples(tid, window);
    if (near.empty()) return std::nullopt;
    // The samples are sorted by time: the nearest is at the first one at or after t, or before it.
    auto after = std::lower_bound(
        near.begin(), near.end(), t, [](const CpuSample& s, Timestamp time) { return s.time < time; });
    auto best = after == near.end() ? after - 1 : after;
    if (after != near.begin() && t - (after - 1)->time <= best->time - t) best = after - 1;
    return ThreadCpuHit {ThreadCpuHit::Kind::Sample, size_t(&*best - cpu.samples.data())};
}

std::optional<ThreadCpuHit> stateAt(const CpuProfile& cpu, Tid tid, Timestamp t)
{
    const std::span<const ThreadStateInterval> here = cpu.threadStates(tid, {t, t + 1});
    if (here.empty()) return std::nullopt;
    return ThreadCpuHit {ThreadCpuHit::Kind::State, size_t(&here.front() - cpu.states.data())};
}

} // namespace

std::optional<ThreadCpuHit> threadCpuHitAt(const TimelineState& state, QPointF pos)
{
    const RowLayout& layout = state.layout();
    const int y = int(std::floor(pos.y())) + state.scrollY();
    const int rowIndex = layout.rowAt(y);
    if (rowIndex < 0) return std::nullopt;
    const VisibleRow& row = layout.rows()[size_t(rowIndex)];
    const RowNode& node = state.rows().node(row.node);
    if (node.content() != RowContent::ThreadCpu) return std::nullopt;

    const CpuProfile& cpu = state.trace().cpu;
    const int bottom = row.top + row.height - (row.height >= 8 ? 1 : 0); // as the painter has it
    const int above = bottom - 1 - y; // pixels above the lane's bottom edge, as bands count them
    if (above >= threadCpuBands(row.height).stripHigh)
        if (auto sample = sampleNear(cpu, node.thread, state.scale(), pos.x())) return sample;
    return stateAt(cpu, node.thread, state.scale().xToTime(pos.x()));
}

} // namespace sightline::views
