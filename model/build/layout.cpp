#include "model/build/trace_builder.h"

#include <algorithm>
#include <numeric>

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
    std::vector<Timestamp> end;
    bool nested = true;
};

// Depth = how many open ranges contain the event. An event that only partly overlaps an open
// range is not nested in it: it takes the first free lane at or below its depth and marks the
// track as freely overlapping (two in-flight DataLoader batches alternate between two lanes
// instead of stepping down a staircase). Events are taken in `order`, or with no order in
// index order, as most producers hand them over: then the first event out of start order
// stops the assignment (false), and it is done again with an order.
bool assignLanes(const EventColumns& ev, const std::vector<uint32_t>& order, Lanes& lanes)
{
    const size_t n = ev.size();
    std::vector<Timestamp> openEnds;
    for (size_t k = 0; k < n; ++k) {
        const uint32_t i = order.empty() ? uint32_t(k) : order[k];
        if (order.empty() && k > 0 && before(ev, i, i - 1)) return false;
        const Timestamp s = ev.start[i];
        const Timestamp e = effectiveEnd(s, ev.end[i]);
        std::erase_if(openEnds, [s](Timestamp end) { return end <= s; });
        uint32_t depth = 0;
        for (Timestamp end : openEnds) {
            if (end >= e)
                ++depth;
            else
                lanes.nested = false;
        }
        uint32_t lane = depth;
        while (lane < lanes.end.size() && lanes.end[lane] > s)
            ++lane;
        if (lane != depth) lanes.nested = false;
        if (lane == lanes.end.size()) lanes.end.push_back(e);
        lanes.end[lane] = e;
        if (lane != 0 && lanes.ofEvent.empty()) lanes.ofEvent.assign(n, 0);
        if (!lanes.ofEvent.empty()) lanes.ofEvent[i] = lane;
        openEnds.push_back(e);
    }
    return true;
}

} // namespace

void layOutTrack(Track& track)
{
    EventColumns& ev = track.events;
    const size_t n = ev.size();
    std::vector<uint32_t> order; // empty: the events already are in start order
    Lanes lanes;
    if (!assignLanes(ev, order, lanes)) {
        order = startOrder(ev);
        lanes = {};
        assignLanes(ev, order, lanes);
    }
    auto inOrder = [&order](size_t k) { return order.empty() ? uint32_t(k) : order[k]; };
    const std::vector<uint32_t>& laneOfEvent = lanes.ofEvent;
    track.nested = lanes.nested;

    // Counting sort by lane, keeping start order inside each lane.
    track.laneBegin.assign(lanes.end.size() + 1, 0);
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
