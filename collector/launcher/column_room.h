// Room for the events a track is about to receive, mapped in on every core. A track's columns
// are reserved for `more` events, and mapIn() has the kernel map that room in on all cores at
// once: memory is zeroed page by page on first touch, which for the hundreds of megabytes of a
// large recording costs one thread more than filling the columns does.
#pragma once

#include "model/core/track.h"

#include <cstddef>
#include <cstdint>
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

} // namespace sightline::collector
