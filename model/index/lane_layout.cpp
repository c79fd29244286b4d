#include "model/index/lane_layout.h"

#include "model/index/lane_sets.h"

#include <algorithm>
#include <numeric>
#include <type_traits>

namespace sightline {
namespace {

template <class T> void permute(std::vector<T>& column, const std::vector<uint32_t>& destination)
{
    if (column.empty()) return;
    std::vector<T> out(column.size());
    for (size_t i = 0; i < column.size(); ++i)
        out[destination[i]] = column[i];
    column.swap(out);
}

// Event order for lane assignment: by start, the longer (enclosing) event first on ties.
bool before(const EventColumns& ev, size_t a, size_t b)
{
    if (ev.start[a] != ev.start[b]) return ev.start[a] < ev.start[b];
    return ev.end[a] > ev.end[b];
}

std::vector<uint32_t> startOrder(const EventColumns& ev)
{
    std::vector<uint32_t> order(ev.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return before(ev, a, b); });
    return order;
}

struct Lanes
{
    std::vector<uint32_t> ofEvent; // empty while every event is in lane 0
    uint32_t count = 0;
    bool nested = true;
};

enum class Assigned { Done, OutOfOrder, TooWide };

// Beyond this many open ranges or lanes the scanned vectors give way to the trees.
constexpr size_t kSmallLimit = 256;

// Depth = how many open ranges contain the event. An event that only partly overlaps an open
// range is not nested in it: it takes the first free lane at or below its depth and marks the
// track as freely overlapping (two in-flight DataLoader batches alternate between two lanes
// instead of stepping down a staircase). Events are taken in `order`, or with no order in
// index order, as most producers hand them over: then the first event out of start order
// stops the assignment (OutOfOrder), and it is done again with an order. With the small sets,
// a track that grows too wide stops too (TooWide), and is done again with the wide ones.
template <class OpenEnds, class LaneEnds>
Assigned assignLanes(const EventColumns& ev, const std::vector<uint32_t>& order, OpenEnds& open,
    LaneEnds& laneEnds, Lanes& lanes)
{
    constexpr bool kSmall = std::is_same_v<LaneEnds, SmallLaneEnds>;
    const size_t n = ev.size();
    for (size_t k = 0; k < n; ++k) {
        const uint32_t i = order.empty() ? uint32_t(k) : order[k];
        if (order.empty() && k > 0 && before(ev, i, i - 1)) return Assigned::OutOfOrder;
        const Timestamp s = ev.start[i];
        const Timestamp e = effectiveEnd(s, ev.end[i]);
        open.expireUpTo(s);
        const uint32_t depth = uint32_t(open.atOrAfter(e));
        if (open.size() > depth) lanes.nested = false; // an open range ends inside this one
        const uint32_t lane = laneEnds.firstFree(depth, s);
        if (lane != depth) lanes.nested = false;
        laneEnds.set(lane, e);
        if (lane != 0 && lanes.ofEvent.empty()) lanes.ofEvent.assign(n, 0);
        if (!lanes.ofEvent.empty()) lanes.ofEvent[i] = lane;
        open.add(e);
        if (kSmall && (open.size() > kSmallLimit || laneEnds.count() > kSmallLimit)) return Assigned::TooWide;
    }
    lanes.count = laneEnds.count();
    return Assigned::Done;
}

// Lanes for the events in `order` (empty: index order, if that is start order).
Assigned assign(const EventColumns& ev, const std::vector<uint32_t>& order, Lanes& lanes)
{
    SmallOpenEnds open;
    SmallLaneEnds laneEnds;
    const Assigned small = assignLanes(ev, order, open, laneEnds, lanes);
    if (small != Assigned::TooWide) return small;
    lanes = {};
    std::vector<Timestamp> ends(ev.size());
    for (size_t i = 0; i < ev.size(); ++i)
        ends[i] = effectiveEnd(ev.start[i], ev.end[i]);
    WideOpenEnds wideOpen(std::move(ends));
    WideLaneEnds wideLanes;
    return assignLanes(ev, order, wideOpen, wideLanes, lanes);
}

} // namespace

void layOutTrack(Track& track)
{
    EventColumns& ev = track.events;
    const size_t n = ev.size();
    std::vector<uint32_t> order; // empty: the events already are in start order
    Lanes lanes;
    if (assign(ev, order, lanes) == Assigned::OutOfOrder) {
        order = startOrder(ev);
        lanes = {};
        assign(ev, order, lanes);
    }
    auto inOrder = [&order](size_t k) { return order.empty() ? uint32_t(k) : order[k]; };
    const std::vector<uint32_t>& laneOfEvent = lanes.ofEvent;
    track.nested = lanes.nested;

    // Counting sort by lane, keeping start order inside each lane.
    track.laneBegin.assign(lanes.count + 1, 0);
    if (laneOfEvent.empty()) { // one lane (or none): start order is the layout
        if (n > 0) track.laneBegin[1] = uint32_t(n);
        if (order.empty()) return;
    } else {
        for (uint32_t i = 0; i < n; ++i)
            ++track.laneBegin[laneOfEvent[i] + 1];
        std::partial_sum(track.laneBegin.begin(), track.laneBegin.end(), track.laneBegin.begin());
    }
    std::vector<uint32_t> next(track.laneBegin.begin(), track.laneBegin.end() - 1);
    std::vector<uint32_t> destination(n);
    for (size_t k = 0; k < n; ++k) {
        const uint32_t i = inOrder(k);
        destination[i] = next[laneOfEvent.empty() ? 0 : laneOfEvent[i]]++;
    }

    bool identity = true;
    for (uint32_t i = 0; i < n && identity; ++i)
        identity = destination[i] == i;
    if (!identity) {
        permute(ev.start, destination);
        permute(ev.end, destination);
        permute(ev.name, destination);
        permute(ev.correlation, destination);
        permute(ev.detail, destination);
        permute(ev.value, destination);
    }
}

} // namespace sightline
