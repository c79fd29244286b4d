// The Events View's query logic on a generated report, checked against brute force: listing
// the events of some rows (and a range), the radix sort, filtering by substring and regex,
// sorting by every column, and the events inside an NVTX range.
#include "events_test_support.h"
#include "model/events/event_rows.h"
#include "model/events/radix_sort.h"
#include "model/index/lane_query.h"
#include "timeline_fixture.h"
#include "views/events/event_query.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <set>

using namespace sightline;
using namespace sightline::testing;
using namespace sightline::views;

namespace {

Timestamp startOf(const Trace& trace, EventRef e)
{
    return trace.track(e.track).events.start[e.index];
}
Duration durationOf(const Trace& trace, EventRef e)
{
    return trace.track(e.track).duration(e.index);
}

std::vector<TrackId> allTracks(const Trace& trace)
{
    std::vector<TrackId> tracks;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t)
        tracks.push_back(TrackId(t));
    return tracks;
}

} // namespace

TEST_CASE("radix sort orders by key and keeps equal keys in input order")
{
    std::mt19937_64 random(7);
    std::vector<uint64_t> keys(50000);
    for (uint64_t& k : keys)
        k = random() % 1000 + ((random() % 3) << 40); // many ties, some high digits
    std::vector<uint32_t> rows(keys.size());
    for (uint32_t i = 0; i < rows.size(); ++i)
        rows[i] = i;
    std::vector<std::pair<uint64_t, uint32_t>> expected;
    for (uint32_t i = 0; i < keys.size(); ++i)
        expected.push_back({keys[i], i});
    std::stable_sort(expected.begin(), expected.end(), [](auto a, auto b) { return a.first < b.first; });

    REQUIRE(radixSortByKey(keys, rows));
    for (size_t i = 0; i < rows.size(); ++i) {
        REQUIRE(keys[i] == expected[i].first);
        REQUIRE(rows[i] == expected[i].second);
    }
    CHECK(orderedKey(int64_t(-5)) < orderedKey(int64_t(3)));
    CHECK(orderedKey(0.5) < orderedKey(2.0));

    std::atomic<bool> cancel {true};
    CHECK_FALSE(radixSortByKey(keys, rows, &cancel));
}

TEST_CASE("listing a set of rows gives each of their events once, in start order")
{
    const auto trace = generatedTrace();
    EventSource source;
    source.tracks = tracksOfKind(*trace, TrackKind::Kernels);
    const auto memory = tracksOfKind(*trace, TrackKind::Memory);
    source.tracks.insert(source.tracks.end(), memory.begin(), memory.end());

    const std::vector<EventRef> rows = collectRows(*trace, source);
    const std::vector<EventRef> expected = allEventsOf(*trace, source.tracks);
    REQUIRE(rows.size() == expected.size());
    REQUIRE(
        std::set<EventRef>(rows.begin(), rows.end()) == std::set<EventRef>(expected.begin(), expected.end()));
    for (size_t i = 1; i < rows.size(); ++i)
        REQUIRE(startOf(*trace, rows[i - 1]) <= startOf(*trace, rows[i]));

    // The cheap first screen is the start of the same list.
    const std::vector<EventRef> first = firstRowsByStart(*trace, source, 300);
    REQUIRE(first.size() == 300);
    CHECK(std::equal(first.begin(), first.end(), rows.begin()));
    CHECK(countRows(*trace, source) == rows.size());
}

