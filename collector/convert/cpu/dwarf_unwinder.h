// Unwinds a sample's copied user stack (--backtrace=dwarf) with elfutils' libdwfl: the
// registers and the stack bytes the kernel copied stand in for the live thread, and each
// module's call frame information (.eh_frame, .debug_frame) walks it. Programs built without
// frame pointers get whole stacks this way.
#pragma once

#include "collector/convert/cpu/process_images.h"

#include <cstdint>
#include <vector>

namespace sightline::collector {

// perf's x86-64 numbers (perf_regs.h) of the registers the stack walks read.
inline constexpr int kPerfRegisterBp = 6;
inline constexpr int kPerfRegisterSp = 7;

// The value of perf register `perfRegister` in `sample`, where `registerMask` recorded it.
bool sampleRegister(const PerfSample& sample, uint64_t registerMask, int perfRegister, uint64_t& value);

// Appends the instruction addresses of `sample`'s stack to `frames`, innermost first, each return
// address moved back into its call; at most `maxFrames`, and never reading outside the copy.
// True when the unwinding ended at the thread's outermost frame (whose return address the call
// frame information leaves undefined: _start, clone3); false where it stopped early or could
// not start (no registers or stack copy).
bool unwindCopiedStack(ProcessImage& image, const PerfSample& sample, uint64_t registerMask,
    std::vector<uint64_t>& frames, size_t maxFrames = 128);

} // namespace sightline::collector
