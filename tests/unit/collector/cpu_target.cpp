// The program the CPU sampling tests profile (test_cpu_sampling.cpp). Its main thread spends
// 70% of its CPU time in hot_a() and 30% in hot_b(), about 1.5 s of CPU time in all (fixed
// work, calibrated on the thread's CPU clock); a second thread sleeps 1.6 s in one nanosleep; a
// third blocks on a mutex the main thread holds for the first 0.8 s and prints how long it
// waited; a child started with fork+exec spins in child_spin() for about 0.4 s of CPU time. Built twice: with
// frame pointers and without them (--backtrace=dwarf). `cpu_target work ROUNDS THREADS` is the benchmarks'
// fixed CPU-bound work instead.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>
#include <string>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

volatile uint64_t g_sink = 0;

long threadId()
{
    return long(syscall(SYS_gettid));
}

// A fixed amount of arithmetic: the CPU time it takes does not depend on how often the thread
// is preempted, so shares hold on a busy machine. Inlined, so that the time is spent in the
// named functions themselves (a leaf without a frame of its own would hide its caller from a
// frame-pointer walk).
__attribute__((always_inline)) inline void spinRounds(uint64_t rounds, uint64_t seed)
{
    uint64_t x = seed;
    for (uint64_t r = 0; r < rounds; ++r)
        for (int i = 0; i < 20000; ++i)
            x = x * 6364136223846793005ull + 1442695040888963407ull;
    g_sink = g_sink + x;
}

double threadCpuSeconds()
{
    timespec t {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// How many rounds of spinRounds take a millisecond of this thread's CPU time.
__attribute__((noinline)) uint64_t roundsPerMillisecond()
{
    const double start = threadCpuSeconds();
    uint64_t rounds = 0;
    while (threadCpuSeconds() - start < 0.05) {
        spinRounds(10, 7);
        rounds += 10;
    }
    return std::max<uint64_t>(1, rounds / 50);
}

} // namespace

extern "C" __attribute__((noinline)) void hot_a(uint64_t rounds)
{
    spinRounds(rounds, 1);
    g_sink = g_sink + 1; // work after the call keeps this frame (no tail jump)
}
extern "C" __attribute__((noinline)) void hot_b(uint64_t rounds)
{
    spinRounds(rounds, 2);
    g_sink = g_sink + 2; // work after the call keeps this frame (no tail jump)
}
extern "C" __attribute__((noinline)) void child_spin(uint64_t rounds)
{
    spinRounds(rounds, 3);
    g_sink = g_sink + 3; // work after the call keeps this frame (no tail jump)
}

// A fixed amount of arithmetic on `threads` threads (the benchmarks' CPU-bound loop): prints
// how long it took, so that runs with and without sampling compare.
extern "C" __attribute__((noinline)) void fixed_work(uint64_t rounds)
{
    uint64_t x = rounds;
    for (uint64_t r = 0; r < rounds; ++r)
        for (int i = 0; i < 20000; ++i)
            x = x * 6364136223846793005ull + 1442695040888963407ull;
    g_sink = g_sink + x;
}

int runWork(uint64_t rounds, int threads)
{
    const auto start = Clock::now();
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t)
        workers.emplace_back([rounds] { fixed_work(rounds); });
    for (std::thread& w : workers)
        w.join();
    std::printf("work-seconds %.6f\n", std::chrono::duration<double>(Clock::now() - start).count());
    return 0;
}

int main(int argc, char** argv)
{
    using namespace std::chrono_literals;
    if (argc > 1 && strcmp(argv[1], "child") == 0) {
        child_spin(400 * roundsPerMillisecond());
        return 0;
    }
    if (argc > 3 && strcmp(argv[1], "work") == 0) return runWork(std::stoull(argv[2]), std::atoi(argv[3]));
    std::printf("main-tid %ld\n", threadId());

    std::mutex gate;
    gate.lock();
    std::atomic<long> sleeperTid {0}, blockedTid {0};
    std::thread sleeper([&] {
        sleeperTid = threadId();
        std::this_thread::sleep_for(1600ms);
    });
    std::thread blocked([&] {
        blockedTid = threadId();
        const auto began = Clock::now();
        gate.lock();
        const auto waited = Clock::now() - began;
        gate.unlock();
        std::printf("blocked-wait-ns %lld\n",
            static_cast<long long>(std::chrono::duration_cast<std::chrono::nanoseconds>(waited).count()));
    });

    const pid_t child = fork();
    if (child == 0) {
        execl("/proc/self/exe", argv[0], "child", static_cast<char*>(nullptr));
        _exit(127);
    }

    const uint64_t perMs = roundsPerMillisecond();
    const auto start = Clock::now();
    bool released = false;
    for (int i = 0; i < 150; ++i) { // 1.5 s of CPU time, 70% in hot_a
        hot_a(7 * perMs);
        hot_b(3 * perMs);
        if (!released && Clock::now() - start >= 800ms) {
            gate.unlock();
            released = true;
        }
    }
    if (!released) gate.unlock();
    sleeper.join();
    blocked.join();
    int status = 0;
    waitpid(child, &status, 0);
    std::printf(
        "sleeper-tid %ld\nblocked-tid %ld\nchild-pid %d\n", sleeperTid.load(), blockedTid.load(), int(child));
    return 0;
}
