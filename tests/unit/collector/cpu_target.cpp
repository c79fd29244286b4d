// The program the CPU sampling tests profile (test_cpu_sampling.cpp). Its main thread spends
// 70% of its CPU time in hot_a() and 30% in hot_b() for about 1.5 s; a second thread sleeps
// through that time in one nanosleep; a third blocks on a mutex the main thread holds for the
// first 0.8 s and prints how long it waited; a child started with fork+exec spins in
// child_spin() for 0.4 s. Built twice: with frame pointers and without them (--backtrace=dwarf).
// `cpu_target work ROUNDS THREADS` is the benchmarks' fixed CPU-bound work instead.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
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

// Arithmetic until `until`, checking the clock rarely so that the time is spent here.
__attribute__((noinline)) void spinUntil(Clock::time_point until, uint64_t seed)
{
    uint64_t x = seed;
    while (Clock::now() < until)
        for (int i = 0; i < 20000; ++i)
            x = x * 6364136223846793005ull + 1442695040888963407ull;
    g_sink = g_sink + x;
}

} // namespace

extern "C" __attribute__((noinline)) void hot_a(Clock::duration d)
{
    spinUntil(Clock::now() + d, 1);
    g_sink = g_sink + 1; // work after the call keeps this frame (no tail jump)
}
extern "C" __attribute__((noinline)) void hot_b(Clock::duration d)
{
    spinUntil(Clock::now() + d, 2);
    g_sink = g_sink + 2; // work after the call keeps this frame (no tail jump)
}
extern "C" __attribute__((noinline)) void child_spin(Clock::duration d)
{
    spinUntil(Clock::now() + d, 3);
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
        child_spin(400ms);
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

    const auto start = Clock::now();
    bool released = false;
    while (Clock::now() - start < 1500ms) {
        hot_a(7ms);
        hot_b(3ms);
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
