// Level-of-detail tiles kept from frame to frame, so that zoomed-out frames of a huge trace
// cost the same as those of a small one. A lane's time axis is cut, per power-of-two level
// k, into tiles of 2^k ns aligned on t = 0, in chunks of kChunkTiles tiles; a chunk is one
// LaneLod query (computed once, in parallel, when first needed) and is kept in a
// least-recently-used cache. A frame whose pixels span at least kMinTilesPerPixel tiles of
// a level combines those tiles into its pixel columns (busy: overlap-weighted; count: summed;
// longest: the longest) instead of querying the model: panning and zooming within a level only
// read cached tiles. Invariant: tiles are immutable once computed; the cache never holds more
// than its budget after a frame ends.
#pragma once

#include "model/index/lod.h"
#include "model/trace/trace.h"

#include <QRgb>
#include <memory>
#include <unordered_map>
#include <vector>

namespace sightline::views {

class EventStyle;
class TimeScale;

// Columns of one source for one frame, or one chunk of tiles: the model's LOD columns plus
// each column's longest event's duration and colour.
struct SourceColumns
{
    std::vector<LodColumn> lod;
    std::vector<Duration> longestDuration;
    std::vector<QRgb> fill;
    void resize(size_t columns);
    // Fills the duration and colour columns from the LOD columns.
    void describe(const Track& track, const EventStyle& style);
};

class LodTileCache
{
public:
    static constexpr int64_t kChunkTiles = 1024;
    static constexpr double kMinTilesPerPixel = 4;

    LodTileCache(const Trace& trace, const EventStyle& style, size_t budgetBytes = size_t(128) << 20);

    // The tile level for a frame (tiles of 2^level ns), or -1 when pixels are too narrow for it.
    static int levelFor(double nanosecondsPerPixel);

    // Frame protocol: request() every source drawn from tiles (single thread), then
    // computeMissing() (chunks in parallel when asked), then fill() per source (any thread),
    // then endFrame().
    void request(TrackId track, uint32_t lane, TimeRange window, int level);
    void computeMissing(bool parallel);
    void fill(TrackId track, uint32_t lane, const TimeScale& scale, int level, SourceColumns& out) const;
    void endFrame();

    size_t chunkCount() const { return m_chunks.size(); }
    size_t residentBytes() const;
    void clear();

private:
    struct Key
    {
        uint32_t track;
        uint32_t lane;
        int32_t level;
        int64_t chunk;
        friend bool operator==(const Key&, const Key&) = default;
    };
    struct KeyHash
    {
        size_t operator()(const Key& k) const noexcept;
    };
    struct Chunk
    {
        SourceColumns tiles;
        uint64_t lastUsed = 0;
        bool ready = false;
    };

    void compute(const Key& key, Chunk& chunk) const;
    const Chunk* find(const Key& key) const;

    const Trace& m_trace;
    const EventStyle& m_style;
    size_t m_budget;
    uint64_t m_frame = 1;
    std::unordered_map<Key, std::unique_ptr<Chunk>, KeyHash> m_chunks;
    std::vector<std::pair<Key, Chunk*>> m_missing;
};

} // namespace sightline::views
