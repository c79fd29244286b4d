#include "../support/random_trace.h"
#include "model/construct/trace_builder.h"
#include "model/trace/event_access.h"

#include <catch2/catch.hpp>
#include <map>

using namespace sightline;

namespace {

void requireLanesSortedAndDisjoint(const Track& track)
{
    for (uint32_t l = 0; l < track.laneCount(); ++l) {
        const IndexRange lane = track.lane(l);
        for (uint32_t i = lane.begin + 1; i < lane.end; ++i) {
            REQUIRE(track.events.start[i - 1] <= track.events.start[i]);
            REQUIRE(
                effectiveEnd(track.events.start[i - 1], track.events.end[i - 1]) <= track.events.start[i]);
        }
    }
}

} // namespace

TEST_CASE("layout puts nested events in lanes by depth")
{
    TraceBuilder b;
    const TrackId t = b.hostTrack(TrackKind::OsRuntime, Pid(1), Tid(1));
    const StringId n = b.intern("f");
    // Added out of order: the child before its parent, a sibling, then a grandchild.
    b.add(t, OsCall {20, 30, n, 0}); // depth 1
    b.add(t, OsCall {0, 100, n, 0}); // depth 0
    b.add(t, OsCall {40, 90, n, 0}); // depth 1
    b.add(t, OsCall {50, 60, n, 0}); // depth 2
    b.add(t, OsCall {200, 200, n, 0}); // an instant at depth 0
    const Trace trace = b.build();
    const Track& track = trace.tracks.at(0);
    REQUIRE(track.nested);
    REQUIRE(track.laneCount() == 3);
    CHECK(track.lane(0).size() == 2);
    CHECK(track.lane(1).size() == 2);
    CHECK(track.lane(2).size() == 1);
    CHECK(track.events.start == std::vector<Timestamp> {0, 200, 20, 40, 50});
    CHECK(track.laneOf(3) == 1);
    CHECK(track.laneOf(4) == 2);
    requireLanesSortedAndDisjoint(track);
}

TEST_CASE("layout spreads freely overlapping ranges over lanes and marks the track")
{
    TraceBuilder b;
    const TrackId t = b.hostTrack(TrackKind::Nvtx, Pid(1), Tid(1));
    NvtxAttributes a;
    a.style = NvtxStyle::StartEnd;
    b.add(t, NvtxEvent {0, 50, b.intern("a"), a});
    b.add(t, NvtxEvent {25, 75, b.intern("b"), a}); // pokes out of "a"
    b.add(t, NvtxEvent {60, 70, b.intern("c"), a});
    const Trace trace = b.build();
    const Track& track = trace.tracks.at(0);
    CHECK_FALSE(track.nested);
    // "c" lies inside "b" (lane 1), so it goes below it, to lane 2.
    CHECK(track.laneCount() == 3);
    CHECK(track.laneOf(2) == 2);
    requireLanesSortedAndDisjoint(track);
}

TEST_CASE("ranges that overlap only partly alternate between lanes instead of stepping down")
{
    TraceBuilder b;
    const TrackId t = b.hostTrack(TrackKind::Nvtx, Pid(1), Tid(1));
    NvtxAttributes a;
    a.style = NvtxStyle::StartEnd;
    // Two batches always in flight, each overlapping the next: [0,20) [10,30) [20,40) ...
    for (Timestamp k = 0; k < 50; ++k)
        b.add(t, NvtxEvent {k * 10, k * 10 + 20, b.intern("batch"), a});
    const Trace trace = b.build();
    CHECK_FALSE(trace.tracks.at(0).nested);
    CHECK(trace.tracks.at(0).laneCount() == 2);
}

