#include "views/timeline/frame/lod_tile_cache.h"

#include "views/timeline/frame/event_style.h"
#include "views/timeline/scale/time_scale.h"

#include <QtConcurrent/QtConcurrentMap>
#include <algorithm>
#include <cmath>

namespace sightline::views {
namespace {

constexpr int kMinLevel = 4; // tiles of 16 ns: below that, frames query the model directly

int64_t floorDiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if (a % b != 0 && (a < 0) != (b < 0)) --q;
    return q;
}

} // namespace

void SourceColumns::resize(size_t columns)
{
    lod.assign(columns, LodColumn {});
    longestDuration.assign(columns, 0);
    fill.assign(columns, 0);
}

void SourceColumns::describe(const Track& track, const EventStyle& style)
{
    // Looked up once per column here rather than by every row showing the source: they touch
    // the event columns, which are cold in a large trace.
    uint32_t previous = LodColumn::kNoEvent;
    for (size_t c = 0; c < lod.size(); ++c) {
        const uint32_t longest = lod[c].longest;
        if (lod[c].count == 0 || longest == LodColumn::kNoEvent) continue;
        if (longest != previous || c == 0) {
            longestDuration[c] = track.duration(longest);
            fill[c] = style.color(track, longest);
            previous = longest;
        } else {
            longestDuration[c] = longestDuration[c - 1];
            fill[c] = fill[c - 1];
        }
    }
}

size_t LodTileCache::KeyHash::operator()(const Key& k) const noexcept
{
    uint64_t h = (uint64_t(k.track) << 32) ^ (uint64_t(k.lane) << 20) ^ uint64_t(uint32_t(k.level));
    h ^= uint64_t(k.chunk) * 0x9e3779b97f4a7c15ull;
    return size_t(h ^ (h >> 29));
}

LodTileCache::LodTileCache(const Trace& trace, const EventStyle& style, size_t budgetBytes)
    : m_trace(trace)
    , m_style(style)
    , m_budget(budgetBytes)
{ }

int LodTileCache::levelFor(double nanosecondsPerPixel)
{
    const double tile = nanosecondsPerPixel / kMinTilesPerPixel;
    if (!(tile >= double(int64_t(1) << kMinLevel))) return -1;
    return std::min(50, int(std::floor(std::log2(tile))));
}

void LodTileCache::request(TrackId track, uint32_t lane, TimeRange window, int level)
{
    const int64_t chunkSpan = kChunkTiles << level;
    for (int64_t c = floorDiv(window.start, chunkSpan); c <= floorDiv(window.end - 1, chunkSpan); ++c) {
        const Key key {track.value, lane, level, c};
        auto [it, inserted] = m_chunks.try_emplace(key);
        if (inserted) {
            it->second = std::make_unique<Chunk>();
            m_missing.emplace_back(key, it->second.get());
        }
        it->second->lastUsed = m_frame;
    }
}

void LodTileCache::compute(const Key& key, Chunk& chunk) const
{
    const Track& track = m_trace.track(TrackId(key.track));
    const int64_t chunkSpan = kChunkTiles << key.level;
    chunk.tiles.resize(size_t(kChunkTiles));
    m_trace.laneLod(
        TrackId(key.track), key.lane, {key.chunk * chunkSpan, (key.chunk + 1) * chunkSpan}, chunk.tiles.lod);
    chunk.tiles.describe(track, m_style);
    chunk.ready = true;
}

void LodTileCache::computeMissing(bool parallel)
{
    auto run = [this](const std::pair<Key, Chunk*>& missing) { compute(missing.first, *missing.second); };
    // A few chunks (the edge a pan uncovers) are cheaper here than waking the pool.
    if (parallel && m_missing.size() >= 16)
        QtConcurrent::blockingMap(m_missing, run);
    else
        std::for_each(m_missing.begin(), m_missing.end(), run);
    m_missing.clear();
}

const LodTileCache::Chunk* LodTileCache::find(const Key& key) const
{
    const auto it = m_chunks.find(key);
    return it == m_chunks.end() || !it->second->ready ? nullptr : it->second.get();
}

