#include "../support/random_trace.h"
#include "model/index/lod.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace sightline;

namespace {

struct Expected
{
    double busy = 0;
    uint32_t count = 0;
    Duration longest = -1;
};

Expected bruteForceColumn(const Track& track, IndexRange lane, Timestamp c0, Timestamp c1)
{
    Expected e;
    Duration covered = 0;
    for (uint32_t i = lane.begin; i < lane.end; ++i) {
        const Timestamp s = track.events.start[i], end = track.events.end[i];
        if (!overlaps(s, end, {c0, c1})) continue;
        ++e.count;
        covered += std::max<Duration>(0, std::min(end, c1) - std::max(s, c0));
        e.longest = std::max(e.longest, end - s);
    }
    e.busy = double(covered) / double(c1 - c0);
    return e;
}

void checkLane(const Track& track, uint32_t laneIndex, const LaneLod& lod, TimeRange window, size_t columns)
{
    std::vector<LodColumn> out(columns);
    lod.query(track, track.lane(laneIndex), window, out);
    for (size_t c = 0; c < columns; ++c) {
        __extension__ typedef __int128 WideInt;
        const WideInt span = window.end - window.start;
        const Timestamp c0 = window.start + Timestamp(span * WideInt(c) / WideInt(columns));
        const Timestamp c1 = std::max(window.start + Timestamp(span * WideInt(c + 1) / WideInt(columns)), c0 + 1);
        const Expected e = bruteForceColumn(track, track.lane(laneIndex), c0, c1);
        INFO("column " << c << " [" << c0 << ", " << c1 << ")");
        REQUIRE(out[c].count == e.count);
        REQUIRE(std::abs(out[c].busy - e.busy) < 1e-5);
        if (e.count == 0) REQUIRE(out[c].longest == LodColumn::kNoEvent);
        else REQUIRE(track.duration(out[c].longest) == e.longest);
    }
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
            const LaneLod& lod = trace.indexes[t].lanes[l];
            checkLane(track, l, lod, trace.span, 97);                           // whole span
            const Timestamp a = Timestamp(rng.below(uint64_t(trace.span.end)));
            checkLane(track, l, lod, {a, a + trace.span.duration() / 1000 + 1}, 64);  // zoomed in
            checkLane(track, l, lod, {a, a + 40}, 80);                          // below 1 ns per column
        }
    }
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
        queryTrackLod(track, trace.indexes[t].lanes, trace.span, columns);
        double busy = 0;
        uint32_t count = 0;
        for (const auto& c : columns) {
            busy += c.busy;
            count += c.count;
            REQUIRE(c.busy >= 0);
            REQUIRE(c.busy <= 1);
        }
        REQUIRE(count > 0);  // something is visible on every non-empty row
        if (track.nested) {
            // Lane 0's total busy time over the whole span equals the sum of its durations.
            Duration laneBusy = 0;
            for (uint32_t i = track.lane(0).begin; i < track.lane(0).end; ++i) laneBusy += track.duration(i);
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
}
