#include "../support/random_trace.h"
#include "model/index/lane_query.h"
#include "model/trace/trace.h"

#include <algorithm>
#include <catch2/catch.hpp>

using namespace sightline;

namespace {

std::vector<uint32_t> bruteForce(const Track& track, TimeRange w)
{
    std::vector<uint32_t> out;
    if (w.empty()) return out;
    for (uint32_t i = 0; i < track.size(); ++i)
        if (overlaps(track.events.start[i], track.events.end[i], w)) out.push_back(i);
    return out;
}

// Every event of a track overlapping `w`, through the Trace's window query of each lane.
std::vector<uint32_t> traceWindow(const Trace& trace, TrackId track, TimeRange w)
{
    std::vector<uint32_t> out;
    for (uint32_t lane = 0; lane < trace.track(track).laneCount(); ++lane) {
        const IndexRange r = trace.windowEvents(track, lane, w);
        for (uint32_t i = r.begin; i < r.end; ++i)
            out.push_back(i);
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The same over a bare track, lane by lane.
std::vector<uint32_t> trackWindow(const Track& track, TimeRange w)
{
    std::vector<uint32_t> out;
    for (uint32_t lane = 0; lane < track.laneCount(); ++lane) {
        const IndexRange r = laneWindow(track, lane, w);
        for (uint32_t i = r.begin; i < r.end; ++i)
            out.push_back(i);
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

TEST_CASE("window queries equal brute force on random traces, nested and free")
{
    test::Rng rng(42);
    for (uint64_t seed = 1; seed <= 3; ++seed) {
        test::RandomTraceOptions o;
        o.seed = seed;
        o.eventsPerTrack = 1500;
        const Trace trace = test::randomTrace(o);
        bool sawFree = false;
        for (size_t t = 0; t < trace.tracks.size(); ++t) {
            const Track& track = trace.tracks[t];
            sawFree |= !track.nested;
            for (int q = 0; q < 200; ++q) {
                const Timestamp a = Timestamp(rng.below(uint64_t(trace.span.end + 10)));
                const Timestamp len = q % 10 == 0
                    ? 0
                    : Timestamp(rng.below(uint64_t(trace.span.duration() / (1 + rng.below(1000)) + 1)));
                const TimeRange w {a, a + len};
                REQUIRE(traceWindow(trace, TrackId(uint32_t(t)), w) == bruteForce(track, w));
            }
        }
        REQUIRE(sawFree);
    }
}

TEST_CASE("window queries handle instants, identical intervals and edges")
{
    Track track;
    track.key.kind = TrackKind::Nvtx;
    // Lane 0 only: [0,10), instant at 10, [10,20), [20,20) instant, [25,30).
    track.events.start = {0, 10, 11, 20, 25};
    track.events.end = {10, 10, 20, 20, 30};
    track.events.name.assign(5, StringId());
    track.laneBegin = {0, 5};
    auto query = [&](Timestamp a, Timestamp b) { return trackWindow(track, {a, b}); };
    CHECK(query(10, 11) == std::vector<uint32_t> {1}); // the instant at 10 only: [0,10) ends at 10
    CHECK(query(9, 10) == std::vector<uint32_t> {0});
    CHECK(query(20, 21) == std::vector<uint32_t> {3});
    CHECK(query(0, 100) == std::vector<uint32_t> {0, 1, 2, 3, 4});
    CHECK(query(30, 40).empty());
    CHECK(query(5, 5).empty()); // an empty window overlaps nothing

    // Identical intervals in a freely overlapping track, one per lane.
    Track same;
    same.nested = false;
    same.events.start = {5, 5, 5, 7};
    same.events.end = {15, 15, 15, 7};
    same.events.name.assign(4, StringId());
    same.laneBegin = {0, 1, 2, 3, 4}; // one event per lane
    for (auto [a, b] : std::vector<std::pair<Timestamp, Timestamp>> {
             {0, 5}, {0, 6}, {5, 6}, {6, 7}, {7, 8}, {14, 15}, {15, 20}}) {
        const std::vector<uint32_t> got = trackWindow(same, {a, b});
        std::vector<uint32_t> want;
        for (uint32_t i = 0; i < 4; ++i)
            if (overlaps(same.events.start[i], same.events.end[i], {a, b})) want.push_back(i);
        INFO("window " << a << ".." << b);
        CHECK(got == want);
    }
}

TEST_CASE("the events contained in a range equal brute force on random traces")
{
    test::Rng rng(43);
    test::RandomTraceOptions o;
    o.seed = 5;
    o.eventsPerTrack = 1500;
    const Trace trace = test::randomTrace(o);
    size_t found = 0;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
        const Track& track = trace.tracks[t];
        for (int q = 0; q < 100; ++q) {
            const Timestamp a = Timestamp(rng.below(uint64_t(trace.span.end + 10)));
            const Timestamp len
                = q % 10 == 0 ? 0 : Timestamp(rng.below(uint64_t(trace.span.duration() / 20 + 1)));
            const TimeRange w {a, a + len};
            std::vector<uint32_t> got;
            for (uint32_t lane = 0; lane < track.laneCount(); ++lane) {
                const IndexRange r = trace.eventsContainedIn(TrackId(t), lane, w);
                for (uint32_t i = r.begin; i < r.end; ++i)
                    got.push_back(i);
            }
            std::sort(got.begin(), got.end());
            std::vector<uint32_t> want;
            for (uint32_t i = 0; i < track.size(); ++i) {
                const Timestamp start = track.events.start[i];
                if (start >= w.start
                    && effectiveEnd(start, track.events.end[i]) <= std::max(w.end, w.start + 1))
                    want.push_back(i);
            }
            REQUIRE(got == want);
            found += got.size();
        }
    }
    CHECK(found > 0);
}
