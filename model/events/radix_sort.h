// A stable least-significant-digit radix sort of (key, row) pairs by key, ascending: what
// listing events (event_rows.h) and the Events View's sort by a column use to order millions of
// rows in linear time. Keys are 64-bit and ordered as unsigned integers; callers map their values
// to such keys (orderedKey below).
// Byte positions where every key has the same digit are skipped, so small keys (durations,
// ranks) cost few passes. Cancellable between passes.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

namespace sightline {

// Sorts `rows` by `keys` (same length; both are permuted). Equal keys keep their order.
// Returns false, leaving both in an unspecified order, when `cancel` was set.
bool radixSortByKey(
    std::vector<uint64_t>& keys, std::vector<uint32_t>& rows, const std::atomic<bool>* cancel = nullptr);

// Maps a signed integer to an unsigned key with the same order.
constexpr uint64_t orderedKey(int64_t value)
{
    return uint64_t(value) ^ (uint64_t(1) << 63);
}
// Maps a double (not NaN) to an unsigned key with the same order.
uint64_t orderedKey(double value);

} // namespace sightline
