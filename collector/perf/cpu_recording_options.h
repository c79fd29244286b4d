// What the CPU side of a recording samples (`sightline profile -s/--sample`,
// `--sampling-frequency`, `--cpuctxsw`, `--backtrace`), shared by the launcher's options and
// the recorder.
#pragma once

#include <cstdint>

namespace sightline::collector {

enum class BacktraceMethod : uint8_t {
    FramePointers, // the kernel walks frame pointers (PERF_SAMPLE_CALLCHAIN)
    Dwarf, // the kernel copies the user stack; libdw unwinds it after the run
    None, // the sampled instruction only
};

struct CpuRecordingOptions
{
    bool sample = true; // --sample=process-tree
    uint32_t frequency = 1000; // Hz, 100 to 10000
    bool contextSwitches = true; // --cpuctxsw=process-tree: thread states
    BacktraceMethod backtrace = BacktraceMethod::FramePointers;
    bool any() const { return sample || contextSwitches; }
};

} // namespace sightline::collector