TEST_CASE("a time range limits the list to overlapping events, or to events starting inside it")
{
    const auto trace = generatedTrace();
    EventSource source;
    source.tracks = allTracks(*trace);
    const TimeRange range {
        trace->span.start + trace->span.duration() / 3, trace->span.start + trace->span.duration() / 2};
    source.range = range;

    source.rule = RangeRule::Overlapping;
    const std::vector<EventRef> overlapping = collectRows(*trace, source);
    source.rule = RangeRule::StartingInside;
    const std::vector<EventRef> startingInside = collectRows(*trace, source);

    size_t overlapCount = 0, startCount = 0;
    for (const EventRef& e : allEventsOf(*trace, source.tracks)) {
        const Track& t = trace->track(e.track);
        overlapCount += overlaps(t.events.start[e.index], t.events.end[e.index], range) ? 1 : 0;
        startCount += range.contains(t.events.start[e.index]) ? 1 : 0;
    }
    CHECK(overlapping.size() == overlapCount);
    CHECK(startingInside.size() == startCount);
    CHECK(startCount > 0);
    CHECK(overlapCount > startCount);
}

TEST_CASE("sorting by duration, largest first, puts the longest event first")
{
    const auto trace = generatedTrace();
    const EventCells cells(*trace);
    const std::vector<EventRef> base = collectRows(*trace, {allTracks(*trace), {}, {}});

    const QueryOutcome sorted = runEventQuery(cells, base, {{}, EventColumn::Duration, Qt::DescendingOrder});
    REQUIRE(sorted.rows.size() == base.size());
    Duration longest = 0;
    for (const EventRef& e : base)
        longest = std::max(longest, durationOf(*trace, e));
    CHECK(durationOf(*trace, sorted.rows.front()) == longest);
    for (size_t i = 1; i < sorted.rows.size(); ++i) {
        const Duration a = durationOf(*trace, sorted.rows[i - 1]), b = durationOf(*trace, sorted.rows[i]);
        REQUIRE(a >= b);
        if (a == b) REQUIRE(startOf(*trace, sorted.rows[i - 1]) <= startOf(*trace, sorted.rows[i])); // stable
    }
}

TEST_CASE("every column sorts both ways, with rows lacking a value last")
{
    const auto trace = generatedTrace(20000);
    const EventCells cells(*trace);
    const std::vector<EventRef> base = collectRows(*trace, {allTracks(*trace), {}, {}});
    for (int c = 0; c < kEventColumnCount; ++c)
        for (Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            const auto column = EventColumn(c);
            INFO("column " << columnTitle(column).toStdString() << ", order " << int(order));
            const QueryOutcome sorted = runEventQuery(cells, base, {{}, column, order});
            REQUIRE(sorted.rows.size() == base.size());
            REQUIRE(std::set<EventRef>(sorted.rows.begin(), sorted.rows.end()).size() == base.size());
            bool missingSeen = false;
            for (size_t i = 0; i < sorted.rows.size(); ++i) {
                const EventRef e = sorted.rows[i];
                const bool has = columnApplies(column, trace->track(e.track).key.kind)
                    && !cells.display(e, column).empty();
                if (!has)
                    missingSeen = true;
                else
                    REQUIRE_FALSE(missingSeen);
                if (i == 0 || !has || !columnSpec(column).numeric) continue;
                const EventRef p = sorted.rows[i - 1];
                const auto a = cells.number(p, column), b = cells.number(e, column);
                if (a && b) REQUIRE((order == Qt::AscendingOrder ? *a <= *b : *a >= *b));
            }
        }
}

TEST_CASE("sorting by name orders names case-insensitively")
{
    const auto trace = generatedTrace();
    const EventCells cells(*trace);
    const std::vector<EventRef> base
        = collectRows(*trace, {tracksOfKind(*trace, TrackKind::CudaApi), {}, {}});
    const QueryOutcome sorted = runEventQuery(cells, base, {{}, EventColumn::Name, Qt::AscendingOrder});
    REQUIRE(sorted.rows.size() == base.size());
    for (size_t i = 1; i < sorted.rows.size(); ++i) {
        const QString a = QString::fromStdString(nameOf(*trace, sorted.rows[i - 1]));
        const QString b = QString::fromStdString(nameOf(*trace, sorted.rows[i]));
        REQUIRE(a.compare(b, Qt::CaseInsensitive) <= 0);
    }
}

