// The one way Sightline spreads independent pieces of work over the cores: parallelFor(count,
// fn) runs fn(i) for each i in [0, count), handed out in increasing order through an atomic
// cursor to up to `threads` workers (0: every hardware thread), the calling thread being one
// of them. Each index runs exactly once; what fn(i) writes must not overlap what another index
// writes. Each worker calls its own copy of fn, so state that a mutable lambda captures by
// value (a scratch buffer, a decoder) is per worker. If fn returns bool, false stops handing
// out further indexes. An exception thrown by fn stops the hand-out too and is rethrown on
// the calling thread once every worker has returned.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace sightline {

// How many workers a parallelFor of `count` pieces uses when asked for `threads` (0: all).
inline unsigned parallelWorkers(size_t count, unsigned threads = 0)
{
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    return unsigned(std::max<size_t>(1, std::min<size_t>(threads, count)));
}

template <class Fn> void parallelFor(size_t count, const Fn& fn, unsigned threads = 0)
{
    std::atomic<size_t> next {0};
    std::exception_ptr failure;
    std::mutex failureMutex;
    auto work = [&] {
        Fn local = fn;
        try {
            for (size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < count;) {
                if constexpr (std::is_same_v<decltype(local(i)), bool>) {
                    if (!local(i)) {
                        next.store(count, std::memory_order_relaxed);
                        break;
                    }
                } else {
                    local(i);
                }
            }
        } catch (...) {
            next.store(count, std::memory_order_relaxed);
            std::lock_guard lock(failureMutex);
            if (!failure) failure = std::current_exception();
        }
    };
    {
        std::vector<std::jthread> helpers;
        for (unsigned t = 1; t < parallelWorkers(count, threads); ++t)
            helpers.emplace_back(work);
        work();
    }
    if (failure) std::rethrow_exception(failure);
}

} // namespace sightline
