// The launcher's small pieces: report naming, the target's environment, the clock map, NVTX
// matching and capture windows.
#include "../../test_paths.h"
#include "collector/convert/assemble/capture_window.h"
#include "collector/convert/decode/clock_map.h"
#include "collector/convert/decode/nvtx_matcher.h"
#include "collector/launcher/inject_environment.h"
#include "collector/launcher/output_path.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>

using namespace sightline;
using namespace sightline::collector;

TEST_CASE("reports are named without overwriting unless asked to")
{
    const auto dir = test::scratchDir("collector-output-path");
    const auto previous = std::filesystem::current_path();
    std::filesystem::current_path(dir);
    CHECK(resolveReportPath("", 42, "gpu1", false).value() == "report1.rep");
    std::ofstream("report1.rep") << "x";
    std::ofstream("report2.rep") << "x";
    CHECK(resolveReportPath("", 42, "gpu1", false).value() == "report3.rep");
    CHECK(resolveReportPath("run_%p_%h", 42, "gpu1", false).value() == "run_42_gpu1.rep");
    CHECK(resolveReportPath("100%%.rep", 42, "gpu1", false).value() == "100%.rep");
    const auto clash = resolveReportPath("report1", 42, "gpu1", false);
    REQUIRE_FALSE(clash);
    CHECK(clash.error().find("--force-overwrite") != std::string::npos);
    CHECK(resolveReportPath("report1", 42, "gpu1", true).value() == "report1.rep");
    CHECK_FALSE(resolveReportPath("no/such/folder/x", 42, "gpu1", false));
    CHECK(outputNeedsPid("a%pb"));
    CHECK_FALSE(outputNeedsPid("a%hb"));
    std::filesystem::current_path(previous);
}

TEST_CASE("CPython's perf map is asked of every target whose stacks are sampled, however Python starts")
{
    auto perfSupport = [](std::vector<std::string> command, bool sample,
                           std::vector<std::pair<std::string, std::string>> environment = {}) {
        ProfileOptions options;
        options.command = std::move(command);
        options.cpu.sample = sample;
        options.environment = std::move(environment);
        const TargetEnvironment env
            = buildTargetEnvironment(options, "/nonexistent/libinject.so", "", "/tmp/spool");
        const auto found = std::find_if(env.entries.begin(), env.entries.end(),
            [](const std::string& entry) { return entry.starts_with("PYTHONPERFSUPPORT="); });
        return found == env.entries.end() ? std::string("unset") : found->substr(18);
    };
    CHECK(perfSupport({"python3", "train.py"}, true) == "1");
    // Python behind a wrapper: taskset, torchrun (a Python script), uv.
    CHECK(perfSupport({"taskset", "-c", "2,3", "python3", "train.py"}, true) == "1");
    CHECK(perfSupport({"torchrun", "--nproc-per-node=2", "train.py"}, true) == "1");
    CHECK(perfSupport({"uv", "run", "train.py"}, true) == "1");
    // Not sampling stacks: nothing asked. The user's own setting wins.
    CHECK(perfSupport({"python3", "train.py"}, false) == "unset");
    CHECK(perfSupport({"taskset", "-c", "2", "python3"}, true, {{"PYTHONPERFSUPPORT", "0"}}) == "0");
}

TEST_CASE("the clock map is piecewise linear through its pairs and extends past them")
{
    ClockMap clock;
    clock.addPair(1000, 0);
    clock.addPair(4000, 1000); // 3 ticks per ns
    clock.addPair(6000, 2000); // then 2 ticks per ns
    clock.addPair(6000, 2500); // contradicts the previous pair: dropped
    clock.finish();
    CHECK(clock.pairCount() == 3);
    CHECK(clock.toMonotonic(spool::TickSource::Tsc, 2500) == 500);
    CHECK(clock.toMonotonic(spool::TickSource::Tsc, 5000) == 1500);
    CHECK(clock.toMonotonic(spool::TickSource::Tsc, 7000) == 2500); // past the end: last slope
    CHECK(clock.toMonotonic(spool::TickSource::Tsc, 700) == -100); // before the start: first slope
    CHECK(clock.toMonotonic(spool::TickSource::MonotonicNs, 777) == 777);
}

TEST_CASE("NVTX matching nests pops per thread and domain and ends ranges on other threads")
{
    std::vector<collector::HostEvent<NvtxEvent>> out;
    NvtxMatcher matcher(out);
    NvtxEvent e;
    e.start = 10;
    matcher.push(Tid(1), e);
    e.start = 20;
    e.attributes.domain = DomainId(2);
    matcher.push(Tid(1), e); // another domain: its own stack
    matcher.pop(Tid(1), DomainId(), 30); // closes the default-domain push at 10
    REQUIRE(out.size() == 1);
    CHECK((out[0].event.start == 10 && out[0].event.end == 30));
    matcher.pop(Tid(2), DomainId(2), 31); // other thread: unmatched
    CHECK(matcher.unmatchedEnds() == 1);
    e.start = 40;
    matcher.end(99, Tid(3), 50); // read before its start: other threads come in any order
    matcher.start(99, Tid(1), e);
    matcher.end(99, Tid(3), 60); // a second end for the same id
    CHECK(matcher.finish(100) == 1); // the domain-2 push
    CHECK(matcher.unmatchedEnds() == 2);
    REQUIRE(out.size() == 3);
    CHECK((out[1].tid == Tid(1) && out[1].event.attributes.endThread == Tid(3) && out[1].event.end == 50));
    CHECK((out[2].event.attributes.domain == DomainId(2) && out[2].event.end == 100));
}

TEST_CASE("capture windows keep what overlaps them")
{
    std::vector<ProcessCapture> processes(2);
    processes[0].captureControls = {{100, true}, {200, false}, {150, true}};
    processes[1].captureControls = {{500, true}}; // never stopped: open until the session ends
    TraceBuilder builder;
    CaptureSpec spec;
    spec.mode = CaptureMode::CudaProfilerApi;
    const auto windows = CaptureWindows::compute(spec, processes, builder, 1000);
    CHECK(windows.windows() == std::vector<TimeRange> {{100, 200}, {500, 1000}});
    CHECK(windows.keeps(50, 150));
    CHECK(windows.keeps(199, 199));
    CHECK_FALSE(windows.keeps(200, 300));
    CHECK_FALSE(windows.keeps(0, 100));
    CHECK(windows.keeps(999, 2000));

    CaptureSpec timed;
    timed.delay = 120;
    timed.duration = 400;
    const auto both = CaptureWindows::compute(spec, processes, builder, 1000);
    spec.delay = 120;
    spec.duration = 400;
    const auto cut = CaptureWindows::compute(spec, processes, builder, 1000);
    CHECK(cut.windows() == std::vector<TimeRange> {{120, 200}, {500, 520}});
    const auto delayOnly = CaptureWindows::compute(timed, processes, builder, 1000);
    CHECK(delayOnly.windows() == std::vector<TimeRange> {{120, 520}});
    CHECK(CaptureWindows::compute(CaptureSpec {}, processes, builder, 1000).keepsEverything());
    CHECK_FALSE(both.keepsEverything());
}
