// The NVTX ranges projected onto the GPUs (nvtx_projection.h) as derived tracks of the Trace
// (model/trace/trace.h), never stored. openTrace makes them for a reader that asks
// (ReadOptions::deriveTracks, model/format/report_io.h): the viewer, whose row tree shows them as
// "NVTX (projected)" under each GPU, as Nsight Systems does. One track per GPU and launching thread holds
// each of the thread's ranges that launched work there, from its work's earliest start to its latest end,
// laid out lane by lane like the thread's own NVTX row (nested ranges nest). Each event keeps its range's
// text (name) and attributes (detail: colour, domain, style), and counts its GPU operations (value); the key
// is an Nvtx key with the thread's pid and tid and the GPU's device.
#pragma once

#include "model/trace/trace.h"

#include <vector>

namespace sightline {

// `threads` workers (0: one per core).
std::vector<Track> projectedNvtxTracks(const Trace& trace, unsigned threads = 0);
// Makes them the trace's derived tracks, replacing any it had.
void addProjectedNvtxTracks(Trace& trace, unsigned threads = 0);
// Whether `id` is one of them.
bool isProjectedNvtxTrack(const Trace& trace, TrackId id);

} // namespace sightline
