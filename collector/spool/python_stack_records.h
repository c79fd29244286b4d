// Python stacks in the CPU recording (cpu_recording_file.h): where no perf map names CPython's
// functions (3.11 and older), the launcher reads the interpreter's frame chain of a sampled
// thread (collector/perf/python_frames.h) and writes it into chunks whose cpu is
// kPythonStackChunk; the conversion (collector/convert/cpu/python_stacks.h) puts those frames
// in place of the interpreter's native frames. A chunk holds entries, each 8-byte aligned:
//
//   code   u32 kind (1), u32 entry bytes, u32 code id, u32 first line, u32 name bytes,
//          u32 file bytes, then the qualified name and the file name, NUL-padded to 8
//   stack  u32 kind (2), u32 entry bytes, u32 pid, u32 tid, u64 sample time (the timer sample's,
//          CLOCK_MONOTONIC ns), u32 frame count, u32 reserved, then count x u32 frames,
//          innermost first, NUL-padded to 8
//
// A frame is a code id (0: a frame still being set up, which has no name yet), with
// kEntryFrameBit on the outermost frame that one call of the interpreter's loop
// (_PyEval_EvalFrameDefault) runs. Code ids are unique in a recording, and a code entry comes
// before the first stack that names it.
#pragma once

#include <cstdint>

namespace sightline::spool::python_stacks {

constexpr uint32_t kPythonStackChunk = 0xFFFFFFFE;
constexpr uint32_t kCodeEntry = 1;
constexpr uint32_t kStackEntry = 2;
constexpr uint32_t kEntryFrameBit = 0x80000000u;
constexpr uint32_t kMaxFrames = 256; // deeper chains are not read
constexpr uint32_t kMaxNameBytes = 1024; // longer names and file names are cut

struct CodeEntryHeader
{
    uint32_t kind;
    uint32_t bytes;
    uint32_t id;
    uint32_t firstLine;
    uint32_t nameBytes;
    uint32_t fileBytes;
};
static_assert(sizeof(CodeEntryHeader) == 24);

struct StackEntryHeader
{
    uint32_t kind;
    uint32_t bytes;
    uint32_t pid;
    uint32_t tid;
    uint64_t sampleTime;
    uint32_t frameCount;
    uint32_t reserved;
};
static_assert(sizeof(StackEntryHeader) == 32);

} // namespace sightline::spool::python_stacks
