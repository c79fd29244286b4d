// A track is one timeline row's events, stored column by column. Events are laid out lane by
// lane ("lane-major"): lane L holds the events [laneBegin[L], laneBegin[L+1]), sorted by start
// and never overlapping, so their ends are sorted too and a window query on a lane is two
// binary searches. For nested rows (push/pop NVTX, runtime -> driver API calls) the lane is the
// nesting depth; rows whose events overlap freely (NVTX start/end ranges) are spread over lanes
// first-fit, so a window query on them is still two binary searches per lane.
#pragma once

#include "model/core/event_kinds.h"
#include "model/core/ids.h"
#include "model/core/time.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace sightline {

// Identifies a track: host tracks use pid/tid (and domain for NVTX), GPU tracks use
// pid/device/context/stream. Unused fields stay zero. `source` names the recording (report,
// host and boot) the track comes from, so that the same pid or GPU of two reports never makes
// the same key; it is given when a trace is opened (Trace::setSource), never stored, and last,
// so that it orders nothing within one trace.
struct TrackKey
{
    TrackKind kind = TrackKind::CudaApi;
    Pid pid;
    Tid tid;
    DomainId domain;
    DeviceId device;
    ContextId context;
    StreamId stream;
    SourceId source;
    friend auto operator<=>(const TrackKey&, const TrackKey&) = default;
};

// The columns. `correlation`, `detail` and `value` are empty for kinds that do not use them.
//  detail: CudaApi -> ApiResult id, Kernels -> KernelLaunch id, Memory -> MemoryOp id,
//          Synchronization -> SyncOp id, Nvtx -> NvtxAttributes id (Trace descriptor tables).
//  value:  Memory -> bytes, OsRuntime -> return value.
struct EventColumns
{
    std::vector<Timestamp> start;
    std::vector<Timestamp> end;
    std::vector<StringId> name;
    std::vector<CorrelationId> correlation;
    std::vector<uint32_t> detail;
    std::vector<int64_t> value;

    size_t size() const { return start.size(); }
    size_t residentBytes() const;
    // Capacity, or size, for n events in the columns a track of `kind` carries.
    void reserve(size_t n, TrackKind kind);
    void resize(size_t n, TrackKind kind);
    friend bool operator==(const EventColumns&, const EventColumns&) = default;
};

struct IndexRange
{
    uint32_t begin = 0;
    uint32_t end = 0;
    uint32_t size() const { return end - begin; }
    bool empty() const { return end == begin; }
    friend bool operator==(IndexRange, IndexRange) = default;
};

struct Track
{
    TrackKey key;
    EventColumns events; // lane-major
    std::vector<uint32_t> laneBegin {0}; // laneCount() + 1 offsets into events
    bool nested = true; // false: events overlap freely, spread over lanes first-fit

    size_t size() const { return events.size(); }
    uint32_t laneCount() const { return uint32_t(laneBegin.size() - 1); }
    IndexRange lane(uint32_t l) const { return {laneBegin[l], laneBegin[l + 1]}; }
    uint32_t laneOf(uint32_t index) const; // the lane (depth) holding an event
    Duration duration(uint32_t i) const { return events.end[i] - events.start[i]; }
};

// From the earliest start to the latest end of a track's events; none for an empty track.
// Each lane's first event starts first and its last ends last, so this is O(lanes).
std::optional<TimeRange> trackSpan(const Track& track);
// The smallest range holding both (`into` grows; an empty optional takes `range`).
void widen(std::optional<TimeRange>& into, TimeRange range);

// A reference to one event: its track and its lane-major index there.
struct EventRef
{
    TrackId track;
    uint32_t index = 0;
    friend auto operator<=>(const EventRef&, const EventRef&) = default;
};

} // namespace sightline
