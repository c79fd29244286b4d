#include "model/events/radix_sort.h"

#include "model/common/huge_pages.h"

#include <array>
#include <bit>
#include <memory>

namespace sightline {
namespace {

constexpr int kDigitBits = 8;
constexpr int kBuckets = 1 << kDigitBits;
constexpr int kDigits = 64 / kDigitBits;

using Histograms = std::array<std::array<uint64_t, kBuckets>, kDigits>;

uint32_t digitOf(uint64_t key, int digit)
{
    return uint32_t(key >> (digit * kDigitBits)) & (kBuckets - 1);
}

bool cancelled(const std::atomic<bool>* cancel)
{
    return cancel && cancel->load(std::memory_order_relaxed);
}

} // namespace

uint64_t orderedKey(double value)
{
    // IEEE bit patterns order like the values once the sign bit is set on non-negative ones
    // and negative ones are complemented whole; -0 counts as 0.
    const uint64_t bits = std::bit_cast<uint64_t>(value == 0 ? 0.0 : value);
    return bits >> 63 ? ~bits : bits | (uint64_t(1) << 63);
}

bool radixSortByKey(std::vector<uint64_t>& keys, std::vector<uint32_t>& rows, const std::atomic<bool>* cancel)
{
    const size_t n = keys.size();
    if (n < 2) return !cancelled(cancel);

    // One pass counts every digit position at once.
    auto histograms = std::make_unique<Histograms>();
    for (auto& h : *histograms)
        h.fill(0);
    for (size_t i = 0; i < n; ++i) {
        const uint64_t key = keys[i];
        for (int d = 0; d < kDigits; ++d)
            ++(*histograms)[d][digitOf(key, d)];
    }
    if (cancelled(cancel)) return false;

    std::vector<uint64_t> keyBuffer;
    resizeColumn(keyBuffer, n);
    std::vector<uint32_t> rowBuffer;
    resizeColumn(rowBuffer, n);
    for (int d = 0; d < kDigits; ++d) {
        std::array<uint64_t, kBuckets>& counts = (*histograms)[d];
        // Every key shares this digit: the pass would not move anything.
        if (counts[digitOf(keys[0], d)] == n) continue;
        uint64_t offset = 0;
        for (uint64_t& c : counts) {
            const uint64_t count = c;
            c = offset;
            offset += count;
        }
        for (size_t i = 0; i < n; ++i) {
            const uint64_t position = counts[digitOf(keys[i], d)]++;
            keyBuffer[position] = keys[i];
            rowBuffer[position] = rows[i];
        }
        keys.swap(keyBuffer);
        rows.swap(rowBuffer);
        if (cancelled(cancel)) return false;
    }
    return true;
}

} // namespace sightline
