#include "views/pagedevents/track_event_order.h"

#include "model/common/huge_pages.h"
#include "model/events/parallel_key_sort.h"

#include <algorithm>
#include <mutex>
#include <queue>

namespace sightline::views {

namespace {

// Whether the event at `index` of a decoded batch is listed.
class NameTest
{
public:
    NameTest(const EventNames& names, const NameMatches* matches)
        : m_names(names)
        , m_matches(matches)
    { }
    bool operator()(const Track& batch, uint32_t index) const
    {
        return !m_matches || m_matches->matches[m_names.key(batch, index)];
    }

private:
    const EventNames& m_names;
    const NameMatches* m_matches;
};

TrackOrder failed(const Status& status)
{
    TrackOrder order;
    if (status.error() == "cancelled")
        order.cancelled = true;
    else
        order.error = QString::fromStdString(status.error());
    return order;
}

// Start and End: each lane is sorted by the value already, so the lanes are merged. Events left
// out by the filter hold -1 (times are never negative).
TrackOrder mergeLanes(const TrackPager& pager, const NameTest& listed, const TrackOrderRequest& request,
    const std::atomic<bool>& cancel, const TrackPager::Progress& progress, unsigned threads)
{
    const bool byEnd = request.column == EventColumn::End;
    std::vector<Timestamp> values;
    resizeColumn(values, pager.eventCount());
    std::atomic<size_t> kept {0};
    const Status read = pager.forEachBatch(
        [&](size_t, const TrackPager::Batch& batch) {
            const EventColumns& ev = batch.events.events;
            size_t n = 0;
            for (uint32_t k = 0; k < ev.size(); ++k) {
                const bool keep = listed(batch.events, k);
                values[batch.storedFirst + k] = keep ? (byEnd ? ev.end[k] : ev.start[k]) : -1;
                n += keep;
            }
            kept += n;
            return Status();
        },
        threads, &cancel, progress);
    if (!read) return failed(read);

    // Each lane's cursor sits on a group of equal values; the group with the smallest (largest,
    // descending) value goes next, lowest lane first among equals, its events in stored order.
    const bool ascending = request.order == Qt::AscendingOrder;
    const Track& track = pager.track();
    struct Cursor
    {
        int64_t begin = 0, end = 0; // the current group, stored indexes [begin, end)
    };
    std::vector<Cursor> cursors(track.laneCount());
    // The next group of lane `l` from stored index `from` on (ascending) or before `from`
    // (descending); empty at the lane's end. Left-out events are stepped over.
    const auto groupAt = [&](uint32_t l, int64_t from) {
        const IndexRange lane = track.lane(l);
        Cursor group;
        if (ascending) {
            int64_t i = from;
            while (i < lane.end && values[size_t(i)] < 0)
                ++i;
            int64_t j = i;
            while (j < lane.end && values[size_t(j)] == values[size_t(i)])
                ++j;
            group = {i, j};
        } else {
            int64_t j = from;
            while (j > lane.begin && values[size_t(j - 1)] < 0)
                --j;
            int64_t i = j;
            while (i > lane.begin && values[size_t(i - 1)] == values[size_t(j - 1)])
                --i;
            group = {i, j};
        }
        return group;
    };
    using Head = std::pair<Timestamp, uint32_t>; // value, lane
    const auto later = [ascending](const Head& a, const Head& b) {
        if (a.first != b.first) return ascending ? a.first > b.first : a.first < b.first;
        return a.second > b.second;
    };
    std::priority_queue<Head, std::vector<Head>, decltype(later)> heads(later);
    for (uint32_t l = 0; l < track.laneCount(); ++l) {
        cursors[l] = groupAt(l, ascending ? track.lane(l).begin : track.lane(l).end);
        if (cursors[l].begin < cursors[l].end) heads.push({values[size_t(cursors[l].begin)], l});
    }
    TrackOrder order;
    order.rows.reserve(kept);
    while (!heads.empty()) {
        const uint32_t l = heads.top().second;
        heads.pop();
        Cursor& cursor = cursors[l];
        for (int64_t i = cursor.begin; i < cursor.end; ++i)
            order.rows.push_back(uint32_t(i));
        cursor = groupAt(l, ascending ? cursor.end : cursor.begin);
        if (cursor.begin < cursor.end) heads.push({values[size_t(cursor.begin)], l});
        if ((order.rows.size() & 0xfffff) == 0 && cancel.load(std::memory_order_relaxed))
            return failed(Status::failure("cancelled"));
    }
    return order;
}

// Duration: a duration below 2^32 ns and the stored index make one key (for descending order,
// the duration's complement, so that equal durations still come in stored order). Left-out
// events get the largest key, and are dropped before the sort.
TrackOrder sortByDuration(const TrackPager& pager, const NameTest& listed, const TrackOrderRequest& request,
    const std::atomic<bool>& cancel, const TrackPager::Progress& progress, unsigned threads)
{
    constexpr uint64_t kLeftOut = UINT64_MAX;
    constexpr uint64_t kPackable = uint64_t(1) << 32;
    const bool ascending = request.order == Qt::AscendingOrder;
    std::vector<uint64_t> keys;
    resizeColumn(keys, pager.eventCount());
    std::vector<std::pair<uint64_t, uint32_t>> wide; // durations of 2^32 ns and more
    std::mutex wideMutex;
    const Status read = pager.forEachBatch(
        [&](size_t, const TrackPager::Batch& batch) {
            const EventColumns& ev = batch.events.events;
            for (uint32_t k = 0; k < ev.size(); ++k) {
                const uint32_t stored = batch.storedFirst + k;
                uint64_t& key = keys[stored];
                key = kLeftOut;
                if (!listed(batch.events, k)) continue;
                const uint64_t duration = uint64_t(std::max<Duration>(0, ev.end[k] - ev.start[k]));
                if (duration >= kPackable) {
                    std::lock_guard lock(wideMutex);
                    wide.emplace_back(duration, stored);
                    continue;
                }
                key = ((ascending ? duration : kPackable - 1 - duration) << 32) | stored;
            }
            return Status();
        },
        threads, &cancel, progress);
    if (!read) return failed(read);
    keys.erase(std::remove(keys.begin(), keys.end(), kLeftOut), keys.end());
    if (!sortKeysInParallel(keys, &cancel, threads)) return failed(Status::failure("cancelled"));
    std::sort(wide.begin(), wide.end(), [ascending](const auto& a, const auto& b) {
        if (a.first != b.first) return ascending ? a.first < b.first : a.first > b.first;
        return a.second < b.second;
    });

    TrackOrder order;
    order.rows.reserve(keys.size() + wide.size());
    const auto appendWide = [&] {
        for (const auto& [duration, stored] : wide)
            order.rows.push_back(stored);
    };
    if (!ascending) appendWide();
    for (uint64_t key : keys)
        order.rows.push_back(uint32_t(key));
    if (ascending) appendWide();
    return order;
}

} // namespace

bool isTrackOrderColumn(EventColumn column)
{
    return column == EventColumn::Start || column == EventColumn::Duration || column == EventColumn::End;
}

TrackOrder orderTrackEvents(const TrackPager& pager, const EventNames& names,
    const TrackOrderRequest& request, const std::atomic<bool>& cancel, const TrackPager::Progress& progress,
    unsigned threads)
{
    NameMatches matches;
    if (!request.filter.isEmpty()) {
        matches = matchNames(names, request.filter);
        if (!matches.error.isEmpty()) return {{}, matches.error, false};
    }
    const NameTest listed(names, request.filter.isEmpty() ? nullptr : &matches);
    try {
        if (request.column == EventColumn::Duration)
            return sortByDuration(pager, listed, request, cancel, progress, threads);
        return mergeLanes(pager, listed, request, cancel, progress, threads);
    } catch (const std::bad_alloc&) {
        return {{},
            QStringLiteral("There is not enough memory to sort this track's %1 events.")
                .arg(pager.eventCount()),
            false};
    }
}

} // namespace sightline::views
