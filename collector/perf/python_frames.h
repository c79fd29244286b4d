// Reads a running CPython thread's Python stack from the launcher, as py-spy does, for the
// interpreters that write no perf map (3.11; 3.12 and later name their functions through the
// perf map the launcher asks for, collector/convert/cpu/process_images.h).
//
// The runtime is found by its symbols: `_PyRuntime`, `Py_Version`, `PyCode_Type` and
// `PyUnicode_Type` in the python executable or libpython that /proc/PID/maps lists
// (elf_symbols.h). From `_PyRuntime` the interpreters and their thread states lead to the one
// whose native_thread_id is the sampled thread; its _PyCFrame's current frame starts the chain
// of _PyInterpreterFrame records (`previous`), each running a code object whose qualified name,
// file and first line name the frame. Every read goes through process_vm_readv(2) while the
// target runs, so each is checked: a code object must be of PyCode_Type and a name of
// PyUnicode_Type, a chain must end within kMaxFrames, and the thread's current frame must be the
// same after the walk as before it; a chain that fails any check is dropped, never guessed at.
// Code objects are remembered by address with the name and file pointers and first line they
// had, so a reused address is named again.
//
// The structures' offsets come from the version's own headers (Include/internal/pycore_frame.h,
// pycore_interp.h, pycore_runtime.h, cpython/pystate.h, cpython/code.h, cpython/unicodeobject.h)
// and are listed per version in python_frames.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <sys/types.h>
#include <unordered_map>
#include <vector>

namespace sightline::collector {

struct PythonLayout;

struct PythonCode
{
    std::string name; // co_qualname
    std::string file; // co_filename
    uint32_t firstLine = 0;
};

class PythonProcess
{
public:
    // The CPython runtime of `pid`; null where none of a supported version is loaded (`why` then
    // says why when it is a CPython this reader cannot read).
    static std::unique_ptr<PythonProcess> find(pid_t pid, std::string& why);

    // Called for each code object met for the first time; returns its id in the recording.
    using CodeNamer = std::function<uint32_t(const PythonCode&)>;

    // Thread `tid`'s frames, innermost first, as code ids (spool/python_stack_records.h);
    // false, with `frames` empty, where the thread has no Python state or the chain failed a check.
    bool readStack(uint32_t tid, std::vector<uint32_t>& frames, const CodeNamer& nameCode);

    // Whether reading this process's memory was refused (process_vm_readv: EPERM, ESRCH).
    bool refused() const { return m_refused; }

private:
    PythonProcess(pid_t pid, const PythonLayout& layout)
        : m_pid(pid)
        , m_layout(layout)
    { }
    bool read(uint64_t address, void* out, size_t bytes);
    template <class T> bool readValue(uint64_t address, T& value) { return read(address, &value, sizeof(T)); }
    uint64_t threadState(uint32_t tid);
    bool currentFrame(uint64_t threadState, uint32_t tid, uint64_t& frame);
    bool codeId(uint64_t code, uint64_t instruction, bool generator, uint32_t& id, const CodeNamer& nameCode);
    bool readName(uint64_t object, std::string& text);

    struct KnownCode
    {
        uint64_t name = 0, file = 0; // the objects' addresses
        uint32_t firstLine = 0;
        uint32_t id = 0;
    };

    pid_t m_pid;
    const PythonLayout& m_layout;
    uint64_t m_runtime = 0; // &_PyRuntime
    uint64_t m_codeType = 0; // &PyCode_Type
    uint64_t m_unicodeType = 0; // &PyUnicode_Type
    bool m_refused = false;
    std::unordered_map<uint32_t, uint64_t> m_threadStates; // tid -> PyThreadState*
    std::unordered_map<uint64_t, KnownCode> m_codes; // by PyCodeObject*
    std::vector<char> m_buffer;
};

} // namespace sightline::collector
