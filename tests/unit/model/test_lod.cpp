// Level-of-detail queries against a direct computation from the events: exact wherever lod.h
// promises it, and within its stated bounds where a column edge may be estimated.
#include "../support/random_trace.h"
#include "model/index/lod.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

using namespace sightline;

namespace {

__extension__ typedef __int128 WideInt;

TimeRange columnOf(TimeRange window, size_t c, size_t columns)
{
    const WideInt span = window.end - window.start;
    const Timestamp c0 = window.start + Timestamp(span * WideInt(c) / WideInt(columns));
    const Timestamp c1 = window.start + Timestamp(span * WideInt(c + 1) / WideInt(columns));
    return {c0, std::max(c1, c0 + 1)};
}

// What the events of a lane overlapping [c0, c1) add up to, read straight from them.
struct Expected
{
    double busy = 0; // share of the column covered
    Duration covered = 0; // the same in nanoseconds
    uint32_t count = 0;
    Duration longest = -1;
};

Expected direct(const Track& track, IndexRange lane, TimeRange column)
{
    Expected e;
    if (column.empty()) return e;
    const auto& start = track.events.start;
    const auto& end = track.events.end;
    // A lane's events are disjoint and sorted, so their effective ends are sorted too.
    uint32_t i = lane.begin, hi = lane.end;
    while (i < hi) {
        const uint32_t mid = i + (hi - i) / 2;
        if (effectiveEnd(start[mid], end[mid]) <= column.start)
            i = mid + 1;
        else
            hi = mid;
    }
    Duration covered = 0;
    for (; i < lane.end && start[i] < column.end; ++i) {
        REQUIRE(overlaps(start[i], end[i], column));
        ++e.count;
        covered += std::max<Duration>(0, std::min(end[i], column.end) - std::max(start[i], column.start));
        e.longest = std::max(e.longest, end[i] - start[i]);
    }
    e.covered = covered;
    e.busy = double(covered) / double(column.duration());
    return e;
}

// The largest block extent a query may cut by estimate (lod.h, "Exactness").
Duration toleranceOf(TimeRange window, size_t columns)
{
    return LaneLod::tolerance(window, columns);
}

// Whether a cut at `t` may be placed by estimate: some block of the lane's pyramid (an aligned
// group of 16 * 8^k events) reaches across `t` and spans at most the tolerance. Only the group
// holding the last event that starts before `t` can reach across it, at each size.
bool estimatedAt(const Track& track, IndexRange lane, Timestamp t, Duration tolerance)
{
    const auto& start = track.events.start;
    const auto& end = track.events.end;
    const auto first = start.begin() + lane.begin, last = start.begin() + lane.end;
    const uint32_t after = uint32_t(std::lower_bound(first, last, t) - start.begin());
    if (tolerance == 0 || after == lane.begin) return false;
    for (uint64_t size = LaneLod::kBlock; size < uint64_t(lane.size()) * LaneLod::kFanOut;
         size *= LaneLod::kFanOut) {
        const uint32_t b = lane.begin + uint32_t((after - 1 - lane.begin) / size * size);
        const uint32_t e = uint32_t(std::min<uint64_t>(b + size, lane.end)) - 1;
        const Timestamp lastEnd = effectiveEnd(start[e], end[e]);
        if (lastEnd > t && lastEnd - start[b] <= tolerance) return true;
    }
    return false;
}

// Checks a lane's columns: exact where no edge of a column may be estimated, within lod.h's
// bounds elsewhere. Returns whether any column was estimated.
bool checkLane(const Track& track, IndexRange lane, const LaneLod& lod, TimeRange window, size_t columns)
{
    std::vector<LodColumn> out(columns);
    lod.query(track, lane, window, out);
    const Duration tolerance = toleranceOf(window, columns);
    bool anyEstimated = false;
    for (size_t c = 0; c < columns; ++c) {
        const TimeRange column = columnOf(window, c, columns);
        const Expected e = direct(track, lane, column);
        const LodColumn& got = out[c];
        INFO("column " << c << " [" << column.start << ", " << column.end << "), tolerance " << tolerance);
        const bool exact = !estimatedAt(track, lane, column.start, tolerance)
            && !estimatedAt(track, lane, column.end, tolerance);
        if (exact) {
            REQUIRE(got.count == e.count);
            REQUIRE(std::abs(got.busy - e.busy) < 1e-5);
            if (e.count == 0)
                REQUIRE(got.longest == LodColumn::kNoEvent);
            else
                REQUIRE(track.duration(got.longest) == e.longest);
            continue;
        }
        // Each edge may move by up to the tolerance: the busy time before it by as much, and
        // the events within it to either side.
        anyEstimated = true;
        const Expected narrow = direct(track, lane, {column.start + tolerance, column.end - tolerance});
        const Expected wide = direct(track, lane, {column.start - tolerance, column.end + tolerance});
        const double gotCovered = double(got.busy) * double(column.duration());
        REQUIRE(gotCovered >= double(narrow.covered) - 1e-5 * double(column.duration()));
        REQUIRE(gotCovered <= double(wide.covered) + 1e-5 * double(column.duration()));
        REQUIRE(got.count >= narrow.count);
        REQUIRE(got.count <= wide.count);
        if (got.count == 0) {
            REQUIRE(got.longest == LodColumn::kNoEvent);
            continue;
        }
        REQUIRE(got.longest >= lane.begin);
        REQUIRE(got.longest < lane.end);
        REQUIRE(overlaps(track.events.start[got.longest], track.events.end[got.longest],
            {column.start - tolerance, column.end + tolerance}));
        REQUIRE(track.duration(got.longest) >= narrow.longest);
    }
    return anyEstimated;
}

// One lane of many short events in bursts, with instants, long gaps and long events among the
// short ones (as a CUDA API row or a busy stream looks from far away).
Track denseLane(uint64_t seed, uint32_t events)
{
    test::Rng rng(seed);
    Track track;
    track.events.start.reserve(events);
    track.events.end.reserve(events);
    Timestamp t = 1000;
    for (uint32_t i = 0; i < events; ++i) {
        const Timestamp gap = rng.chance(1) ? Timestamp(rng.below(3000000)) : Timestamp(rng.below(20));
        const Duration length = rng.chance(1) ? Duration(rng.below(400000))
            : rng.chance(10)                  ? 0
                                              : Duration(rng.below(30));
        const Timestamp s = t + gap;
        track.events.start.push_back(s);
        track.events.end.push_back(s + length);
        t = effectiveEnd(s, s + length);
    }
    track.laneBegin = {0, events};
    return track;
}

TimeRange spanOf(const Track& track)
{
    return {track.events.start.front(), track.events.end.back() + 1};
}

} // namespace

