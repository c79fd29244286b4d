// NVTX ranges projected onto the GPUs, as Nsight Systems projects them: a range's GPU work is
// the kernels, memory copies and memsets launched by the CUDA API calls its own thread made
// inside it (the call's start in [range start, range end)); on each GPU the projection runs
// from the earliest start to the latest end of that work. A call counts for every range that
// encloses it, so nested ranges project too. Only ranges that start and end on the same
// thread are projected; marks, and NVTX rows without a thread (annotations an importer put on
// a stream), are not. A runtime call and the driver call nested in it with the same
// correlation id launch their work once.
//
// Cost: one pass over the GPU operations (sorted by correlation id per process), then per
// thread a sort of its calls and ranges and, per range, two binary searches and a span query
// over the thread's launches (a sparse table over blocks of launches): O(events log events)
// overall, threads spread over the cores.
#pragma once

#include "model/trace/trace.h"

#include <string>
#include <vector>

namespace sightline {

struct ProjectedRange
{
    EventRef range; // the NVTX range, on its thread's NVTX track
    DeviceId device;
    TimeRange span; // the earliest start to the latest end of its GPU operations on the device
    uint64_t operations = 0; // kernels, copies and memsets it launched on the device
    uint32_t level = 0; // how many of its thread's ranges enclose it (0: outermost)
    uint32_t children = 0; // how many of its thread's ranges it encloses directly
};

// Every range's projection onto each GPU it launched work on, ordered by range (track, then
// index), then device. `threads` workers (0: one per core).
std::vector<ProjectedRange> projectNvtxRanges(const Trace& trace, unsigned threads = 0);

// How reports name an NVTX range: "domain:text", or the text alone in the default domain.
std::string nvtxRangeName(const Trace& trace, DomainId domain, StringId text);

} // namespace sightline
