// Cuts the user-stack copies of perf samples down to what the conversion will read.
//
// PERF_SAMPLE_STACK_USER makes every sample carry the whole requested copy (4 KiB here) however
// little of it matters: a busy thread wrote over 4 KB a sample into the CPU recording, 820 MB
// for 190,000 samples. As the launcher drains the rings it keeps of each copy:
//  - where the kernel's frame-pointer walk is whole (replayed on the copy, it ends on a null
//    frame pointer: spool/frame_pointer_walk.h), only the first kLeafStackBytes, from which the
//    conversion reads the caller of a leaf that keeps no frame pointer; the sample's dyn_size
//    is left as the kernel wrote it, so a dyn_size above the copy's size says "cut after a
//    whole walk" (the kernel never writes one);
//  - otherwise the bytes the kernel copied (dyn_size), rounded up to 8, for libdw to unwind;
//  - and those too for the processes `keepsCopy` names (CPython threads whose Python stacks are
//    read: a walk ending on a null frame pointer may have stopped at a frame without one, and the
//    conversion then unwinds the copy to find the interpreter's frames, python_stack_recorder.h).
// A cut sample is still a well-formed perf record.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace sightline::collector {

inline constexpr uint64_t kLeafStackBytes = 512;

// Appends `records` (whole perf records, as drained from a ring) to `out`, each sample's stack
// copy cut as above. `sampleType` and `registerMask` (PERF_SAMPLE_REGS_USER's registers)
// describe the samples; a record that does not parse as such is appended unchanged.
void appendTrimmedRecords(std::string_view records, uint64_t sampleType, uint64_t registerMask,
    std::vector<char>& out, const std::function<bool(uint32_t pid)>& keepsCopy = {});

} // namespace sightline::collector
