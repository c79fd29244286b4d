#include "model/trace/correlation_index.h"

#include "model/trace/trace.h"

#include <algorithm>
#include <numeric>

namespace sightline {

void CorrelationIndex::build(const Trace& trace)
{
    m_apiTracksByPid.clear();
    m_gpuTracksByPid.clear();
    m_unsorted.clear();
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
        const Track& track = trace.tracks[t];
        if (!hasCorrelation(track.key.kind)) continue;
        auto& byPid = track.key.kind == TrackKind::CudaApi ? m_apiTracksByPid : m_gpuTracksByPid;
        byPid[track.key.pid.value].push_back(TrackId(t));
        const auto& corr = track.events.correlation;
        for (uint32_t l = 0; l < track.laneCount(); ++l) {
            const IndexRange lane = track.lane(l);
            if (std::is_sorted(corr.begin() + lane.begin, corr.begin() + lane.end)) continue;
            LaneOrder order {TrackId(t), l, std::vector<uint32_t>(lane.size())};
            std::iota(order.byCorrelation.begin(), order.byCorrelation.end(), lane.begin);
            std::stable_sort(order.byCorrelation.begin(), order.byCorrelation.end(),
                [&](uint32_t a, uint32_t b) { return corr[a] < corr[b]; });
            m_unsorted.push_back(std::move(order));
        }
    }
}

const CorrelationIndex::LaneOrder* CorrelationIndex::unsortedLane(TrackId track, uint32_t lane) const
{
    auto it = std::lower_bound(m_unsorted.begin(), m_unsorted.end(), std::pair(track, lane),
        [](const LaneOrder& o, std::pair<TrackId, uint32_t> key) {
            return std::pair(o.track, o.lane) < key;
        });
    return it != m_unsorted.end() && it->track == track && it->lane == lane ? &*it : nullptr;
}

void CorrelationIndex::findAll(const Trace& trace, const std::vector<TrackId>& tracks, CorrelationId id,
    std::vector<EventRef>& out) const
{
    for (TrackId t : tracks) {
        const Track& track = trace.track(t);
        const auto& corr = track.events.correlation;
        for (uint32_t l = 0; l < track.laneCount(); ++l) {
            const IndexRange lane = track.lane(l);
            if (const LaneOrder* order = unsortedLane(t, l)) {
                auto [lo, hi] = std::equal_range(
                    order->byCorrelation.begin(), order->byCorrelation.end(), id, [&](auto a, auto b) {
                        if constexpr (std::is_same_v<decltype(a), CorrelationId>)
                            return a < corr[b];
                        else
                            return corr[a] < b;
                    });
                for (auto it = lo; it != hi; ++it)
                    out.push_back({t, *it});
                continue;
            }
            auto [lo, hi] = std::equal_range(corr.begin() + lane.begin, corr.begin() + lane.end, id);
            for (auto it = lo; it != hi; ++it)
                out.push_back({t, uint32_t(it - corr.begin())});
        }
    }
}

std::optional<EventRef> CorrelationIndex::launchingCall(const Trace& trace, EventRef gpuOperation) const
{
    const Track& track = trace.track(gpuOperation.track);
    if (!hasCorrelation(track.key.kind) || track.key.kind == TrackKind::CudaApi) return std::nullopt;
    return apiCall(trace, track.key.pid, track.events.correlation[gpuOperation.index]);
}

std::optional<EventRef> CorrelationIndex::apiCall(const Trace& trace, Pid pid, CorrelationId id) const
{
    auto tracks = m_apiTracksByPid.find(pid.value);
    if (id.value == 0 || tracks == m_apiTracksByPid.end()) return std::nullopt;
    std::vector<EventRef> calls;
    findAll(trace, tracks->second, id, calls);
    if (calls.empty()) return std::nullopt;
    return *std::min_element(calls.begin(), calls.end(), [&](EventRef a, EventRef b) {
        return trace.track(a.track).laneOf(a.index) < trace.track(b.track).laneOf(b.index);
    });
}

std::vector<EventRef> CorrelationIndex::gpuOperations(const Trace& trace, EventRef apiCall) const
{
    std::vector<EventRef> ops;
    const Track& track = trace.track(apiCall.track);
    if (track.key.kind != TrackKind::CudaApi) return ops;
    const CorrelationId id = track.events.correlation[apiCall.index];
    auto tracks = m_gpuTracksByPid.find(track.key.pid.value);
    if (id.value == 0 || tracks == m_gpuTracksByPid.end()) return ops;
    findAll(trace, tracks->second, id, ops);
    return ops;
}

size_t CorrelationIndex::residentBytes() const
{
    size_t bytes = m_unsorted.capacity() * sizeof(LaneOrder);
    for (const auto& o : m_unsorted)
        bytes += o.byCorrelation.capacity() * sizeof(uint32_t);
    for (const auto* map : {&m_apiTracksByPid, &m_gpuTracksByPid})
        for (const auto& [pid, tracks] : *map)
            bytes += 32 + tracks.capacity() * sizeof(TrackId);
    return bytes;
}

} // namespace sightline
