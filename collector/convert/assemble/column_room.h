// Room for the events a track is about to receive, mapped in on every core. A track's columns
// are reserved for `more` events, and mapIn() has the kernel map that room in on all cores at
// once: memory is zeroed page by page on first touch, which for the hundreds of megabytes of a
// large recording costs one thread more than filling the columns does.
#pragma once

#include "model/construct/trace_builder.h"
#include "model/core/track.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace sightline::collector {

class ColumnRoom
{
public:
    void reserve(EventColumns& ev, size_t more, TrackKind kind);
    void mapIn();

private:
    template <class T> void add(std::vector<T>& column);
    static constexpr size_t kPieceBytes = size_t(4) << 20;
    struct Piece
    {
        void* begin;
        size_t bytes;
    };
    std::vector<Piece> m_pieces;
};

// The events several batches add to the builder's tracks. In batch order, claim() hands a batch
// its place among a track's new events; grow() then makes room in every track at once (mapped
// in on every core) and settle() turns a batch's claimed places into indexes in the tracks.
class TrackGrowth
{
public:
    size_t claim(TrackId track, size_t count);
    void grow(TraceBuilder& builder, TrackKind kind);
    // For one batch after grow(): its places (`next`, per row of `tracks`) become indexes in
    // the tracks, and `columns` gets each row's track columns.
    void settle(TraceBuilder& builder, const std::vector<TrackId>& tracks, std::vector<size_t>& next,
        std::vector<EventColumns*>& columns) const;

private:
    struct Growth
    {
        size_t count = 0; // events claimed
        size_t first = 0; // after grow(): the index of the first
    };
    std::map<uint32_t, Growth> m_tracks;
};

} // namespace sightline::collector