TEST_CASE("level-of-detail columns equal brute force at every zoom")
{
    test::RandomTraceOptions o;
    o.eventsPerTrack = 5000;
    const Trace trace = test::randomTrace(o);
    test::Rng rng(7);
    for (size_t t = 0; t < trace.tracks.size(); ++t) {
        const Track& track = trace.tracks[t];
        for (uint32_t l = 0; l < track.laneCount(); l += 2) {
            LaneLod lod;
            lod.build(track, track.lane(l));
            checkLane(track, track.lane(l), lod, trace.span, 97); // whole span
            const Timestamp a = Timestamp(rng.below(uint64_t(trace.span.end)));
            checkLane(track, track.lane(l), lod, {a, a + trace.span.duration() / 1000 + 1}, 64); // zoomed in
            checkLane(track, track.lane(l), lod, {a, a + 40}, 80); // below 1 ns per column
        }
    }
}

TEST_CASE("level of detail over many events per column stays within its bounds")
{
    for (uint64_t seed = 1; seed <= 3; ++seed) {
        const Track track = denseLane(seed, 150000);
        LaneLod lod;
        lod.build(track, track.lane(0));
        const TimeRange span = spanOf(track);
        test::Rng rng(seed + 100);
        bool estimated = false;
        for (size_t columns : {1, 2, 7, 40, 333, 1920})
            estimated |= checkLane(track, track.lane(0), lod, span, columns);
        for (int q = 0; q < 60; ++q) {
            const Duration length
                = 1 + Duration(rng.below(uint64_t(span.duration() / Duration(1 + rng.below(20000)))));
            // Every other window starts inside a burst, so its first edge is estimated too.
            const Timestamp a = q % 2
                ? span.start - 1000 + Timestamp(rng.below(uint64_t(span.duration())))
                : track.events.start[rng.below(track.size())] + Timestamp(rng.below(10));
            estimated |= checkLane(track, track.lane(0), lod, {a, a + length}, 1 + rng.below(600));
        }
        REQUIRE(estimated); // the bounds, not only exactness, were put to the test
    }
}

