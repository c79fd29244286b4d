// Large arrays (event columns, LOD blocks, stats values, Events View row lists) on transparent
// huge pages. Loading a 10M-event report faults in about 300 MB of fresh memory; on 4 KiB pages
// that is some 75,000 page faults, about 30% of the load time. Asking the kernel for 2 MiB
// pages (madvise MADV_HUGEPAGE) before the memory is first written turns most of them into a
// few hundred. Where transparent huge pages are set to "never", or the advice fails, nothing
// changes but the speed.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <vector>

namespace sightline {

// Columns smaller than this stay on ordinary pages (a huge page would be mostly empty).
constexpr size_t kHugePageColumnBytes = size_t(4) << 20;

// Advises huge pages for the 2 MiB-aligned part of [data, data + bytes). Call it before the
// memory is first written: pages already faulted in stay small.
void adviseHugePages(void* data, size_t bytes);

// vector.reserve(n), with a large new buffer advised onto huge pages before anything but the
// existing elements is written to it.
template <class T> void reserveColumn(std::vector<T>& column, size_t n)
{
    if (n <= column.capacity() || n * sizeof(T) < kHugePageColumnBytes) {
        column.reserve(n);
        return;
    }
    std::vector<T> grown;
    grown.reserve(n);
    adviseHugePages(grown.data(), n * sizeof(T));
    grown.insert(grown.end(), std::make_move_iterator(column.begin()), std::make_move_iterator(column.end()));
    column.swap(grown);
}

// vector.resize(n), the same way. A column that already holds events grows at least twofold,
// as std::vector does, so repeated growth stays linear.
template <class T> void resizeColumn(std::vector<T>& column, size_t n)
{
    if (n > column.capacity()) reserveColumn(column, column.empty() ? n : std::max(n, 2 * column.size()));
    column.resize(n);
}

} // namespace sightline
