// Python frames read from the interpreter (collector/spool/python_stack_records.h) put in order
// among a sample's native frames, as py-spy --native does: each call of CPython's interpreter
// loop (_PyEval_EvalFrameDefault) on the native stack is replaced by the Python frames that call
// runs, innermost first, from the innermost frame down to its entry frame (the one the call
// began with), so that main -> a C extension -> a Python callback reads in that order. A native
// stack that reaches its thread's start must hold exactly one interpreter call per run of
// frames, or the Python stack (read after the sample, while the thread ran on) is left out; a
// native stack that stops early keeps the runs left over at its outer end, before its
// [truncated] frame.
#pragma once

#include "collector/convert/cpu/perf_records.h"

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sightline::collector {

// The native function each run of Python frames stands for.
inline constexpr std::string_view kInterpreterLoop = "_PyEval_EvalFrameDefault";

// Reads one Python chunk's entries into `out`; false when an entry is damaged (the rest of the
// chunk is then left out).
bool readPythonChunk(std::string_view chunk, PerfRecording& out);

// A frame of a merged stack: a native instruction address, or a Python code id.
struct MergedFrame
{
    bool python = false;
    uint64_t value = 0;
};

class PythonFrameMerger
{
public:
    explicit PythonFrameMerger(const PerfRecording& recording);

    // The Python stack read for `sample`; null where there is none.
    const PythonStack* stackOf(const PerfSample& sample) const;

    // `native` (innermost first; `whole` when it reaches the thread's start) with `python`'s
    // frames in place of the interpreter calls `isInterpreterLoop` picks out; false, with the
    // native frames alone, where they do not fit.
    static bool merge(std::span<const uint64_t> native, bool whole, const PythonStack& python,
        const std::function<bool(uint64_t)>& isInterpreterLoop, std::vector<MergedFrame>& out);

private:
    struct SampleKey
    {
        uint32_t tid = 0;
        uint64_t time = 0;
        friend bool operator==(const SampleKey&, const SampleKey&) = default;
    };
    struct SampleKeyHash
    {
        size_t operator()(const SampleKey& k) const noexcept
        {
            return std::hash<uint64_t> {}(k.time * 0x9E3779B97F4A7C15ull ^ k.tid);
        }
    };
    std::unordered_map<SampleKey, const PythonStack*, SampleKeyHash> m_stacks;
};

} // namespace sightline::collector
