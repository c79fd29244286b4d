// Sort keys for the Events View: one unsigned 64-bit key per row for a column, ordered like
// the column's values, so any column sorts with the same radix sort. Numbers map directly;
// text columns (names, thread and stream labels, copy kinds, domains) map through a rank
// computed once per distinct text, so a row costs one lookup. Rows where the column has no
// value (the Bytes of a kernel) get no key: they are listed apart and always go last.
#pragma once

#include "views/events/event_columns.h"

#include <atomic>
#include <span>
#include <vector>

namespace sightline::views {

struct SortKeys
{
    std::vector<uint64_t> keys; // parallel to `positions`
    std::vector<uint32_t> positions; // positions in the input rows that have a value
    std::vector<uint32_t> missing; // positions without a value, in input order
};

// Fills `out` for `rows`. Returns false when `cancel` was set before it finished.
bool buildSortKeys(const EventCells& cells, std::span<const EventRef> rows, EventColumn column, SortKeys& out,
    const std::atomic<bool>* cancel = nullptr);

// Ranks of `texts` in natural order (case-insensitive, digits compared as numbers: "Stream 9"
// before "Stream 10"); equal texts share a rank.
std::vector<uint32_t> naturalRanks(const std::vector<QString>& texts);

} // namespace sightline::views
