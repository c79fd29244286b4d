#include "model/events/parallel_key_sort.h"

#include "model/common/huge_pages.h"
#include "model/common/parallel_for.h"

#include <algorithm>
#include <bit>

namespace sightline {

namespace {

constexpr size_t kSerialBelow = size_t(1) << 16; // fewer keys sort faster on one core
// Keys fall into 2^16 fine bins by their leading bits (above the smallest key); runs of bins
// make the buckets, about this many of them, each sorted alone.
constexpr int kFineBits = 16;
constexpr size_t kFineBins = size_t(1) << kFineBits;
constexpr size_t kBucketsPerWorker = 32;

bool cancelled(const std::atomic<bool>* cancel)
{
    return cancel && cancel->load(std::memory_order_relaxed);
}

} // namespace

bool sortKeysInParallel(std::vector<uint64_t>& keys, const std::atomic<bool>* cancel, unsigned threads)
{
    const size_t n = keys.size();
    const unsigned workers = parallelWorkers(n / kSerialBelow + 1, threads);
    if (n < kSerialBelow || workers == 1) {
        std::sort(keys.begin(), keys.end());
        return !cancelled(cancel);
    }
    const auto shareBegin = [&](size_t w) { return n * w / workers; };

    // The range of the keys, and the fine bin of each: its leading bits above the smallest.
    std::vector<uint64_t> lows(workers, UINT64_MAX), highs(workers, 0);
    parallelFor(
        workers,
        [&](size_t w) {
            const auto [low, high] = std::minmax_element(keys.begin() + std::ptrdiff_t(shareBegin(w)),
                keys.begin() + std::ptrdiff_t(shareBegin(w + 1)));
            lows[w] = *low;
            highs[w] = *high;
        },
        workers);
    const uint64_t low = *std::min_element(lows.begin(), lows.end());
    const uint64_t span = *std::max_element(highs.begin(), highs.end()) - low;
    const int shift = std::max(0, int(std::bit_width(span)) - kFineBits);
    const auto fineBin = [&](uint64_t key) { return size_t((key - low) >> shift); };

    // Each worker's keys per fine bin.
    std::vector<std::vector<uint64_t>> fine(workers, std::vector<uint64_t>(kFineBins, 0));
    parallelFor(
        workers,
        [&](size_t w) {
            std::vector<uint64_t>& counts = fine[w];
            for (size_t i = shareBegin(w); i < shareBegin(w + 1); ++i)
                ++counts[fineBin(keys[i])];
        },
        workers);
    if (cancelled(cancel)) return false;

    // Buckets: runs of fine bins of about n / buckets keys (a bin is never split).
    const size_t target = n / (workers * kBucketsPerWorker) + 1;
    std::vector<uint32_t> bucketOfBin(kFineBins);
    size_t buckets = 0, inBucket = 0;
    for (size_t bin = 0; bin < kFineBins; ++bin) {
        uint64_t count = 0;
        for (size_t w = 0; w < workers; ++w)
            count += fine[w][bin];
        if (inBucket > 0 && inBucket + count > target) {
            ++buckets;
            inBucket = 0;
        }
        bucketOfBin[bin] = uint32_t(buckets);
        inBucket += count;
    }
    ++buckets;
    // Where each worker writes its keys of each bucket: buckets in order, workers within them.
    std::vector<std::vector<uint64_t>> offsets(workers, std::vector<uint64_t>(buckets, 0));
    for (size_t w = 0; w < workers; ++w)
        for (size_t bin = 0; bin < kFineBins; ++bin)
            offsets[w][bucketOfBin[bin]] += fine[w][bin];
    std::vector<uint64_t> bucketBegin(buckets + 1, 0);
    uint64_t next = 0;
    for (size_t b = 0; b < buckets; ++b) {
        bucketBegin[b] = next;
        for (size_t w = 0; w < workers; ++w) {
            const uint64_t count = offsets[w][b];
            offsets[w][b] = next;
            next += count;
        }
    }
    bucketBegin[buckets] = next;

    std::vector<uint64_t> scattered;
    resizeColumn(scattered, n);
    parallelFor(
        workers,
        [&](size_t w) {
            std::vector<uint64_t>& at = offsets[w];
            for (size_t i = shareBegin(w); i < shareBegin(w + 1); ++i)
                scattered[at[bucketOfBin[fineBin(keys[i])]]++] = keys[i];
        },
        workers);
    keys.swap(scattered);
    std::vector<uint64_t>().swap(scattered);
    if (cancelled(cancel)) return false;

    parallelFor(
        buckets,
        [&](size_t b) {
            if (cancelled(cancel)) return false;
            std::sort(keys.begin() + std::ptrdiff_t(bucketBegin[b]),
                keys.begin() + std::ptrdiff_t(bucketBegin[b + 1]));
            return true;
        },
        workers);
    return !cancelled(cancel);
}

} // namespace sightline
