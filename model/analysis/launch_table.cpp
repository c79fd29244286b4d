#include "model/analysis/launch_table.h"

#include <algorithm>

namespace sightline {

namespace {

// Dense tables are used while they waste at most this many slots per call (ids need not
// start at 1 or be contiguous: CUPTI shares them with other activity kinds).
constexpr uint64_t kSlotsPerCall = 16;
constexpr uint64_t kDenseSlack = 1 << 20;

} // namespace

void LaunchTable::keep(Entry& slot, const Entry& candidate, const Trace& trace)
{
    if (slot.track == UINT32_MAX || candidate.lane < slot.lane
        || (candidate.lane == slot.lane
            && trace.tracks[candidate.track].events.start[candidate.index]
                < trace.tracks[slot.track].events.start[slot.index]))
        slot = candidate;
}

void LaunchTable::build(const Trace& trace, const std::vector<TrackId>& apiTracks)
{
    // Per process: how many calls carry an id, and the largest id.
    std::unordered_map<uint32_t, std::pair<uint64_t, uint32_t>> sizes;
    for (TrackId id : apiTracks) {
        const Track& track = trace.track(id);
        auto& [count, largest] = sizes[track.key.pid.value];
        for (CorrelationId c : track.events.correlation) {
            if (c.value == 0) continue;
            ++count;
            largest = std::max(largest, c.value);
        }
    }
    for (const auto& [pid, size] : sizes) {
        ProcessCalls& calls = m_byPid[pid];
        if (uint64_t(size.second) <= size.first * kSlotsPerCall + kDenseSlack)
            calls.dense.resize(size_t(size.second) + 1);
    }
    for (TrackId id : apiTracks) {
        const Track& track = trace.track(id);
        if (track.events.correlation.empty()) continue;
        ProcessCalls& calls = m_byPid[track.key.pid.value];
        for (uint32_t lane = 0; lane < track.laneCount(); ++lane) {
            const IndexRange events = track.lane(lane);
            for (uint32_t i = events.begin; i < events.end; ++i) {
                const uint32_t c = track.events.correlation[i].value;
                if (c == 0) continue;
                const Entry candidate {id.value, i, lane};
                keep(calls.dense.empty() ? calls.sparse[c] : calls.dense[c], candidate, trace);
            }
        }
    }
}

std::optional<EventRef> LaunchTable::find(Pid pid, CorrelationId correlation) const
{
    if (correlation.value == 0) return std::nullopt;
    const auto process = m_byPid.find(pid.value);
    if (process == m_byPid.end()) return std::nullopt;
    const ProcessCalls& calls = process->second;
    const Entry* entry = nullptr;
    if (!calls.dense.empty()) {
        if (correlation.value < calls.dense.size()) entry = &calls.dense[correlation.value];
    } else if (const auto found = calls.sparse.find(correlation.value); found != calls.sparse.end()) {
        entry = &found->second;
    }
    if (!entry || entry->track == UINT32_MAX) return std::nullopt;
    return EventRef {TrackId(entry->track), entry->index};
}

} // namespace sightline
