// Whole call stacks (issue #32), end to end with real perf events on stack_target.cpp, a
// program built without frame pointers: with the default options (frame pointers, checked, and
// the copied stack unwound where they break) and with --backtrace=dwarf, main is on nearly every
// stack of its thread and spin_alpha and spin_beta keep their 70/30 shares; no stack starts in a
// bare address; vDSO frames are named from the vDSO; Sightline's own injection library, whose
// OS-runtime wrappers the sleeping thread passes through, shows in no stack.
#include "../../test_paths.h"
#include "cpu_run_support.h"

#include <catch2/catch.hpp>

using namespace sightline;
using namespace sightline::test;

namespace {

// Of the main thread's samples: the share with main on the stack, and the shares of spin_alpha
// and spin_beta (the Total column of cpu_samples_sum, for one thread).
void checkWholeStacks(const CpuRun& r)
{
    const Tid mainTid(uint32_t(printed(r.run.out, "main-tid")));
    size_t samples = 0, inMain = 0, inAlpha = 0, inBeta = 0;
    for (const CpuSample& s : r.trace.cpu.threadSamples(mainTid, {INT64_MIN, INT64_MAX})) {
        ++samples;
        inMain += stackHas(r.trace, s.stack, "main");
        inAlpha += stackHas(r.trace, s.stack, "spin_alpha(");
        inBeta += stackHas(r.trace, s.stack, "spin_beta(");
    }
    const double n = double(std::max<size_t>(samples, 1));
    INFO("samples " << samples << ", main " << inMain / n << ", spin_alpha " << inAlpha / n << ", spin_beta "
                    << inBeta / n);
    CHECK(samples >= 1000); // 1.5 s at 1 kHz
    CHECK(inMain / n >= 0.95);
    CHECK(inAlpha / n == Approx(0.70 * 0.97).margin(0.06)); // 3% calibration, start and exit
    CHECK(inBeta / n == Approx(0.30 * 0.97).margin(0.06));
}

// No frame is a bare address: unknown code reads module+0xOFFSET, the vDSO's is named from it.
void checkFrameNames(const Trace& trace)
{
    for (const StackFrame& frame : trace.cpu.frames) {
        const std::string_view function = trace.strings[frame.function];
        const std::string_view module = trace.strings[frame.module];
        INFO(function << " in " << module);
        CHECK(!function.starts_with("0x"));
        CHECK(module != "libsightline-inject.so");
    }
}

} // namespace

TEST_CASE(
    "Whole stacks of a program built without frame pointers, by default and with dwarf", "[collector][cpu]")
{
    const std::string backtrace = GENERATE(std::string("fp"), std::string("dwarf"));
    const CpuRun r = profileCpu(
        "cpu_stacks_" + backtrace, STACK_TARGET, "--backtrace=" + backtrace + " --cpuctxsw=none");
    if (r.refused) {
        WARN("perf events are not allowed here (perf_event_paranoid); nothing to check");
        return;
    }
    INFO("--backtrace=" << backtrace);
    checkWholeStacks(r);
    checkFrameNames(r.trace);
}

TEST_CASE(
    "Stacks show none of Sightline's own frames, with the OS-runtime wrappers injected", "[collector][cpu]")
{
    // -t osrt after profileCpu's -t none: the sleeping thread's nanosleep goes through the
    // injection library's wrapper, and its thread states carry the stacks it left the CPU from.
    const CpuRun r = profileCpu("cpu_stacks_osrt", STACK_TARGET, "-t osrt --osrt-threshold=0");
    if (r.refused) {
        WARN("perf events are not allowed here (perf_event_paranoid); nothing to check");
        return;
    }
    const Tid sleeper(uint32_t(printed(r.run.out, "sleeper-tid")));
    size_t waits = 0, inNanosleep = 0;
    for (const ThreadStateInterval& s : r.trace.cpu.threadStates(sleeper, {INT64_MIN, INT64_MAX}))
        if (s.stack != kNoCallStack) {
            ++waits;
            inNanosleep
                += stackHas(r.trace, s.stack, "__nanosleep") || stackHas(r.trace, s.stack, "nanosleep");
        }
    INFO("waits " << waits << ", through nanosleep " << inNanosleep);
    CHECK(waits >= 100); // 2 ms naps over 1.5 s
    CHECK(inNanosleep >= waits / 2);
    checkFrameNames(r.trace);
}
