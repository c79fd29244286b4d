#include "model/events/event_rows.h"

#include "model/common/huge_pages.h"
#include "model/events/event_names.h"
#include "model/events/radix_sort.h"

#include <algorithm>
#include <queue>

namespace sightline {
namespace {

// Rows in start order: a lane's events, or a counter series' samples.
struct RowRun
{
    TrackId track; // of the rows' references (counterSampleRow's for samples)
    IndexRange rows;
    const std::vector<Timestamp>* starts; // by index
    EventRef row(uint32_t i) const { return {track, i}; }
};

IndexRange eventsOfLane(
    const Trace& trace, TrackId track, uint32_t lane, const std::optional<TimeRange>& range, RangeRule rule)
{
    if (range && rule == RangeRule::Overlapping) return trace.windowEvents(track, lane, *range);
    return trace.eventsStartingIn(track, lane, range);
}

// The samples of a counter series overlapping `range`, or starting in it, by `rule`.
IndexRange samplesOf(
    const Trace& trace, uint32_t series, const std::optional<TimeRange>& range, RangeRule rule)
{
    const CounterTimeline& timeline = trace.timelineOf(trace.counterSeries[series]);
    const auto& starts = timeline.starts;
    if (!range) return {0, uint32_t(starts.size())};
    auto firstAtOrAfter = [&](Timestamp t) { return std::lower_bound(starts.begin(), starts.end(), t); };
    auto first = firstAtOrAfter(range->start);
    // Overlapping: the sample running at the range's start counts too.
    if (rule == RangeRule::Overlapping && first != starts.begin()
        && timeline.sampleEnd(size_t(first - starts.begin()) - 1) > range->start)
        --first;
    const auto last = std::max(first, firstAtOrAfter(range->end));
    return {uint32_t(first - starts.begin()), uint32_t(last - starts.begin())};
}

// Every non-empty run of the source: its tracks' lanes in track order then lane order, then
// its counter series.
std::vector<RowRun> rowRuns(const Trace& trace, const EventSource& source)
{
    std::vector<RowRun> runs;
    for (TrackId id : source.tracks) {
        if (id.value >= trace.tracks.size()) continue;
        const Track& track = trace.track(id);
        for (uint32_t lane = 0; lane < track.laneCount(); ++lane) {
            const IndexRange events = eventsOfLane(trace, id, lane, source.range, source.rule);
            if (!events.empty()) runs.push_back({id, events, &track.events.start});
        }
    }
    if (source.counter && *source.counter < trace.counterSeries.size()) {
        const uint32_t series = *source.counter;
        const IndexRange samples = samplesOf(trace, series, source.range, source.rule);
        if (!samples.empty())
            runs.push_back({counterSampleRow(trace, series, 0).track, samples,
                &trace.timelineOf(trace.counterSeries[series]).starts});
    }
    return runs;
}

// The events of `track`'s lanes lying wholly inside [range.start, range.end].
void appendContained(
    const Trace& trace, TrackId id, TimeRange range, EventRef exclude, std::vector<EventRef>& out)
{
    for (uint32_t lane = 0; lane < trace.track(id).laneCount(); ++lane) {
        const IndexRange inside = trace.eventsContainedIn(id, lane, range);
        for (uint32_t i = inside.begin; i < inside.end; ++i)
            if (EventRef {id, i} != exclude) out.push_back({id, i});
    }
}

// The source's explicit list, valid references only, in start order (ties: reference order).
std::vector<EventRef> explicitRows(const Trace& trace, const EventSource& source)
{
    std::vector<EventRef> rows;
    rows.reserve(source.events.size());
    for (EventRef event : source.events)
        if (event.track.value < trace.tracks.size() && event.index < trace.track(event.track).events.size())
            rows.push_back(event);
    auto startOf = [&](EventRef e) { return trace.track(e.track).events.start[e.index]; };
    std::sort(rows.begin(), rows.end(),
        [&](EventRef a, EventRef b) { return startOf(a) != startOf(b) ? startOf(a) < startOf(b) : a < b; });
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    return rows;
}

bool sameThread(const TrackKey& a, const TrackKey& b)
{
    return a.pid == b.pid && a.tid == b.tid && !isGpuKind(b.kind);
}

} // namespace

std::vector<EventRef> collectRows(
    const Trace& trace, const EventSource& source, const std::atomic<bool>* cancel)
{
    if (!source.events.empty()) return explicitRows(trace, source);
    const std::vector<RowRun> runs = rowRuns(trace, source);
    size_t total = 0;
    for (const RowRun& run : runs)
        total += run.rows.size();

    std::vector<EventRef> unordered;
    reserveColumn(unordered, total);
    for (const RowRun& run : runs)
        for (uint32_t i = run.rows.begin; i < run.rows.end; ++i)
            unordered.push_back(run.row(i));
    if (runs.size() <= 1) return unordered; // one run is already in start order
    std::vector<uint64_t> keys;
    reserveColumn(keys, total);
    for (const RowRun& run : runs)
        for (uint32_t i = run.rows.begin; i < run.rows.end; ++i)
            keys.push_back(orderedKey((*run.starts)[i]));

    std::vector<uint32_t> order;
    resizeColumn(order, total);
    for (uint32_t p = 0; p < total; ++p)
        order[p] = p;
    if (!radixSortByKey(keys, order, cancel)) return {};
    keys = {};
    std::vector<EventRef> rows;
    reserveColumn(rows, total);
    for (uint32_t p : order)
        rows.push_back(unordered[p]);
    return rows;
}

std::vector<EventRef> firstRowsByStart(const Trace& trace, const EventSource& source, size_t limit)
{
    if (!source.events.empty()) {
        std::vector<EventRef> rows = explicitRows(trace, source);
        rows.resize(std::min(rows.size(), limit));
        return rows;
    }
    const std::vector<RowRun> runs = rowRuns(trace, source);
    // A min-heap of (next start, run number); the run number breaks ties like collectRows.
    using Head = std::pair<Timestamp, uint32_t>;
    std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
    std::vector<uint32_t> cursor(runs.size());
    for (uint32_t r = 0; r < runs.size(); ++r) {
        cursor[r] = runs[r].rows.begin;
        heads.push({(*runs[r].starts)[cursor[r]], r});
    }
    std::vector<EventRef> rows;
    while (rows.size() < limit && !heads.empty()) {
        const uint32_t r = heads.top().second;
        heads.pop();
        rows.push_back(runs[r].row(cursor[r]));
        if (++cursor[r] < runs[r].rows.end) heads.push({(*runs[r].starts)[cursor[r]], r});
    }
    return rows;
}

size_t countRows(const Trace& trace, const EventSource& source)
{
    if (!source.events.empty()) return explicitRows(trace, source).size();
    size_t total = 0;
    for (const RowRun& run : rowRuns(trace, source))
        total += run.rows.size();
    return total;
}

ContainedEvents eventsInsideRange(const Trace& trace, EventRef range, size_t limit)
{
    ContainedEvents result;
    const Track& rangeTrack = trace.track(range.track);
    const TimeRange window {rangeTrack.events.start[range.index], rangeTrack.events.end[range.index]};
    if (window.empty()) return result;

    std::vector<EventRef> hostEvents;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t)
        if (sameThread(rangeTrack.key, trace.tracks[t].key))
            appendContained(trace, TrackId(t), window, range, hostEvents);
    auto byStart = [&](EventRef a, EventRef b) {
        const Timestamp sa = trace.track(a.track).events.start[a.index];
        const Timestamp sb = trace.track(b.track).events.start[b.index];
        return sa != sb ? sa < sb : a < b;
    };
    std::sort(hostEvents.begin(), hostEvents.end(), byStart);
    result.total = hostEvents.size();

    // The GPU work launched by the first API calls, until the list is full.
    std::vector<EventRef> listed;
    for (const EventRef& event : hostEvents) {
        if (listed.size() >= limit) break;
        listed.push_back(event);
        if (trace.track(event.track).key.kind != TrackKind::CudaApi) continue;
        for (const EventRef& op : trace.correlation.gpuOperations(trace, event)) {
            ++result.total;
            if (listed.size() < limit) listed.push_back(op);
        }
    }
    std::sort(listed.begin(), listed.end(), byStart);
    result.events = std::move(listed);
    return result;
}

} // namespace sightline
