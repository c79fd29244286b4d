#include "model/derived/overview_tracks.h"

#include "model/common/parallel_for.h"

#include <algorithm>
#include <unordered_map>

namespace sightline {

Duration overviewWidth(TimeRange span)
{
    return std::max<Duration>(1, span.duration() / kOverviewColumns);
}

namespace {

// Appends event `from` of `source` to `out` with the given times.
void appendStandIn(
    const EventColumns& source, uint32_t from, Timestamp start, Timestamp end, EventColumns& out)
{
    out.start.push_back(start);
    out.end.push_back(end);
    out.name.push_back(source.name[from]);
    if (!source.correlation.empty()) out.correlation.push_back(CorrelationId()); // a picture links nothing
    if (!source.detail.empty()) out.detail.push_back(source.detail[from]);
    if (!source.value.empty()) out.value.push_back(source.value[from]);
}

// Copies the descriptors a kind's stand-ins use from `from` into `to`, renumbering them in
// order of first use.
template <class Descriptor>
void keepUsed(std::vector<uint32_t>& detail, const std::vector<Descriptor>& from, std::vector<Descriptor>& to,
    std::unordered_map<uint32_t, uint32_t>& renumbered)
{
    for (uint32_t& id : detail) {
        const auto [at, added] = renumbered.try_emplace(id, uint32_t(to.size()));
        if (added) to.push_back(from[id]);
        id = at->second;
    }
}

} // namespace

Track overviewTrack(const Track& track, Duration width)
{
    Track out;
    out.key = track.key;
    out.nested = track.nested;
    const EventColumns& ev = track.events;
    for (uint32_t l = 0; l < track.laneCount(); ++l) {
        const IndexRange lane = track.lane(l);
        uint32_t i = lane.begin;
        while (i < lane.end) {
            if (track.duration(i) >= width) {
                appendStandIn(ev, i, ev.start[i], ev.end[i], out.events);
                ++i;
                continue;
            }
            const Timestamp runStart = ev.start[i];
            Duration busy = 0;
            uint32_t longest = i;
            for (; i < lane.end && track.duration(i) < width && ev.start[i] - runStart < width; ++i) {
                busy += track.duration(i);
                if (track.duration(i) > track.duration(longest)) longest = i;
            }
            appendStandIn(ev, longest, runStart, runStart + busy, out.events);
        }
        out.laneBegin.push_back(uint32_t(out.events.size()));
    }
    return out;
}

Overview buildOverview(const Trace& trace)
{
    Overview overview;
    overview.tracks.resize(trace.tracks.size());
    const std::optional<TimeRange> span = trace.dataSpan();
    const Duration width = span ? overviewWidth(*span) : 1;
    parallelFor(overview.tracks.size(), [&](size_t t) {
        overview.tracks[t] = overviewTrack(trace.tracks[t], width);
        return true;
    });
    Trace& tables = overview.descriptors;
    std::unordered_map<uint32_t, uint32_t> renumbered[kTrackKindCount];
    for (Track& track : overview.tracks) {
        std::vector<uint32_t>& detail = track.events.detail;
        auto& ids = renumbered[size_t(track.key.kind)];
        switch (track.key.kind) {
        case TrackKind::CudaApi:
            keepUsed(detail, trace.apiResults, tables.apiResults, ids);
            break;
        case TrackKind::Kernels:
            keepUsed(detail, trace.kernelLaunches, tables.kernelLaunches, ids);
            break;
        case TrackKind::Memory:
            keepUsed(detail, trace.memoryOps, tables.memoryOps, ids);
            break;
        case TrackKind::Synchronization:
            keepUsed(detail, trace.syncOps, tables.syncOps, ids);
            break;
        case TrackKind::Nvtx:
            keepUsed(detail, trace.nvtxAttributes, tables.nvtxAttributes, ids);
            break;
        case TrackKind::OsRuntime:
            break;
        }
    }
    return overview;
}

} // namespace sightline
