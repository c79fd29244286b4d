#include "views/timeline/interaction/event_geometry.h"

#include "model/index/lod.h"
#include "views/timeline/frame/draw_list_builder.h"

#include <algorithm>
#include <cmath>

namespace sightline::views {
namespace {

constexpr uint32_t kScanLimit = 512; // beyond this many candidates, ask the level of detail

struct Candidate
{
    EventRef event;
    Duration distance = 0; // 0 when the event contains the time
    Duration duration = 0;
    bool better(const Candidate& other) const
    {
        if (distance != other.distance) return distance < other.distance;
        return duration > other.duration;
    }
};

} // namespace

std::vector<EventPlacement> placementsOf(const TimelineState& state, EventRef event)
{
    std::vector<EventPlacement> places;
    const Trace& trace = state.trace();
    if (event.track.value >= trace.trackCount()) return places;
    const Track& track = trace.track(event.track);
    const uint32_t lane = track.laneOf(event.index);
    const TimeScale& scale = state.scale();
    double x0 = scale.timeToX(track.events.start[event.index]);
    double x1 = std::max(scale.timeToX(track.events.end[event.index]), x0 + kMinimumPlacementWidth);
    x0 = std::clamp(x0, -1e7, 1e7);
    x1 = std::clamp(x1, -1e7, 1e7);
    const RowLayout& layout = state.layout();
    const int laneHeight = layout.laneHeight();
    for (size_t r = 0; r < layout.rows().size(); ++r) {
        const VisibleRow& row = layout.rows()[r];
        const RowNode& node = state.rows().node(row.node);
        const RowContent content = node.content();
        int top = -1;
        if (content == RowContent::Lanes && node.tracks.front() == event.track) {
            top = row.top + int(lane) * laneHeight;
        } else if ((content == RowContent::Merged || content == RowContent::Utilization)
            && lane < summaryLaneCount(track)
            && std::find(node.tracks.begin(), node.tracks.end(), event.track) != node.tracks.end()) {
            top = row.top;
        }
        if (top < 0) continue;
        places.push_back(
            {int(r), QRectF(x0, top - state.scrollY(), x1 - x0, laneHeight), content == RowContent::Lanes});
    }
    return places;
}

std::optional<EventPlacement> primaryPlacement(const TimelineState& state, EventRef event)
{
    const std::vector<EventPlacement> places = placementsOf(state, event);
    if (places.empty()) return std::nullopt;
    auto own = std::find_if(places.begin(), places.end(), [](const EventPlacement& p) { return p.ownLane; });
    return own != places.end() ? *own : places.front();
}

std::optional<EventRef> eventAt(const TimelineState& state, QPointF pos)
{
    const RowLayout& layout = state.layout();
    const int rowIndex = layout.rowAt(int(std::floor(pos.y())) + state.scrollY());
    if (rowIndex < 0) return std::nullopt;
    const VisibleRow& row = layout.rows()[size_t(rowIndex)];
    const RowNode& node = state.rows().node(row.node);
    const uint32_t subRow
        = uint32_t((int(std::floor(pos.y())) + state.scrollY() - row.top) / layout.laneHeight());
    std::vector<LaneSource> sources;
    DrawListBuilder::sourcesOf(state.trace(), node, std::min(subRow, row.lanes - 1), sources);

    const TimeScale& scale = state.scale();
    const Timestamp t = scale.xToTime(pos.x());
    const TimeRange window {
        scale.xToTime(pos.x() - kHitSlopPixels), std::max(t + 1, scale.xToTime(pos.x() + kHitSlopPixels))};
    const Trace& trace = state.trace();
    std::optional<Candidate> best;
    auto consider = [&](TrackId id, uint32_t i) {
        const Track& track = trace.track(id);
        const Timestamp start = track.events.start[i], end = effectiveEnd(start, track.events.end[i]);
        const Duration distance = t < start ? start - t : t >= end ? t - end + 1 : 0;
        const Candidate candidate {{id, i}, distance, end - start};
        if (!best || candidate.better(*best)) best = candidate;
    };
    for (const LaneSource& source : sources) {
        const IndexRange hits = trace.windowEvents(source.track, source.lane, window);
        if (hits.size() <= kScanLimit) {
            for (uint32_t i = hits.begin; i < hits.end; ++i)
                consider(source.track, i);
            continue;
        }
        // Dense: the longest event around the point, as the level of detail draws it.
        LodColumn column;
        trace.laneLod(source.track, source.lane, window, std::span<LodColumn>(&column, 1));
        if (column.longest != LodColumn::kNoEvent) consider(source.track, column.longest);
    }
    if (!best) return std::nullopt;
    return best->event;
}

} // namespace sightline::views
