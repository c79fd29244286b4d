// `sightline profile` records CPU samples and thread states with real perf events, end to end on
// cpu_target.cpp: the main thread's time splits 70/30 between hot_a and hot_b, the sleeping
// thread sleeps, the blocked thread's wait on the mutex is one Blocked interval as long as it
// measured, and the child started with fork+exec is sampled too. Without frame pointers,
// --backtrace=dwarf still names both functions.
#include "../../test_paths.h"
#include "collector_test_support.h"
#include "cpu_run_support.h"
#include "model/format/report_io.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace sightline;
using namespace sightline::test;

namespace {

// The share of `tid`'s samples with each function on their stack.
std::pair<double, double> shares(
    const Trace& trace, Tid tid, std::string_view a, std::string_view b, size_t& total)
{
    size_t inA = 0, inB = 0;
    const auto samples = trace.cpu.threadSamples(tid, {INT64_MIN, INT64_MAX});
    for (const CpuSample& s : samples) {
        inA += stackHas(trace, s.stack, a);
        inB += stackHas(trace, s.stack, b);
    }
    total = inA + inB;
    return {total ? double(inA) / double(total) : 0, total ? double(inB) / double(total) : 0};
}

Duration timeIn(const Trace& trace, Tid tid, ThreadState state, Duration& life)
{
    const auto states = trace.cpu.threadStates(tid, {INT64_MIN, INT64_MAX});
    Duration in = 0;
    for (const ThreadStateInterval& s : states)
        if (s.state == state) in += s.end - s.start;
    life = states.empty() ? 0 : states.back().end - states.front().start;
    return in;
}

// The main thread spent 70% of its samples in hot_a and 30% in hot_b, over 1.5 s at 1 kHz.
Tid checkMainThreadShares(const CpuRun& r)
{
    const Tid mainTid(uint32_t(printed(r.run.out, "main-tid")));
    size_t sampled = 0;
    const auto [a, b] = shares(r.trace, mainTid, "hot_a", "hot_b", sampled);
    INFO("samples " << sampled << ", hot_a " << a << ", hot_b " << b);
    CHECK(sampled >= 500);
    CHECK(a == Approx(0.70).margin(0.05));
    CHECK(b == Approx(0.30).margin(0.05));
    return mainTid;
}

} // namespace

TEST_CASE("CPU samples and thread states of a program built with frame pointers", "[collector][cpu]")
{
    const CpuRun r = profileCpu("cpu_sampling_fp", CPU_TARGET_FP, "--sample=process-tree --backtrace=fp");
    if (r.refused) {
        WARN("perf events are not allowed here (perf_event_paranoid); nothing to check");
        return;
    }
    checkMainThreadShares(r);

    Duration life = 0;
    const Tid sleeper(uint32_t(printed(r.run.out, "sleeper-tid")));
    const Duration sleeping = timeIn(r.trace, sleeper, ThreadState::Sleeping, life);
    INFO("sleeping " << sleeping << " of " << life);
    CHECK(life > 1'500'000'000);
    CHECK(double(sleeping) >= 0.95 * double(life));

    const Tid blocked(uint32_t(printed(r.run.out, "blocked-tid")));
    const double waited = double(printed(r.run.out, "blocked-wait-ns"));
    Duration longestBlock = 0;
    for (const ThreadStateInterval& s : r.trace.cpu.threadStates(blocked, {INT64_MIN, INT64_MAX}))
        if (s.state == ThreadState::Blocked) longestBlock = std::max(longestBlock, s.end - s.start);
    INFO("blocked interval " << longestBlock << " ns, measured wait " << waited << " ns");
    CHECK(waited > 5e8);
    CHECK(double(longestBlock) == Approx(waited).epsilon(0.10));

    const Tid child(uint32_t(printed(r.run.out, "child-pid")));
    size_t childSampled = 0;
    shares(r.trace, child, "child_spin", "hot_a", childSampled);
    CHECK(childSampled >= 200); // 0.4 s at 1 kHz
    CHECK(r.trace.findProcess(Pid(child.value)) != nullptr);
}

TEST_CASE("DWARF backtraces name the functions of a program built without frame pointers", "[collector][cpu]")
{
    const CpuRun r = profileCpu("cpu_sampling_dwarf", CPU_TARGET_NOFP, "--backtrace=dwarf --cpuctxsw=none");
    if (r.refused) {
        WARN("perf events are not allowed here (perf_event_paranoid); nothing to check");
        return;
    }
    const Tid mainTid = checkMainThreadShares(r);
    // Whole stacks: main calls them.
    bool reachesMain = false;
    for (const CpuSample& s : r.trace.cpu.threadSamples(mainTid, {INT64_MIN, INT64_MAX}))
        reachesMain
            = reachesMain || (stackHas(r.trace, s.stack, "hot_a") && stackHas(r.trace, s.stack, "main"));
    CHECK(reachesMain);
}

// Where perf events are restricted, the profile still runs and says which setting to change:
// as an unprivileged user with perf_event_paranoid 2 (Debian's default) the kernel refuses
// kernel-side samples, so the recording keeps user-space samples and a diagnostic names
// perf_event_paranoid; above 2 nothing can be sampled and the diagnostic says so.
TEST_CASE(
    "An unprivileged user's profile samples what it may and names perf_event_paranoid", "[collector][cpu]")
{
    std::ifstream paranoidFile("/proc/sys/kernel/perf_event_paranoid");
    int paranoid = -1;
    paranoidFile >> paranoid;
    if (geteuid() != 0 || paranoid < 2 || runCommand("command -v setpriv").exitCode != 0) {
        WARN("needs root (to drop to 'nobody'), setpriv and perf_event_paranoid >= 2; skipped");
        return;
    }
    const auto dir = scratchDir("cpu_sampling_unprivileged");
    std::filesystem::permissions(dir, std::filesystem::perms::all);
    const std::string report = (dir / "cpu.rep").string();
    const CommandResult run = runCommand("cd " + shellQuote(dir.string())
        + " && HOME=" + shellQuote(dir.string()) + " setpriv --reuid=65534 --regid=65534 --clear-groups "
        + profileCommand() + " -t none -o " + shellQuote(report) + " " + shellQuote(CPU_TARGET_FP));
    INFO(run.out << run.err);
    REQUIRE(run.exitCode == 0);
    Result<Trace> trace = readReport(report);
    REQUIRE(trace);
    std::string named;
    for (const Diagnostic& d : trace.value().diagnostics)
        if (d.text.find("perf_event_paranoid") != std::string::npos) named = d.text;
    INFO("samples " << trace.value().cpu.samples.size());
    CHECK(!named.empty());
    if (paranoid == 2) CHECK(trace.value().cpu.samples.size() >= 500); // user-space samples of 1.5 s at 1 kHz
}
