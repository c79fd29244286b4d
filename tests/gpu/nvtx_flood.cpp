// Ten million NVTX ranges from a CPU-only program: how long `sightline profile` takes, after
// the target exits, to print "Generated:" for a 10M-event report. The program prints the
// wall-clock time it exits at (CLOCK_REALTIME nanoseconds) on stderr.
//   nvtx_flood [RANGES]
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <nvtx3/nvToolsExt.h>

int main(int argc, char** argv)
{
    const long ranges = argc > 1 ? std::atol(argv[1]) : 10000000;
    for (long i = 0; i < ranges; ++i) {
        nvtxRangePushA((i & 1) ? "odd" : "even");
        nvtxRangePop();
    }
    timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    std::fprintf(stderr, "target-exit-ns %lld\n", (long long)now.tv_sec * 1000000000LL + now.tv_nsec);
    return 0;
}
