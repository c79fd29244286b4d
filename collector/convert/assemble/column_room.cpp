#include "collector/convert/assemble/column_room.h"

#include "model/common/parallel_for.h"

#include <algorithm>
#include <sys/mman.h>
#include <unistd.h>

namespace sightline::collector {

void ColumnRoom::reserve(EventColumns& ev, size_t more, TrackKind kind)
{
    ev.reserve(ev.size() + more, kind);
    add(ev.start), add(ev.end), add(ev.name), add(ev.correlation), add(ev.detail), add(ev.value);
}

void ColumnRoom::mapIn()
{
#ifdef MADV_POPULATE_WRITE
    // Without it (a kernel before 5.14) the pages are mapped in as they are first written.
    parallelFor(m_pieces.size(),
        [this](size_t i) { madvise(m_pieces[i].begin, m_pieces[i].bytes, MADV_POPULATE_WRITE); });
#endif
    m_pieces.clear();
}

size_t TrackGrowth::claim(TrackId track, size_t count)
{
    Growth& growth = m_tracks[track.value];
    growth.count += count;
    return growth.count - count;
}

void TrackGrowth::grow(TraceBuilder& builder, TrackKind kind)
{
    ColumnRoom room;
    for (const auto& [track, growth] : m_tracks)
        room.reserve(builder.columns(TrackId(track)), growth.count, kind);
    room.mapIn();
    for (auto& [track, growth] : m_tracks)
        growth.first = builder.grow(TrackId(track), growth.count);
}

void TrackGrowth::settle(TraceBuilder& builder, const std::vector<TrackId>& tracks, std::vector<size_t>& next,
    std::vector<EventColumns*>& columns) const
{
    for (size_t slot = 0; slot < tracks.size(); ++slot) {
        next[slot] += m_tracks.at(tracks[slot].value).first;
        columns.push_back(&builder.columns(tracks[slot]));
    }
}

template <class T> void ColumnRoom::add(std::vector<T>& column)
{
    static const uintptr_t page = uintptr_t(sysconf(_SC_PAGESIZE));
    uintptr_t begin = (reinterpret_cast<uintptr_t>(column.data() + column.size()) + page - 1) & ~(page - 1);
    const uintptr_t end = reinterpret_cast<uintptr_t>(column.data() + column.capacity()) & ~(page - 1);
    for (; begin < end; begin += kPieceBytes)
        m_pieces.push_back({reinterpret_cast<void*>(begin), std::min<size_t>(kPieceBytes, end - begin)});
}

} // namespace sightline::collector
