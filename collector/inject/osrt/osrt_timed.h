// The shape of every OS-runtime wrapper (collector.md §5):
//   t0 = now; r = real(...); t1 = now; if (t1 - t0 >= threshold) record; return r;
// with errno preserved, nothing recorded while the thread is inside the collector (recursion
// guard) or when OS-runtime tracing is off. Below the threshold the cost is two clock reads
// and two predictable branches; recording appends one fixed-size record, lock-free.
#pragma once

#include "collector/inject/clock.h"
#include "collector/inject/osrt/osrt_real.h"
#include "collector/inject/session.h"
#include "collector/inject/thread_state.h"
#include "collector/spool/os_functions.h"

#include <cstdint>
#include <type_traits>

namespace sightline::inject::osrt {

using spool::OsFunction;

// Appends one OsCall record for the calling thread (errno preserved). Out of line: only calls
// above the threshold get here.
__attribute__((noinline)) void record(
    OsFunction function, uint64_t startTicks, uint64_t endTicks, int64_t result);

// True when this thread's calls are recorded now.
inline bool tracing()
{
    return g_osrtEnabled && t_thread.inTool == 0;
}

template <class R> inline int64_t resultValue(R result)
{
    if constexpr (std::is_pointer_v<R>)
        return result ? 1 : 0;
    else
        return int64_t(result);
}

template <class Fn, class... Args>
inline auto timed(OsFunction function, Fn* real, Args... args) -> decltype(real(args...))
{
    if (!tracing()) return real(args...);
    const uint64_t start = nowTicks();
    auto result = real(args...);
    const uint64_t end = nowTicks();
    if (end - start >= g_osrtThresholdTicks.load(std::memory_order_relaxed)) [[unlikely]]
        record(function, start, end, resultValue(result));
    return result;
}

// For lock-like calls: the untimed `tryFirst` succeeds when the resource is free (nsys records
// these calls only when another thread holds the resource). `busy` tells a "would block"
// result of tryFirst apart from success or a real error.
template <class Fn, class TryFn, class Busy, class... Args>
inline int timedIfBusy(OsFunction function, Fn* real, TryFn* tryFirst, Busy busy, Args... args)
{
    if (!tracing()) return real(args...);
    const int saved = errno;
    const int tried = tryFirst(args...);
    if (!busy(tried)) return tried;
    errno = saved;
    return timed(function, real, args...);
}

} // namespace sightline::inject::osrt
