// What a row shows, apart from the trace its tree was built from: its kind and the key of what
// it draws, cut to its level (a GPU: the device; a context: + process and context; a stream: +
// stream; a process: its pid; a thread: + tid; a track's row: the track's whole key), a counter
// row's series name, and the source of the trace (TrackKey::source). Two traces of one report
// (its overview, its events, a range of them, a re-read) give a row the same key whatever
// their TrackIds; two reports never do, even for GPU 0 or pid 1234 of both. A timeline that
// replaces its trace keeps by these keys which rows were open and where it was scrolled.
#pragma once

#include "views/timeline/rows/row_tree.h"

#include <compare>
#include <string>
#include <vector>

namespace sightline::views {

struct RowKey
{
    RowKind kind = RowKind::Processes;
    TrackKey key; // cut to the row's level; `kind` zero unless the row draws one track
    std::string counter; // Counter rows: the series' name
    friend auto operator<=>(const RowKey&, const RowKey&) = default;
};

// The key of every node of `rows`, by node index.
std::vector<RowKey> rowKeys(const Trace& trace, const RowTree& rows);

} // namespace sightline::views
