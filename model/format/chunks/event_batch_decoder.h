// Decodes event batches straight into a Trace's preallocated columns. Batches touch disjoint
// index ranges, so several threads may decode at once. Every id and index is checked before it
// is stored: a damaged batch yields an error sentence, never an out-of-range event.
#pragma once

#include "model/common/result.h"
#include "model/format/report.pb.h"
#include "model/trace/trace.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace sightline {

// How many strings and descriptors the events of a track of one kind may name: what a decoded
// batch is checked against.
struct EventIdLimits
{
    size_t strings = 0;
    size_t descriptors = 0; // of the table the kind's detail column indexes (none: 0)
};
EventIdLimits eventIdLimits(const Trace& tables, TrackKind kind);

// Decodes batch `b` of a track of `kind` into `out` from position `first` on (`out` already
// has room for it), checking every string and descriptor id against `limits`. What
// EventBatchDecoder does for each batch, and what readers of single batches (paging) use.
// `path` and `offset` name the batch in an error sentence.
Status decodeEventColumns(const rep::EventBatch& b, TrackKind kind, const EventIdLimits& limits,
    EventColumns& out, size_t first, const std::string& path, uint64_t offset);

class EventBatchDecoder
{
public:
    EventBatchDecoder(Trace& trace, std::string path);

    // Sizes every track's columns from its lane sizes.
    void allocate();
    // When the Trace holds only some of the stored tracks: slots[stored track] is its index in
    // the Trace, or rep::kUnknownTrack for a track left out, whose batches are then skipped.
    void setTrackSlots(std::vector<uint32_t> slots) { m_slots = std::move(slots); }
    // When lanes hold a run of their stored events only: storedBegin[track][lane] is the stored
    // index of the lane's first event in the Trace (track as in the Trace).
    void setLaneStarts(std::vector<std::vector<uint32_t>> storedBegin)
    {
        m_storedBegin = std::move(storedBegin);
    }
    // Decodes one batch. Thread-safe for distinct batches.
    Status decode(const rep::EventBatch& batch, uint64_t frameOffset);

    // Fails unless every lane received all its events.
    Status checkComplete() const;
    size_t receivedEvents() const;
    std::vector<std::vector<uint32_t>> receivedPerLane() const;

private:
    Status damaged(uint64_t offset, const std::string& what) const;

    Trace& m_trace;
    std::string m_path;
    std::vector<std::unique_ptr<std::atomic<uint32_t>[]>> m_received; // per track, per lane
    std::vector<uint32_t> m_slots; // empty: every stored track is in the Trace, in order
    std::vector<std::vector<uint32_t>> m_storedBegin; // empty: lanes hold all their events
};

} // namespace sightline