// The lane each range gets, by definition: in start order (longer first on ties), its depth is
// the number of earlier ranges still open that contain it, and it takes the first lane at or
// after its depth whose last range has ended. Quadratic, for checking only.
static std::map<std::pair<Timestamp, Timestamp>, uint32_t> lanesByDefinition(
    std::vector<std::pair<Timestamp, Timestamp>> ranges)
{
    std::stable_sort(ranges.begin(), ranges.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    std::map<std::pair<Timestamp, Timestamp>, uint32_t> laneOf;
    std::vector<Timestamp> laneEnd;
    for (size_t k = 0; k < ranges.size(); ++k) {
        const auto [s, e] = ranges[k];
        uint32_t depth = 0;
        for (size_t j = 0; j < k; ++j)
            if (ranges[j].second > s && ranges[j].second >= e) ++depth;
        uint32_t lane = depth;
        while (lane < laneEnd.size() && laneEnd[lane] > s)
            ++lane;
        if (lane == laneEnd.size()) laneEnd.push_back(e);
        laneEnd[lane] = e;
        laneOf[{s, e}] = lane;
    }
    return laneOf;
}

TEST_CASE("a track with thousands of ranges open at once gets the lanes the definition gives")
{
    for (const int spread : {1, 8, 400}) { // from all open at once to a few hundred at a time
        TraceBuilder b;
        const TrackId t = b.hostTrack(TrackKind::Nvtx, Pid(1), Tid(1));
        NvtxAttributes a;
        a.style = NvtxStyle::StartEnd;
        test::Rng rng {uint64_t(spread)};
        std::vector<std::pair<Timestamp, Timestamp>> ranges;
        for (Timestamp k = 0; k < 3000; ++k) { // distinct starts, so each range is known by its times
            const Timestamp start = k * spread;
            const Timestamp end = start + 1 + Timestamp(rng.below(3000));
            ranges.emplace_back(start, end);
            b.add(t, NvtxEvent {start, end, b.intern("r"), a});
        }
        const Trace trace = b.build();
        const Track& track = trace.tracks.at(0);
        requireLanesSortedAndDisjoint(track);
        const auto expected = lanesByDefinition(ranges);
        for (uint32_t l = 0; l < track.laneCount(); ++l)
            for (uint32_t i = track.lane(l).begin; i < track.lane(l).end; ++i)
                REQUIRE(expected.at({track.events.start[i], track.events.end[i]}) == l);
    }
}

TEST_CASE("ranges at the very end of time are laid out without overflow")
{
    TraceBuilder b;
    const TrackId t = b.hostTrack(TrackKind::OsRuntime, Pid(1), Tid(1));
    const StringId n = b.intern("f");
    b.add(t, OsCall {INT64_MAX - 10, INT64_MAX, n, 0});
    b.add(t, OsCall {INT64_MAX, INT64_MAX, n, 0});
    const Trace trace = b.build();
    CHECK(trace.tracks.at(0).laneCount() == 1);
    CHECK(effectiveEnd(INT64_MAX, INT64_MAX) == INT64_MAX);
}

TEST_CASE("random traces keep every event and give sorted disjoint lanes")
{
    for (uint64_t seed = 1; seed <= 4; ++seed) {
        test::RandomTraceOptions o;
        o.seed = seed;
        const Trace trace = test::randomTrace(o);
        size_t total = 0;
        for (const Track& track : trace.tracks) {
            requireLanesSortedAndDisjoint(track);
            total += track.size();
            REQUIRE(track.laneBegin.back() == track.size());
        }
        REQUIRE(total == trace.eventCount());
        REQUIRE(total > 10000);
        REQUIRE(trace.span.duration() > 0);
    }
}

TEST_CASE("builder interns descriptors and names memory operations like nsys stats")
{
    TraceBuilder b;
    const TrackId t = b.gpuTrack(TrackKind::Memory, Pid(1), DeviceId(0), ContextId(1), StreamId(7));
    MemoryOp htod;
    htod.copyKind = CopyKind::HtoD;
    htod.srcKind = MemoryKind::Pageable;
    htod.dstKind = MemoryKind::Device;
    MemoryOp memset;
    memset.kind = MemoryOpKind::Memset;
    b.add(t, MemoryEvent {0, 10, CorrelationId(5), htod, 4096});
    b.add(t, MemoryEvent {20, 30, CorrelationId(6), htod, 8192});
    b.add(t, MemoryEvent {40, 45, CorrelationId(7), memset, 16});
    const Trace trace = b.build();
    REQUIRE(trace.memoryOps.size() == 2);
    const MemoryEvent second = memoryAt(trace, {TrackId(0), 1});
    CHECK(second.bytes == 8192);
    CHECK(second.op == htod);
    CHECK(trace.strings[trace.tracks[0].events.name[0]] == "[CUDA memcpy Host-to-Device]");
    CHECK(trace.strings[trace.tracks[0].events.name[2]] == "[CUDA memset]");
    // The stream and context the track names exist as entities.
    REQUIRE(trace.streams.size() == 1);
    CHECK(trace.streams[0].stream == StreamId(7));
}
