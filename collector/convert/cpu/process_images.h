// The code each recorded process had mapped, and the names of the addresses in it.
//
// A process image is one address space: a process from its start (or exec) to its next exec. A
// child started by fork begins with a copy of its parent's mappings. Each image reports its
// ELF files to one libdwfl session (elfutils), which names addresses from their symbol tables
// (and separate debug files where installed) and unwinds copied stacks with their CFI
// (dwarf_unwinder.h). Addresses outside any file come from the perf map the process wrote
// (/tmp/perf-PID.map: CPython 3.12 with PYTHONPERFSUPPORT=1, JIT compilers); kernel addresses
// from /proc/kallsyms, read after the run on the machine that recorded it.
#pragma once

#include "collector/convert/cpu/perf_records.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

struct Dwfl;

namespace sightline::collector {

struct SymbolName
{
    std::string function; // demangled; "[unknown]" with no name at all
    std::string module; // file name of the module, "[kernel.kallsyms]", or the script of a Python function
    uint64_t offset = 0; // within the module's file (the address itself when unknown)
    bool kernel = false;
};

// A Python function's frame name: its qualified name, in the file name of its script (the
// offset, here the first line, tells functions of one name apart).
SymbolName pythonFunctionName(std::string_view function, std::string_view file, uint64_t firstLine = 0);

struct CodeMapping
{
    uint64_t start = 0;
    uint64_t end = 0;
    uint64_t fileOffset = 0;
    std::string path;
};

class ProcessImage
{
public:
    ProcessImage() = default;
    ProcessImage(const ProcessImage&) = delete;
    ProcessImage& operator=(const ProcessImage&) = delete;
    ~ProcessImage();

    void addMapping(CodeMapping mapping); // later mappings over earlier ones replace them
    void copyMappingsOf(const ProcessImage& parent) { m_mappings = parent.m_mappings; }
    void setPid(uint32_t pid) { m_pid = pid; }

    // The name of the instruction at `address` (a return address already moved into its call).
    SymbolName name(uint64_t address);
    // The libdwfl session with every ELF mapping reported; null when none could be.
    Dwfl* dwfl();
    uint32_t pid() const { return m_pid; }
    // The files whose symbols could not be read, each with the reason.
    const std::vector<std::string>& problems() const { return m_problems; }
    const CodeMapping* mappingAt(uint64_t address) const;

private:
    struct PerfMapEntry
    {
        uint64_t start = 0, end = 0;
        std::string name;
    };
    void loadPerfMap();

    uint32_t m_pid = 0;
    std::map<uint64_t, CodeMapping> m_mappings; // by start
    Dwfl* m_dwfl = nullptr;
    bool m_reported = false;
    bool m_perfMapLoaded = false;
    std::vector<PerfMapEntry> m_perfMap; // sorted by start
    std::vector<std::string> m_problems;
};

// An address in one process image (null for the kernel's), as a key of caches.
using ImageAddress = std::pair<const ProcessImage*, uint64_t>;
struct ImageAddressHash
{
    size_t operator()(const ImageAddress& k) const noexcept
    {
        return std::hash<uint64_t> {}(k.second ^ reinterpret_cast<uintptr_t>(k.first) * 31);
    }
};

// Kernel symbols from /proc/kallsyms (empty where addresses are hidden).
class KernelSymbols
{
public:
    KernelSymbols();
    SymbolName name(uint64_t address) const;

private:
    std::vector<std::pair<uint64_t, std::string>> m_symbols; // sorted by address
};

// Every process image of a recording, found by process and time.
class ProcessImages
{
public:
    explicit ProcessImages(const PerfRecording& recording);
    ProcessImage& at(uint32_t pid, uint64_t time);
    // The files whose symbols could not be read, over every image, once each.
    std::vector<std::string> problems() const;

private:
    struct Generation
    {
        uint64_t since = 0;
        std::unique_ptr<ProcessImage> image;
    };
    ProcessImage& current(uint32_t pid);
    std::map<uint32_t, std::vector<Generation>> m_images; // per pid, in time order
    struct LastFound
    {
        uint32_t pid = 0;
        uint64_t since = 0, until = 0;
        ProcessImage* image = nullptr;
    } m_last; // the image at() found last, valid over [since, until)
};

} // namespace sightline::collector
