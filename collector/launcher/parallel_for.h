// Runs independent pieces of work on every hardware thread: fn(i) for each i in [0, count),
// handed out in order through an atomic cursor, the calling thread working too. Each index is
// run exactly once; what fn(i) writes must not overlap what another index writes.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace sightline::collector {

template <class Fn> void parallelFor(size_t count, Fn&& fn)
{
    const size_t threads = std::min<size_t>(count, std::max(1u, std::thread::hardware_concurrency()));
    std::atomic<size_t> next {0};
    auto work = [&] {
        for (size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < count;)
            fn(i);
    };
    std::vector<std::jthread> helpers;
    for (size_t t = 1; t < threads; ++t)
        helpers.emplace_back(work);
    work();
}

} // namespace sightline::collector
