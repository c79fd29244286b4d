// The NVTX ranges projected onto the GPUs (model/stats/nvtx_projection.h) as derived tracks of
// the Trace (trace.h), which the row tree shows as "NVTX (projected)" under each GPU, as Nsight
// Systems does. One track per GPU and launching thread holds each of the thread's ranges that
// launched work there, from its work's earliest start to its latest end, laid out lane by lane
// like the thread's own NVTX row (nested ranges nest). Each event keeps its range's text (name)
// and attributes (detail: colour, domain, style), and counts its GPU operations (value); the
// key is an Nvtx key with the thread's pid and tid and the GPU's device. The viewer adds them
// when it opens a report; they are never stored.
#pragma once

#include "model/trace/trace.h"

#include <vector>

namespace sightline::views {

std::vector<Track> projectedNvtxTracks(const Trace& trace);
// Makes them the trace's derived tracks.
void addProjectedNvtxTracks(Trace& trace);
// Whether `id` is one of them.
bool isProjectedNvtxTrack(const Trace& trace, TrackId id);

} // namespace sightline::views
