// The CPU recording file (collector/spool/cpu_recording_file.h) read back: the kernel's
// records of every CPU checked, parsed and merged into one list per kind in time order.
//
// Nothing in the file is trusted: a record shorter than its own fields, a callchain or stack
// copy running past its record, or a chunk running past the file ends that chunk with a
// diagnostic; a file cut short keeps every complete chunk. Views into the file (callchains,
// stack copies, names) stay valid as long as the PerfRecording lives.
#pragma once

#include "collector/spool/cpu_recording_file.h"
#include "model/common/result.h"
#include "model/format/mapped_file.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sightline::collector {

struct PerfSample
{
    spool::cpu_recording::EventRole role = spool::cpu_recording::EventRole::CpuClock;
    uint64_t time = 0; // CLOCK_MONOTONIC ns
    uint32_t pid = 0;
    uint32_t tid = 0;
    uint32_t cpu = 0;
    uint64_t ip = 0;
    bool kernelIp = false; // the sampled instruction was in the kernel
    std::span<const uint64_t> kernelChain; // return addresses, innermost first
    std::span<const uint64_t> userChain; // user instruction pointers, innermost first
    std::span<const uint64_t> userRegisters; // as sample_regs_user selects (DWARF unwinding)
    std::string_view userStack; // the copied user stack, from the stack pointer up
    // The launcher kept only the leaf's part of the copy because the frame-pointer walk was
    // whole (collector/perf/stack_trim.h: the sample's dyn_size exceeds its copy).
    bool userStackCut = false;
};

struct PerfMapping
{
    uint64_t time = 0;
    uint32_t pid = 0;
    uint64_t start = 0;
    uint64_t length = 0;
    uint64_t fileOffset = 0;
    std::string_view path;
};

struct PerfThreadEvent
{
    enum class Kind : uint8_t { Comm, Fork, Exit, SwitchIn, SwitchOut } kind = Kind::Comm;
    uint64_t time = 0;
    uint32_t pid = 0;
    uint32_t tid = 0;
    uint32_t cpu = 0;
    uint32_t parentPid = 0; // Fork
    bool exec = false; // Comm: the name changed because the thread exec'ed
    bool preempted = false; // SwitchOut: taken off the CPU while runnable
    std::string_view name; // Comm
};

// The Python stack the launcher read for a timer sample of a CPython thread
// (collector/spool/python_stack_records.h).
struct PythonStack
{
    uint64_t time = 0; // the sample's
    uint32_t pid = 0;
    uint32_t tid = 0;
    std::span<const uint32_t> frames; // code ids, innermost first, with kEntryFrameBit
};

struct PythonCodeName
{
    std::string_view name; // qualified
    std::string_view file;
    uint32_t firstLine = 0;
};

struct PerfRecording
{
    std::string path;
    // The whole file, mapped (page cache, not the process's memory: stack copies make it large);
    // the views above point into it.
    std::unique_ptr<MappedFile> file;
    uint64_t samplingPeriodNs = 0;
    uint64_t sampleRegistersMask = 0;
    std::vector<PerfSample> samples; // by time
    std::vector<PerfMapping> mappings; // by time
    std::vector<PerfThreadEvent> threadEvents; // by time
    std::vector<PythonStack> pythonStacks; // by time
    std::unordered_map<uint32_t, PythonCodeName> pythonCodes; // by code id
    uint64_t lostRecords = 0;
    std::vector<std::string> diagnostics; // the recorder's and the reader's sentences
};

// Reads `path`. A missing file is an empty recording (CPU sampling was off); a file that is not
// a CPU recording, or of a newer version, is a failure with one sentence.
Result<PerfRecording> readPerfRecording(const std::string& path);

} // namespace sightline::collector
