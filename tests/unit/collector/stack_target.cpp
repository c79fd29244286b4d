// The program the call-stack tests profile (test_cpu_stacks.cpp), built with -O2
// -fomit-frame-pointer: main calls spin_alpha (70% of its CPU time) and spin_beta (30%), both
// of which call spin_for(double), the leaf that does the work (fixed arithmetic calibrated on the
// thread's CPU clock, with a clock_gettime through the vDSO between rounds). Without frame
// pointers the kernel's walk stops in spin_for; whole stacks need the copied stack. A second
// thread sleeps in short nanosleeps, so that with `--trace=osrt` its waits pass through the
// injection library's wrappers. Prints `main-tid N` and `sleeper-tid N`.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>

namespace {

volatile uint64_t g_sink = 0;
uint64_t g_roundsPerMs = 1;

double threadCpuSeconds()
{
    timespec t {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

} // namespace

// `milliseconds` of this thread's CPU time, as calibrated.
__attribute__((noinline)) void spin_for(double milliseconds)
{
    const auto rounds = uint64_t(milliseconds * double(g_roundsPerMs));
    uint64_t x = g_sink;
    for (uint64_t r = 0; r < rounds; ++r) {
        for (int i = 0; i < 400; ++i)
            x = x * 6364136223846793005ull + 1442695040888963407ull;
        timespec now {};
        clock_gettime(CLOCK_MONOTONIC, &now); // the vDSO
        x += uint64_t(now.tv_nsec);
    }
    g_sink = g_sink + x;
}

__attribute__((noinline)) void spin_alpha(double milliseconds)
{
    spin_for(milliseconds);
    g_sink = g_sink + 1; // work after the call keeps this frame (no tail jump)
}

__attribute__((noinline)) void spin_beta(double milliseconds)
{
    spin_for(milliseconds);
    g_sink = g_sink + 2; // work after the call keeps this frame (no tail jump)
}

int main()
{
    std::printf("main-tid %ld\n", long(syscall(SYS_gettid)));
    std::atomic<bool> done {false};
    std::thread sleeper([&] {
        std::printf("sleeper-tid %ld\n", long(syscall(SYS_gettid)));
        while (!done.load()) {
            const timespec nap {0, 2'000'000};
            nanosleep(&nap, nullptr);
        }
    });
    // Calibrate: rounds of spin_for per millisecond of CPU time.
    const double start = threadCpuSeconds();
    g_roundsPerMs = 64;
    uint64_t rounds = 0;
    while (threadCpuSeconds() - start < 0.05) {
        spin_for(1.0);
        rounds += 64;
    }
    g_roundsPerMs = std::max<uint64_t>(1, rounds / 50);
    for (int i = 0; i < 150; ++i) { // 1.5 s of CPU time, 70% under spin_alpha
        spin_alpha(7.0);
        spin_beta(3.0);
    }
    done = true;
    sleeper.join();
    return int(g_sink & 0); // 0, after using the result
}
