// Unwinds a sample's copied user stack (--backtrace=dwarf) with elfutils' libdwfl: the
// registers and the stack bytes the kernel copied stand in for the live thread, and each
// module's call frame information (.eh_frame, .debug_frame) walks it. Programs built without
// frame pointers get whole stacks this way.
#pragma once

#include "collector/convert/cpu/process_images.h"

#include <cstdint>
#include <vector>

namespace sightline::collector {

// The instruction addresses of `sample`'s stack, innermost first, each return address moved
// back into its call; at most `maxFrames`. Empty without registers or a stack copy.
std::vector<uint64_t> unwindCopiedStack(
    ProcessImage& image, const PerfSample& sample, uint64_t registerMask, size_t maxFrames = 128);

} // namespace sightline::collector
