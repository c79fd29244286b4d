#include "trace_builder.h"

#include <algorithm>
#include <numeric>

namespace sightline {
namespace {

template <class T>
void permute(std::vector<T>& column, const std::vector<uint32_t>& destination)
{
    if (column.empty()) return;
    std::vector<T> out(column.size());
    for (size_t i = 0; i < column.size(); ++i) out[destination[i]] = column[i];
    column.swap(out);
}

// Event order for lane assignment: by start, the longer (enclosing) event first on ties.
std::vector<uint32_t> startOrder(const EventColumns& ev)
{
    std::vector<uint32_t> order(ev.size());
    std::iota(order.begin(), order.end(), 0u);
    auto before = [&](uint32_t a, uint32_t b) {
        if (ev.start[a] != ev.start[b]) return ev.start[a] < ev.start[b];
        return ev.end[a] > ev.end[b];
    };
    if (!std::is_sorted(order.begin(), order.end(), before)) std::stable_sort(order.begin(), order.end(), before);
    return order;
}

} // namespace

void layOutTrack(Track& track)
{
    EventColumns& ev = track.events;
    const size_t n = ev.size();
    const std::vector<uint32_t> order = startOrder(ev);

    // Depth = how many open ranges contain the event. An event that only partly overlaps an
    // open range is not nested in it: it takes the first free lane at or below its depth and
    // marks the track as freely overlapping (two in-flight DataLoader batches alternate between
    // two lanes instead of stepping down a staircase).
    std::vector<uint32_t> laneOfEvent(n);
    std::vector<Timestamp> laneEnd;
    std::vector<Timestamp> openEnds;
    bool nested = true;
    for (uint32_t i : order) {
        const Timestamp s = ev.start[i];
        const Timestamp e = effectiveEnd(s, ev.end[i]);
        std::erase_if(openEnds, [s](Timestamp end) { return end <= s; });
        uint32_t depth = 0;
        for (Timestamp end : openEnds) {
            if (end >= e) ++depth;
            else nested = false;
        }
        uint32_t lane = depth;
        while (lane < laneEnd.size() && laneEnd[lane] > s) ++lane;
        if (lane != depth) nested = false;
        if (lane == laneEnd.size()) laneEnd.push_back(e);
        laneEnd[lane] = e;
        laneOfEvent[i] = lane;
        openEnds.push_back(e);
    }

    // Counting sort by lane, keeping start order inside each lane.
    track.laneBegin.assign(laneEnd.size() + 1, 0);
    for (uint32_t i = 0; i < n; ++i) ++track.laneBegin[laneOfEvent[i] + 1];
    std::partial_sum(track.laneBegin.begin(), track.laneBegin.end(), track.laneBegin.begin());
    std::vector<uint32_t> next(track.laneBegin.begin(), track.laneBegin.end() - 1);
    std::vector<uint32_t> destination(n);
    for (uint32_t i : order) destination[i] = next[laneOfEvent[i]]++;

    bool identity = true;
    for (uint32_t i = 0; i < n && identity; ++i) identity = destination[i] == i;
    if (!identity) {
        permute(ev.start, destination);
        permute(ev.end, destination);
        permute(ev.name, destination);
        permute(ev.correlation, destination);
        permute(ev.detail, destination);
        permute(ev.value, destination);
    }
    track.nested = nested;
}

} // namespace sightline
