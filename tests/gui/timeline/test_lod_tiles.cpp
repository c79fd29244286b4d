// Cached level-of-detail tiles against the model: a pixel with events away from its edges is
// never empty and shows the longest of them, busy fractions agree closely with a direct query,
// and tiles are reused when the view pans.
#include "model/index/lane_query.h"
#include "timeline_fixture.h"
#include "views/timeline/frame/event_style.h"
#include "views/timeline/frame/lod_tile_cache.h"
#include "views/timeline/scale/time_scale.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>

using namespace sightline;
using namespace sightline::views;

TEST_CASE("Tiles draw what direct level-of-detail queries draw")
{
    const auto trace = testing::generatedTrace(200000);
    const EventStyle style(*trace, false);
    LodTileCache tiles(*trace, style);
    std::mt19937_64 random(5);
    const int width = 1000;
    size_t compared = 0;
    for (int round = 0; round < 30; ++round) {
        const Duration duration = std::max<Duration>(200000, trace->span.duration() >> (random() % 6));
        const Timestamp start = trace->span.start
            + Timestamp(random() % uint64_t(std::max<Duration>(1, trace->span.duration() - duration)));
        const TimeScale scale({start, start + duration}, width);
        const int level = LodTileCache::levelFor(scale.nanosecondsPerPixel());
        REQUIRE(level >= 0);
        const TrackId id(uint32_t(random() % trace->tracks.size()));
        const Track& track = trace->track(id);
        if (track.size() == 0) continue;
        const uint32_t lane = uint32_t(random() % track.laneCount());
        tiles.request(id, lane, scale.visible(), level);
        tiles.computeMissing(false);
        SourceColumns tiled, direct;
        tiles.fill(id, lane, scale, level, tiled);
        direct.resize(width);
        trace->laneLod(id, lane, scale.visible(), direct.lod);
        direct.describe(track, style);
        tiles.endFrame();

        // A tile may hand the events within a tile of its edge to its neighbour (lod.h,
        // "Exactness"), so a pixel shows at least the events a tile away from its edges.
        const Duration tile = Duration(1) << level;
        double error = 0;
        for (int c = 0; c < width; ++c) {
            INFO("round " << round << " track " << id.value << " lane " << lane << " column " << c);
            const LodColumn& d = direct.lod[size_t(c)];
            const LodColumn& t = tiled.lod[size_t(c)];
            const Timestamp a = start + duration * c / width, b = start + duration * (c + 1) / width;
            const IndexRange inner = laneWindow(track, lane, {a + tile, b - tile});
            if (!inner.empty()) {
                REQUIRE(t.count > 0); // never invisible
                Duration longest = 0;
                for (uint32_t i = inner.begin; i < inner.end; ++i)
                    longest = std::max(longest, track.duration(i));
                CHECK(tiled.longestDuration[size_t(c)] >= longest);
            }
            CHECK(std::fabs(t.busy - d.busy) <= 2.0 / LodTileCache::kMinTilesPerPixel + 1e-6);
            error += std::fabs(t.busy - d.busy);
        }
        CHECK(error / width < 0.03);
        ++compared;
    }
    CHECK(compared > 10);
}

TEST_CASE("Panning within a level reuses tiles; the cache stays within its budget")
{
    const auto trace = testing::generatedTrace(200000);
    const EventStyle style(*trace, false);
    const size_t budget = size_t(4) << 20;
    LodTileCache tiles(*trace, style, budget);
    const TrackId id(0);
    const Duration duration = trace->span.duration() / 4;
    TimeScale scale({trace->span.start, trace->span.start + duration}, 1000);
    const int level = LodTileCache::levelFor(scale.nanosecondsPerPixel());
    tiles.request(id, 0, scale.visible(), level);
    tiles.computeMissing(false);
    tiles.endFrame();
    const size_t first = tiles.chunkCount();
    REQUIRE(first > 0);
    // A small pan needs at most one more chunk at the leading edge.
    scale = scale.pannedBy(5);
    tiles.request(id, 0, scale.visible(), level);
    tiles.computeMissing(false);
    tiles.endFrame();
    CHECK(tiles.chunkCount() <= first + 1);
    // Many distinct windows: old chunks are evicted to stay near the budget.
    for (int step = 0; step < 200; ++step) {
        scale = TimeScale({trace->span.start + step * duration / 50,
                              trace->span.start + step * duration / 50 + duration / 40},
            1000);
        for (uint32_t t = 0; t < std::min<size_t>(trace->tracks.size(), 8); ++t) {
            if (trace->tracks[t].size() == 0) continue;
            tiles.request(
                TrackId(t), 0, scale.visible(), LodTileCache::levelFor(scale.nanosecondsPerPixel()));
        }
        tiles.computeMissing(false);
        tiles.endFrame();
        CHECK(tiles.residentBytes() <= budget + budget / 2);
    }
}
