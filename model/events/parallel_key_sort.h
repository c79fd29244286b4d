// Sorting hundreds of millions of 64-bit keys on every core: what ordering a 200M-event track by
// duration needs (views/pagedevents/track_event_order.h packs each row into one key). A bucket sort: every
// worker counts its share of the keys in 2^16 fine bins by their leading bits, runs of bins make buckets of
// about equal size whatever the keys' distribution (durations are skewed), every worker scatters its share
// into them, and each bucket is sorted on its own. Memory: one scratch array as large as the keys.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

namespace sightline {

// Sorts `keys` ascending on `threads` workers (0: all cores). Returns false, leaving them in an
// unspecified order, when `cancel` was set.
bool sortKeysInParallel(
    std::vector<uint64_t>& keys, const std::atomic<bool>* cancel = nullptr, unsigned threads = 0);

} // namespace sightline
