// The Python stacks of timer samples of CPython threads, read by the launcher as it drains the
// perf rings (python_frames.h) and written into the CPU recording's Python chunks
// (collector/spool/python_stack_records.h), for the conversion to merge with the native stacks.
//
// A stack can only be read after its sample, while the thread runs on, so it is read right after
// the drain that brings the sample, for the newest sample of each thread in that drain only (an
// older one was taken where the thread may no longer be). While a process with a readable
// CPython is sampled, the recorder drains every sampling period instead of every 20 ms
// (`active()`: every half period), so a stack is read about a quarter of a period after its sample: functions
// that run for less than that may be named for the one that runs next. A process is examined at its first
// sample, after each exec, and again when it maps a libpython; one without a readable CPython
// costs a hash look-up per sample.
#pragma once

#include "collector/perf/python_frames.h"

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sightline::collector {

class PythonStackRecorder
{
public:
    // `sampleType`: the samples' fields (IDENTIFIER, IP, TID and TIME first); `clockIds`: the ids
    // of the timer sampling events, whose samples get Python stacks.
    PythonStackRecorder(uint64_t sampleType, std::vector<uint64_t> clockIds);

    // Reads the Python stacks of the samples among `records` (perf records as drained) and
    // appends them to `out` as one Python chunk, when there are any.
    void addStacksOf(std::string_view records, std::vector<char>& out);

    // Whether a sampled process is a CPython whose frames are read.
    bool active() const { return m_readable > 0; }
    // Whether process `pid` is one.
    bool readsFramesOf(uint32_t pid) const;

    // Sentences about processes whose frames cannot be read, each once; emptied by the call.
    std::vector<std::string> takeWarnings();

private:
    struct Process
    {
        bool examined = false;
        std::unique_ptr<PythonProcess> python;
    };
    struct Sampled
    {
        uint32_t pid = 0, tid = 0;
        uint64_t time = 0;
    };

    void noteRecord(uint32_t type, uint16_t misc, std::string_view body);
    PythonProcess* pythonOf(uint32_t pid);
    void forget(uint32_t pid);
    uint32_t addCode(const PythonCode& code);
    void addStack(const Sampled& sample, const std::vector<uint32_t>& frames);

    bool m_parses = false; // the sample type starts as this reader expects
    std::set<uint64_t> m_clockIds;
    std::unordered_map<uint32_t, Process> m_processes;
    size_t m_readable = 0; // processes with a PythonProcess
    uint32_t m_nextCodeId = 1;
    std::vector<Sampled> m_newest; // per thread, in this drain
    std::vector<uint32_t> m_frames;
    std::vector<char> m_chunk;
    std::set<std::string> m_warned;
    std::vector<std::string> m_warnings;
};

} // namespace sightline::collector