void LodTileCache::fill(
    TrackId track, uint32_t lane, const TimeScale& scale, int level, SourceColumns& out) const
{
    const size_t columns = size_t(std::max(1.0, std::ceil(scale.width())));
    out.resize(columns);
    const int64_t tile = int64_t(1) << level;
    const TimeRange window = scale.visible();
    // Column c covers [edge(c), edge(c + 1)) with edge(c) = start + duration * c / columns
    // (rounded down, the level of detail's own column edges), stepped without dividing.
    const Duration whole = window.duration() / Duration(columns),
                   part = window.duration() % Duration(columns);
    Timestamp nextEdge = window.start;
    Duration remainder = 0;
    auto stepEdge = [&] {
        nextEdge += whole;
        remainder += part;
        if (remainder >= Duration(columns)) {
            remainder -= Duration(columns);
            ++nextEdge;
        }
        return nextEdge;
    };
    // Walk the tiles once from left to right; the current tile spans [tileStart, tileStart + tile).
    int64_t j = floorDiv(window.start, tile);
    int64_t chunkIndex = floorDiv(j, kChunkTiles);
    size_t k = size_t(j - chunkIndex * kChunkTiles);
    Timestamp tileStart = j * tile;
    const SourceColumns* tiles = nullptr;
    auto enterChunk = [&] {
        const Chunk* chunk = find({track.value, lane, level, chunkIndex});
        tiles = chunk ? &chunk->tiles : nullptr;
    };
    enterChunk();
    for (size_t c = 0; c < columns; ++c) {
        const Timestamp a = nextEdge;
        const Timestamp b = std::max(a + 1, stepEdge());
        double busy = 0;
        uint32_t count = 0;
        Duration longestDuration = -1;
        size_t longestTile = 0;
        const SourceColumns* longestChunk = nullptr;
        while (true) {
            const Timestamp tileEnd = tileStart + tile;
            if (tiles && tiles->lod[k].count != 0 && tileEnd > a) {
                const LodColumn& from = tiles->lod[k];
                const Timestamp overlap = std::min(b, tileEnd) - std::max(a, tileStart);
                busy += double(from.busy) * double(overlap);
                count += from.count;
                if (tiles->longestDuration[k] > longestDuration) {
                    longestDuration = tiles->longestDuration[k];
                    longestChunk = tiles;
                    longestTile = k;
                }
            }
            if (tileEnd > b) break; // the tile reaches into the next column too
            tileStart = tileEnd;
            if (++k == size_t(kChunkTiles)) {
                k = 0;
                ++chunkIndex;
                enterChunk();
            }
            if (tileEnd == b) break;
        }
        LodColumn& to = out.lod[c];
        to.count = count;
        to.busy = float(std::clamp(busy / double(b - a), 0.0, 1.0));
        if (longestChunk) {
            to.longest = longestChunk->lod[longestTile].longest;
            out.longestDuration[c] = longestDuration;
            out.fill[c] = longestChunk->fill[longestTile];
        }
    }
}

void LodTileCache::endFrame()
{
    ++m_frame;
    if (residentBytes() <= m_budget) return;
    std::vector<std::pair<uint64_t, Key>> byAge;
    for (const auto& [key, chunk] : m_chunks)
        byAge.emplace_back(chunk->lastUsed, key);
    std::sort(byAge.begin(), byAge.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    const size_t perChunk = size_t(kChunkTiles) * (sizeof(LodColumn) + sizeof(Duration) + sizeof(QRgb));
    size_t bytes = residentBytes();
    for (const auto& [age, key] : byAge) {
        if (bytes <= m_budget * 3 / 4 || age + 1 >= m_frame) break;
        m_chunks.erase(key);
        bytes -= perChunk;
    }
}

size_t LodTileCache::residentBytes() const
{
    return m_chunks.size()
        * (size_t(kChunkTiles) * (sizeof(LodColumn) + sizeof(Duration) + sizeof(QRgb)) + sizeof(Chunk));
}

void LodTileCache::clear()
{
    m_chunks.clear();
    m_missing.clear();
}

} // namespace sightline::views
