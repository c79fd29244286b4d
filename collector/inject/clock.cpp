#include "collector/inject/clock.h"

#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace sightline::inject {

namespace {

// True when the first CPU's flags in /proc/cpuinfo include `flag` as a whole word.
bool hasCpuFlag(const char* cpuinfo, const char* flag)
{
    const size_t length = strlen(flag);
    for (const char* p = strstr(cpuinfo, flag); p; p = strstr(p + 1, flag)) {
        const bool startsWord = p == cpuinfo || p[-1] == ' ' || p[-1] == '\t';
        const bool endsWord = p[length] == ' ' || p[length] == '\n' || p[length] == '\0';
        if (startsWord && endsWord) return true;
    }
    return false;
}

bool invariantTsc()
{
#if SIGHTLINE_HAS_TSC
    static char text[16384];
    const int fd = open("/proc/cpuinfo", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    size_t used = 0;
    while (used + 1 < sizeof(text)) {
        const ssize_t n = read(fd, text + used, sizeof(text) - 1 - used);
        if (n <= 0) break;
        used += size_t(n);
    }
    close(fd);
    text[used] = '\0';
    // Only the first processor's block: the flags line repeats per CPU.
    if (char* second = strstr(text, "\n\n")) *second = '\0';
    return hasCpuFlag(text, "constant_tsc") && hasCpuFlag(text, "nonstop_tsc");
#else
    return false;
#endif
}

} // namespace

void initializeClock()
{
    // SIGHTLINE_CLOCK=monotonic or =tsc overrides the choice (tsc: for hosts, such as some
    // virtual machines, that hide the invariant-TSC flags of a TSC that is in fact constant).
    const char* choice = getenv("SIGHTLINE_CLOCK");
    const bool forceMonotonic = choice && strcmp(choice, "monotonic") == 0;
    const bool forceTsc = SIGHTLINE_HAS_TSC && choice && strcmp(choice, "tsc") == 0;
    g_tickSource = forceTsc || (!forceMonotonic && invariantTsc()) ? spool::TickSource::Tsc
                                                                   : spool::TickSource::MonotonicNs;
}

} // namespace sightline::inject
