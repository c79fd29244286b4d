// Reading one track of a report a batch at a time, for views of a track too large to hold in
// memory (the Events View of a 200M-event track under the viewer's memory budget). Opening maps
// the file and reads only its structure (strings, descriptors, entities: what formatting an
// event needs) and the footer's list of the track's batches; events are then decoded on
// demand, a batch at a time, never the whole track at once.
//
// An event is named by its stored index in the track: lane-major, the index it has in
// Track::events when the report is read whole. A pager needs a complete report, since only the
// footer finds one track's batches without reading the others. Immutable after open(), so
// several threads may decode through it at once. The structure goes to the caller (the view that
// formats the events): the pager keeps only the track and what its batches are checked against.
#pragma once

#include "model/common/result.h"
#include "model/format/frame_index.h"
#include "model/format/mapped_file.h"
#include "model/trace/trace.h"

#include <atomic>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace sightline {

struct OpenedTrack;

class TrackPager
{
public:
    // Fails with one sentence for a file that is not a report, is damaged, was cut short, or has
    // no track `storedTrack` (its index in the report's track list).
    static Result<OpenedTrack> open(const std::string& path, uint32_t storedTrack);

    // The track, without events.
    const Track& track() const { return m_track; }
    uint64_t eventCount() const { return track().laneBegin.back(); }
    const std::string& path() const { return m_path; }

    // One decoded batch: `events` holds its events as one lane (key and kind as the track's);
    // the first of them has stored index `storedFirst`, and all lie in lane `lane`.
    struct Batch
    {
        const Track& events;
        uint32_t storedFirst = 0;
        uint32_t lane = 0;
    };
    using BatchVisitor = std::function<Status(size_t batch, const Batch&)>;
    using Progress = std::function<void(size_t batchesDone, size_t batches)>;

    // Decodes every batch of the track on `threads` workers (0: all cores) and calls `visit`
    // for each from the worker that decoded it (so several at once, each with its own batch);
    // `batch` numbers them by stored index, 0 to batchCount()-1. Fails with the first failure
    // (a damaged batch or one `visit` returns), or with "cancelled" when `cancel` was set.
    Status forEachBatch(const BatchVisitor& visit, unsigned threads = 0,
        const std::atomic<bool>* cancel = nullptr, const Progress& progress = {}) const;
    size_t batchCount() const { return m_batches.size(); }

    // The events with stored indexes `stored` (each below eventCount(), any order, repeats
    // allowed), in that order, decoding each batch they lie in once (on `threads` workers).
    Result<EventColumns> gather(std::span<const uint32_t> stored, unsigned threads = 0) const;

private:
    TrackPager() = default;
    Status decodeBatch(size_t batch, Track& out, std::string& scratch) const;

    std::string m_path;
    MappedFile m_file;
    Track m_track;
    size_t m_strings = 0, m_descriptors = 0; // what the track's events may name (EventIdLimits)
    uint32_t m_storedTrack = 0;
    std::vector<rep::FrameRef> m_batches; // the track's batches, by stored index
};

struct OpenedTrack
{
    std::unique_ptr<TrackPager> pager;
    // The report's structure with the track as its only track (TrackId 0), without events, and
    // of the descriptor tables only the one its kind's events refer to.
    Trace structure;
};

} // namespace sightline
