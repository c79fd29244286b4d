// The process's peak resident memory, for tests that check a crafted input costs no more
// memory than it holds: compare the peak before and after (each test case runs in its own
// process under ctest).
#pragma once

#include <sys/resource.h>

namespace sightline::test {

inline long peakResidentKilobytes()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

} // namespace sightline::test
