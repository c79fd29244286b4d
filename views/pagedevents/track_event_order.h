// The order in which the Events View lists a track too large to hold in memory: its events'
// stored indexes (TrackPager), filtered by name and sorted by a column, computed from the
// report a batch at a time. The result takes 4 bytes a listed event; the work peaks at
// kOrderBytesPerEvent per event of the track, and the decoded batches are let go as they are
// read, so a 200M-event track sorts in a few GB where holding its events would take 36 B each.
//
// Start and End merge the track's lanes: each lane is already sorted by both (its events never
// overlap), so no sort is needed, and equal times come lane by lane in stored order, as in the
// in-memory Events View (for End, whose ties it orders by start, the same whenever equal ends
// lie in one lane). Duration packs each duration below 2^32 ns (4.3 s) with the stored index
// into one 64-bit key, sorted on every core (parallel_key_sort.h; longer ones are sorted apart,
// at 16 bytes each); equal durations then follow stored order (lane, then start), which for a
// one-lane track is the in-memory view's start order. Other columns are not offered for such
// tracks.
#pragma once

#include "model/format/paging/track_pager.h"
#include "views/events/event_query.h"

#include <QString>
#include <atomic>
#include <vector>

namespace sightline::views {

struct TrackOrderRequest
{
    EventColumn column = EventColumn::Start;
    Qt::SortOrder order = Qt::AscendingOrder;
    NameFilter filter;
    friend bool operator==(const TrackOrderRequest&, const TrackOrderRequest&) = default;
};

struct TrackOrder
{
    std::vector<uint32_t> rows; // stored indexes, in listing order
    QString error; // one sentence: an unusable filter, or the report failing to read
    bool cancelled = false;
};

// Whether a track too large to hold can be listed in the order of `column`.
bool isTrackOrderColumn(EventColumn column);

// The most memory ordering takes, per event of the track.
constexpr uint64_t kOrderBytesPerEvent = 16;

// Lists the track's events matching the filter in the requested order. `names` is built over
// the track's structure (OpenedTrack::structure). `progress` follows the reading of the
// batches (most of the work), on `threads` workers (0: all cores).
TrackOrder orderTrackEvents(const TrackPager& pager, const EventNames& names,
    const TrackOrderRequest& request, const std::atomic<bool>& cancel,
    const TrackPager::Progress& progress = {}, unsigned threads = 0);

} // namespace sightline::views
