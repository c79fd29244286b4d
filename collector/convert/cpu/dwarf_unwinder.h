// Unwinds a sample's copied user stack (--backtrace=dwarf) with elfutils' libdwfl: the
// registers and the stack bytes the kernel copied stand in for the live thread, and each
// module's call frame information (.eh_frame, .debug_frame) walks it. Programs built without
// frame pointers get whole stacks this way.
#pragma once

#include "collector/convert/cpu/process_images.h"
#include "collector/spool/frame_pointer_walk.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace sightline::collector {

using spool::kPerfRegisterBp;
using spool::kPerfRegisterSp;

// The value of perf register `perfRegister` in `sample`, where `registerMask` recorded it.
bool sampleRegister(const PerfSample& sample, uint64_t registerMask, int perfRegister, uint64_t& value);

// Where the call frame information at `ip` defines the frame's CFA as the stack pointer plus an
// offset (code that keeps no frame pointer, or a prologue or epilogue), that offset: the
// return address then lies 8 bytes below it. Nothing where the frame pointer defines it, or
// where `ip` has no call frame information.
std::optional<int64_t> stackPointerCfaOffset(ProcessImage& image, uint64_t ip);

// Appends the instruction addresses of `sample`'s stack to `frames`, innermost first, each return
// address moved back into its call; at most `maxFrames`, and never reading outside the copy.
// True when the unwinding ended at the thread's outermost frame (whose return address the call
// frame information leaves undefined: _start, clone3); false where it stopped early or could
// not start (no registers or stack copy). `bytesRead`, where given, receives how much of the
// copy, from its start, the frames depend on.
bool unwindCopiedStack(ProcessImage& image, const PerfSample& sample, uint64_t registerMask,
    std::vector<uint64_t>& frames, size_t maxFrames = 128, size_t* bytesRead = nullptr);

} // namespace sightline::collector
