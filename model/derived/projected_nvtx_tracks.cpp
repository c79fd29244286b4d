#include "model/derived/projected_nvtx_tracks.h"

#include "model/derived/nvtx_projection.h"
#include "model/index/lane_layout.h"

#include <map>
#include <tuple>

namespace sightline {

std::vector<Track> projectedNvtxTracks(const Trace& trace, unsigned threads)
{
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, Track> byGpuAndThread; // (device, pid, tid)
    for (const ProjectedRange& projected : projectNvtxRanges(trace, threads)) {
        const Track& source = trace.track(projected.range.track);
        const uint32_t i = projected.range.index;
        Track& track = byGpuAndThread[{projected.device.value, source.key.pid.value, source.key.tid.value}];
        if (track.events.size() == 0) {
            track.key.kind = TrackKind::Nvtx;
            track.key.pid = source.key.pid;
            track.key.tid = source.key.tid;
            track.key.device = projected.device;
        }
        EventColumns& ev = track.events;
        ev.start.push_back(projected.span.start);
        ev.end.push_back(projected.span.end);
        ev.name.push_back(source.events.name[i]);
        ev.detail.push_back(i < source.events.detail.size() ? source.events.detail[i] : 0);
        ev.value.push_back(int64_t(projected.operations));
    }
    std::vector<Track> tracks;
    tracks.reserve(byGpuAndThread.size());
    for (auto& [key, track] : byGpuAndThread) {
        layOutTrack(track);
        tracks.push_back(std::move(track));
    }
    return tracks;
}

void addProjectedNvtxTracks(Trace& trace, unsigned threads)
{
    trace.setDerivedTracks(projectedNvtxTracks(trace, threads), threads);
}

bool isProjectedNvtxTrack(const Trace& trace, TrackId id)
{
    return trace.isDerived(id) && trace.track(id).key.kind == TrackKind::Nvtx;
}

} // namespace sightline