TEST_CASE("level of detail is exact while columns hold few events, long events among short ones included")
{
    const Track track = denseLane(9, 60000);
    LaneLod lod;
    lod.build(track, track.lane(0));
    std::vector<uint32_t> longEvents;
    for (uint32_t i = 0; i < track.size(); ++i)
        if (track.duration(i) > 20000) longEvents.push_back(i);
    REQUIRE(longEvents.size() > 100);
    test::Rng rng(11);
    for (int q = 0; q < 200; ++q) {
        // Around a long event every other time: its block is then cut at it.
        const uint32_t i
            = q % 2 ? longEvents[rng.below(longEvents.size())] : uint32_t(rng.below(track.size()));
        // Columns of at most about 80 ns: narrower than any 16 of this lane's events.
        const Duration length = 1000 + Duration(rng.below(20000));
        const Timestamp a = track.events.start[i] - Timestamp(rng.below(uint64_t(length)));
        const size_t columns = 256 + rng.below(512);
        REQUIRE_FALSE(checkLane(track, track.lane(0), lod, {a, a + length}, columns));
    }
}

TEST_CASE("level of detail keeps a lane's busy time across its columns")
{
    const Track track = denseLane(5, 100000);
    LaneLod lod;
    lod.build(track, track.lane(0));
    const TimeRange span = spanOf(track);
    for (size_t columns : {3, 50, 1000}) {
        std::vector<LodColumn> out(columns);
        lod.query(track, track.lane(0), span, out);
        double busy = 0;
        for (size_t c = 0; c < columns; ++c)
            busy += double(out[c].busy) * double(columnOf(span, c, columns).duration());
        Duration expected = 0;
        for (uint32_t i = 0; i < track.size(); ++i)
            expected += track.duration(i);
        // No block reaches across the outer edges, and inner estimates cancel out; only the
        // float each column's share is kept in rounds.
        REQUIRE(std::abs(busy - double(expected)) <= 1e-6 * double(span.duration()));
    }
}

TEST_CASE("level of detail compares durations beyond 32 bits exactly")
{
    // Seconds-long events (longer than a block keeps in 32 bits) among short ones, the longest
    // of them not first in its block.
    Track track;
    Timestamp t = 0;
    const Duration seconds[] = {5000000000, 9000000000, 7000000000, 4294967296, 4294967295, 6000000000};
    for (uint32_t i = 0; i < 3000; ++i) {
        const Duration length = i % 97 == 5 ? seconds[(i / 97) % 6] + Duration(i) : Duration(i % 13);
        track.events.start.push_back(t);
        track.events.end.push_back(t + length);
        t = effectiveEnd(t, t + length) + Duration(i % 7);
    }
    track.laneBegin = {0, uint32_t(track.size())};
    LaneLod lod;
    lod.build(track, track.lane(0));
    const TimeRange span = spanOf(track);
    for (size_t columns : {1, 5, 64, 1000})
        checkLane(track, track.lane(0), lod, span, columns);
    checkLane(
        track, track.lane(0), lod, {span.start + span.duration() / 3, span.start + span.duration() / 2}, 300);
}

TEST_CASE("track level of detail: a nested row is described by its outermost lane")
{
    test::RandomTraceOptions o;
    o.eventsPerTrack = 3000;
    const Trace trace = test::randomTrace(o);
    for (size_t t = 0; t < trace.tracks.size(); ++t) {
        const Track& track = trace.tracks[t];
        if (track.size() == 0) continue;
        std::vector<LodColumn> columns(200);
        trace.trackLod(TrackId(uint32_t(t)), trace.span, columns);
        double busy = 0;
        uint32_t count = 0;
        for (const auto& c : columns) {
            busy += c.busy;
            count += c.count;
            REQUIRE(c.busy >= 0);
            REQUIRE(c.busy <= 1);
        }
        REQUIRE(count > 0); // something is visible on every non-empty row
        if (track.nested) {
            // Lane 0's total busy time over the whole span equals the sum of its durations.
            Duration laneBusy = 0;
            for (uint32_t i = track.lane(0).begin; i < track.lane(0).end; ++i)
                laneBusy += track.duration(i);
            const double columnWidth = double(trace.span.duration()) / 200.0;
            REQUIRE(std::abs(busy * columnWidth - double(laneBusy)) <= 0.01 * double(laneBusy) + 200 * 2);
        }
    }
}

TEST_CASE("level of detail of empty lanes and windows is empty")
{
    Track track;
    LaneLod lod;
    lod.build(track, {0, 0});
    std::vector<LodColumn> out(10);
    lod.query(track, {0, 0}, {0, 100}, out);
    for (const auto& c : out) {
        CHECK(c.count == 0);
        CHECK(c.busy == 0);
    }
    const Track dense = denseLane(3, 1000);
    LaneLod denseLod;
    denseLod.build(dense, dense.lane(0));
    denseLod.query(dense, dense.lane(0), {500, 500}, out); // an empty window
    for (const auto& c : out)
        CHECK(c.count == 0);
    denseLod.query(dense, dense.lane(0), {-5000, 0}, out); // before the first event
    for (const auto& c : out)
        CHECK(c.count == 0);
}
