// cpu_bound_ranges on a trace whose CPU side is known by construction: the launching thread
// launches a kernel every 20 ms; in one GPU gap it computes (Running, sampled in preprocess),
// in another it sleeps, in a third it sits in cudaDeviceSynchronize. Only the first is the
// GPU waiting for the CPU's own work, and the finding names the function.
#include "model/analysis/analysis.h"
#include "model/construct/trace_builder.h"

#include <catch2/catch.hpp>

using namespace sightline;

namespace {

constexpr Timestamp kMs = 1'000'000;
constexpr Pid kPid {7};
constexpr Tid kTid {7};

struct CpuScenario
{
    Trace trace;
    TimeRange computing; // the GPU gap during which the thread runs preprocess()
};

CpuScenario cpuScenario()
{
    TraceBuilder b;
    b.addProcess({kPid, "train", {}});
    b.addThread({kPid, kTid, "train"});
    const TrackId api = b.hostTrack(TrackKind::CudaApi, kPid, kTid);
    const TrackId kernels = b.gpuTrack(TrackKind::Kernels, kPid, DeviceId(0), ContextId(1), StreamId(7));
    const StringId launch = b.intern("cudaLaunchKernel"), sync = b.intern("cudaDeviceSynchronize");
    const auto frame = [&](const char* function) {
        return b.cpuFrame({b.intern(function), b.intern("train"), 0x10, false});
    };
    const uint32_t main = frame("main"), preprocess = frame("preprocess"), sleep = frame("clock_nanosleep");
    const uint32_t computeStack = b.cpuStack(std::vector<uint32_t> {preprocess, main});
    const uint32_t sleepStack = b.cpuStack(std::vector<uint32_t> {sleep, main});
    b.setSamplingPeriod(kMs);

    // Kernels [0, 10), [20, 30), [40, 50), [60, 70) ms, each launched 1 ms before it starts.
    for (int k = 0; k < 4; ++k) {
        const Timestamp start = (20 * k) * kMs + kMs;
        b.add(api, ApiCall {start - kMs, start - kMs / 2, launch, CorrelationId(uint32_t(k + 1)), {}});
        b.add(kernels,
            KernelEvent {start, start + 9 * kMs, b.intern("step"), CorrelationId(uint32_t(k + 1)), {}});
    }
    // Gap 1 (10-20 ms): computing. Gap 2 (30-40 ms): sleeping. Gap 3 (50-60 ms): synchronizing.
    b.addThreadState({0, 30 * kMs, kTid, ThreadState::Running, kNoCallStack});
    for (Timestamp t = 10 * kMs; t < 20 * kMs; t += kMs)
        b.addCpuSample({t, kTid, computeStack, 0});
    b.addThreadState({30 * kMs, 40 * kMs, kTid, ThreadState::Sleeping, sleepStack});
    b.addThreadState({40 * kMs, 80 * kMs, kTid, ThreadState::Running, kNoCallStack});
    b.add(api, ApiCall {50 * kMs, 59 * kMs + kMs / 2, sync, CorrelationId(0), {}});
    return {b.build(), {10 * kMs, 20 * kMs + kMs}};
}

const Finding* findingOf(const AnalysisResult& result, std::string_view rule)
{
    for (const Finding& f : result.findings)
        if (f.rule == rule) return &f;
    return nullptr;
}

} // namespace

TEST_CASE("cpu_bound_ranges finds the gap the launching thread spent computing, and names the function",
    "[analysis][cpu]")
{
    const CpuScenario scenario = cpuScenario();
    AnalysisOptions options;
    options.rules = {"cpu_bound_ranges"};
    const AnalysisResult result = analyze(scenario.trace, options);
    const Finding* found = findingOf(result, "cpu_bound_ranges");
    REQUIRE(found);
    INFO(found->summary);
    REQUIRE(found->evidenceCount == 1);
    // The gap runs from the first kernel's end to the second kernel's start.
    CHECK(found->evidence.front().range == scenario.computing);
    CHECK(found->summary.find("preprocess (100%)") != std::string::npos);
}

TEST_CASE("cpu_bound_ranges stays silent without CPU data or above its gap threshold", "[analysis][cpu]")
{
    CpuScenario scenario = cpuScenario();
    AnalysisOptions options;
    options.rules = {"cpu_bound_ranges"};
    options.cpuGapThreshold = 20 * kMs; // longer than every gap
    CHECK(findingOf(analyze(scenario.trace, options), "cpu_bound_ranges") == nullptr);

    scenario.trace.cpu = {};
    options.cpuGapThreshold = kMs;
    CHECK(findingOf(analyze(scenario.trace, options), "cpu_bound_ranges") == nullptr);
}