TEST_CASE("a substring filter keeps exactly the events whose names contain it")
{
    const auto trace = generatedTrace();
    const EventCells cells(*trace);
    const auto tracks = allTracks(*trace);
    const std::vector<EventRef> base = collectRows(*trace, {tracks, {}, {}});
    for (const char* pattern : {"gemm", "MEMCPY", "cudaLaunch", "no such name anywhere"}) {
        INFO(pattern);
        const QueryOutcome result = runEventQuery(
            cells, base, {{QString::fromLatin1(pattern), false}, EventColumn::Start, Qt::AscendingOrder});
        size_t expected = 0;
        for (const EventRef& e : base)
            expected += containsCaseless(nameOf(*trace, e), pattern) ? 1 : 0;
        CHECK(result.rows.size() == expected);
        for (const EventRef& e : result.rows)
            REQUIRE(containsCaseless(nameOf(*trace, e), pattern));
        for (size_t i = 1; i < result.rows.size(); ++i)
            REQUIRE(startOf(*trace, result.rows[i - 1]) <= startOf(*trace, result.rows[i]));
    }
}

TEST_CASE("a regular expression filter matches names, and a broken one is reported")
{
    const auto trace = generatedTrace();
    const EventCells cells(*trace);
    const std::vector<EventRef> base
        = collectRows(*trace, {tracksOfKind(*trace, TrackKind::CudaApi), {}, {}});
    const QueryOutcome result = runEventQuery(cells, base,
        {{QStringLiteral("^cuda(Memcpy|Memset)"), true}, EventColumn::Start, Qt::AscendingOrder});
    size_t expected = 0;
    for (const EventRef& e : base) {
        const std::string name = nameOf(*trace, e);
        expected += name.rfind("cudaMemcpy", 0) == 0 || name.rfind("cudaMemset", 0) == 0 ? 1 : 0;
    }
    CHECK(expected > 0);
    CHECK(result.rows.size() == expected);

    const QueryOutcome broken = runEventQuery(
        cells, base, {{QStringLiteral("gemm("), true}, EventColumn::Start, Qt::AscendingOrder});
    CHECK(broken.rows.empty());
    CHECK(broken.error.contains(QStringLiteral("gemm(")));
}

TEST_CASE("an NVTX range contains the calls on its thread inside it and the GPU work they launched")
{
    const auto trace = generatedTrace();
    // An outer range (depth 0) with a decent amount inside.
    std::optional<EventRef> range;
    ContainedEvents contained;
    for (TrackId id : tracksOfKind(*trace, TrackKind::Nvtx)) {
        const Track& t = trace->track(id);
        for (uint32_t i = t.lane(0).begin; i < t.lane(0).end && !range; ++i) {
            contained = eventsInsideRange(*trace, {id, i}, 100000);
            if (contained.events.size() > 5) range = EventRef {id, i};
        }
        if (range) break;
    }
    REQUIRE(range);
    const Track& rangeTrack = trace->track(range->track);
    const TimeRange window {rangeTrack.events.start[range->index], rangeTrack.events.end[range->index]};
    bool sawGpu = false;
    for (const EventRef& e : contained.events) {
        REQUIRE(e != *range);
        const Track& t = trace->track(e.track);
        if (isGpuKind(t.key.kind)) {
            sawGpu = true;
            REQUIRE(t.key.pid == rangeTrack.key.pid);
            continue;
        }
        REQUIRE(t.key.tid == rangeTrack.key.tid);
        REQUIRE(t.events.start[e.index] >= window.start);
        REQUIRE(t.events.end[e.index] <= window.end);
    }
    CHECK(sawGpu);
    CHECK(contained.total == contained.events.size());

    // The limit caps the list but not the count.
    const ContainedEvents capped = eventsInsideRange(*trace, *range, 3);
    CHECK(capped.events.size() == 3);
    CHECK(capped.total >= 3);
}
