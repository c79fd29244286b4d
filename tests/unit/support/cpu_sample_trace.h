// A small CPU profile with known shares, for the call tree, stats and Call Stacks tests. Each
// round of ten samples, 100 ns long, holds these stacks (outermost frame first):
//
//   main thread (tid 11)  4 x main > run > rec > rec > hot_a     at +0, +10, +20, +30
//                         3 x main > run > hot_a                 at +40, +50, +60
//                         2 x main > run > hot_b                 at +70, +80
//   worker (tid 12)       1 x main > hot_a > hot_b               at +5 (hot_a at another offset)
//
// So hot_a is the leaf of 70% of the samples and on the stack of 80%, hot_b the leaf of 30%,
// rec (recursive, never a leaf) on the stack of 40%, run of 90% and main of all.
#pragma once

#include "model/construct/trace_builder.h"

#include <array>

namespace sightline::test {

inline constexpr Pid kCpuPid {300};
inline constexpr Tid kCpuMainThread {11};
inline constexpr Tid kCpuWorkerThread {12};
inline constexpr Timestamp kCpuRound = 100;

inline void addCpuSamples(TraceBuilder& b, int rounds = 1)
{
    b.addProcess({kCpuPid, "app", {}});
    b.addThread({kCpuPid, kCpuMainThread, "main"});
    b.addThread({kCpuPid, kCpuWorkerThread, "worker"});
    auto frame = [&](const char* function, const char* module, uint64_t offset) {
        return b.cpuFrame({b.intern(function), b.intern(module), offset, false});
    };
    const uint32_t main = frame("main", "app", 0x10), run = frame("run", "app", 0x20);
    const uint32_t rec = frame("rec", "app", 0x30), hotA = frame("hot_a", "libhot.so", 0x100);
    const uint32_t hotAOther = frame("hot_a", "libhot.so", 0x180), hotB = frame("hot_b", "libm.so.6", 0x200);
    const uint32_t recursive = b.cpuStack(std::array {hotA, rec, rec, run, main});
    const uint32_t direct = b.cpuStack(std::array {hotA, run, main});
    const uint32_t viaRun = b.cpuStack(std::array {hotB, run, main});
    const uint32_t viaHotA = b.cpuStack(std::array {hotB, hotAOther, main});
    b.setSamplingPeriod(10);
    for (int r = 0; r < rounds; ++r) {
        const Timestamp base = r * kCpuRound;
        for (Timestamp t : {0, 10, 20, 30})
            b.addCpuSample({base + t, kCpuMainThread, recursive, 0});
        for (Timestamp t : {40, 50, 60})
            b.addCpuSample({base + t, kCpuMainThread, direct, 0});
        for (Timestamp t : {70, 80})
            b.addCpuSample({base + t, kCpuMainThread, viaRun, 0});
        b.addCpuSample({base + 5, kCpuWorkerThread, viaHotA, 1});
    }
}

inline Trace cpuSampleTrace(int rounds = 1)
{
    TraceBuilder b;
    addCpuSamples(b, rounds);
    return b.build(1);
}

} // namespace sightline::test
