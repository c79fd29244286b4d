#include "collector/convert/cpu/process_images.h"

#include "collector/convert/cpu/vdso_image.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <cxxabi.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <fstream>
#include <gelf.h>
#include <set>
#include <unistd.h>

namespace sightline::collector {

namespace {

const Dwfl_Callbacks kOfflineCallbacks = {
    dwfl_build_id_find_elf,
    dwfl_standard_find_debuginfo,
    dwfl_offline_section_address,
    nullptr,
};

std::string demangled(const char* name)
{
    if (!name) return {};
    if (name[0] == '_' && name[1] == 'Z') {
        int status = 0;
        char* plain = abi::__cxa_demangle(name, nullptr, nullptr, &status);
        if (status == 0 && plain) {
            std::string text(plain);
            free(plain);
            return text;
        }
        free(plain);
    }
    return name;
}

std::string fileNameOf(std::string_view path)
{
    const size_t slash = path.rfind('/');
    return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

// A mapping of a file, not anonymous memory ("//anon", where JIT code lives), "[vdso]" or a
// memfd ("/memfd:name (deleted)").
bool isFile(const std::string& path)
{
    return path.size() > 1 && path[0] == '/' && path[1] != '/' && path.rfind("/memfd:", 0) != 0;
}

// A mapping whose code libdwfl can read: a file, or the vDSO (vdso_image.h).
bool hasImage(const std::string& path)
{
    return isFile(path) || path == kVdsoPath;
}

// "libfoo.so+0x1a2b": where an address without a symbol lies, never the bare address.
std::string placeName(std::string_view module, uint64_t offset)
{
    char text[24];
    snprintf(text, sizeof(text), "+0x%llx", static_cast<unsigned long long>(offset));
    return std::string(module) + text;
}

// The address at which libdwfl must place the ELF image in `fd` so that `mapping` (the part
// mapped executable) lands where it was: the load bias plus the first loadable segment's address.
bool placementOf(int fd, const CodeMapping& mapping, uint64_t& base)
{
    bool found = false;
    Elf* elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
    size_t count = 0;
    GElf_Ehdr ehdr;
    if (elf && gelf_getehdr(elf, &ehdr) && elf_getphdrnum(elf, &count) == 0) {
        uint64_t firstVaddr = UINT64_MAX;
        for (size_t i = 0; i < count; ++i) {
            GElf_Phdr ph;
            if (!gelf_getphdr(elf, int(i), &ph) || ph.p_type != PT_LOAD) continue;
            const uint64_t align = ph.p_align > 1 ? ph.p_align : 1;
            firstVaddr = std::min(firstVaddr, ph.p_vaddr & ~(align - 1));
            const uint64_t offsetStart = ph.p_offset & ~(uint64_t(4095));
            if (!found && mapping.fileOffset >= offsetStart
                && mapping.fileOffset < ph.p_offset + ph.p_filesz) {
                const uint64_t vaddrOfOffset = ph.p_vaddr - ph.p_offset + mapping.fileOffset;
                base = mapping.start - vaddrOfOffset; // the load bias
                found = true;
            }
        }
        if (ehdr.e_type == ET_EXEC)
            base = 0;
        else if (found && firstVaddr != UINT64_MAX)
            base += firstVaddr;
    }
    if (elf) elf_end(elf);
    return found;
}

// Reports the ELF image of `mapping` to `dwfl`; false where it cannot be read.
bool reportImage(Dwfl* dwfl, const CodeMapping& mapping, std::vector<std::string>& problems)
{
    const bool vdso = mapping.path == kVdsoPath;
    const int fd = vdso ? openVdsoImage() : open(mapping.path.c_str(), O_RDONLY | O_CLOEXEC);
    uint64_t base = 0;
    if (fd < 0 || !placementOf(fd, mapping, base)) {
        if (fd >= 0) close(fd);
        if (!vdso) problems.push_back(mapping.path + ": not a readable ELF file");
        return false;
    }
    // libdwfl keeps a descriptor it was given; a file it opens again by name.
    if (!vdso) close(fd);
    const std::string name = fileNameOf(mapping.path);
    if (!dwfl_report_elf(dwfl, name.c_str(), mapping.path.c_str(), vdso ? fd : -1, base, false)) {
        if (vdso) close(fd);
        problems.push_back(mapping.path + ": " + dwfl_errmsg(-1));
        return false;
    }
    return true;
}

// "py::train_step:/work/train.py" (CPython's perf map) -> train_step in train.py.
void splitPythonName(const std::string& entry, SymbolName& out)
{
    if (entry.rfind("py::", 0) == 0) {
        const size_t colon = entry.find(':', 4);
        const uint64_t address = out.offset;
        out = pythonFunctionName(
            std::string_view(entry).substr(4, colon == std::string::npos ? std::string::npos : colon - 4),
            colon == std::string::npos ? std::string_view() : std::string_view(entry).substr(colon + 1),
            address);
        return;
    }
    out.function = entry;
    out.module = "[jit]";
}

} // namespace

SymbolName pythonFunctionName(std::string_view function, std::string_view file, uint64_t firstLine)
{
    return {std::string(function), file.empty() ? "[python]" : fileNameOf(file), firstLine, false};
}

ProcessImage::~ProcessImage()
{
    if (m_dwfl) dwfl_end(m_dwfl);
}

void ProcessImage::addMapping(CodeMapping mapping)
{
    // Drop what the new mapping covers.
    auto it = m_mappings.upper_bound(mapping.start);
    if (it != m_mappings.begin()) --it;
    while (it != m_mappings.end() && it->second.start < mapping.end) {
        if (it->second.end > mapping.start)
            it = m_mappings.erase(it);
        else
            ++it;
    }
    m_mappings[mapping.start] = std::move(mapping);
}

const CodeMapping* ProcessImage::mappingAt(uint64_t address) const
{
    auto it = m_mappings.upper_bound(address);
    if (it == m_mappings.begin()) return nullptr;
    --it;
    return address < it->second.end ? &it->second : nullptr;
}

Dwfl* ProcessImage::dwfl()
{
    if (m_reported) return m_dwfl;
    m_reported = true;
    m_dwfl = dwfl_begin(&kOfflineCallbacks);
    if (!m_dwfl) return nullptr;
    dwfl_report_begin(m_dwfl);
    std::set<std::string> reported;
    for (const auto& [start, mapping] : m_mappings) {
        if (!hasImage(mapping.path) || !reported.insert(mapping.path).second) continue;
        reportImage(m_dwfl, mapping, m_problems);
    }
    dwfl_report_end(m_dwfl, nullptr, nullptr);
    return m_dwfl;
}

void ProcessImage::loadPerfMap()
{
    m_perfMapLoaded = true;
    std::ifstream in("/tmp/perf-" + std::to_string(m_pid) + ".map");
    std::string line;
    while (std::getline(in, line)) {
        unsigned long long start = 0, size = 0;
        int consumed = 0;
        if (sscanf(line.c_str(), "%llx %llx %n", &start, &size, &consumed) < 2 || consumed <= 0) continue;
        m_perfMap.push_back({start, start + size, line.substr(size_t(consumed))});
    }
    std::stable_sort(m_perfMap.begin(), m_perfMap.end(), [](auto& a, auto& b) { return a.start < b.start; });
}

SymbolName ProcessImage::name(uint64_t address)
{
    SymbolName out;
    out.offset = address;
    const CodeMapping* mapping = mappingAt(address);
    if (mapping && hasImage(mapping->path)) {
        out.module = fileNameOf(mapping->path);
        out.offset = address - mapping->start + mapping->fileOffset;
        if (Dwfl* session = dwfl()) {
            if (Dwfl_Module* module = dwfl_addrmodule(session, address)) {
                GElf_Off offset = 0;
                GElf_Sym symbol;
                const char* name
                    = dwfl_module_addrinfo(module, address, &offset, &symbol, nullptr, nullptr, nullptr);
                out.function = demangled(name);
            }
        }
        if (out.function.empty()) out.function = placeName(out.module, out.offset);
        return out;
    }
    if (!m_perfMapLoaded) loadPerfMap();
    auto it = std::upper_bound(m_perfMap.begin(), m_perfMap.end(), address,
        [](uint64_t a, const PerfMapEntry& e) { return a < e.start; });
    if (it != m_perfMap.begin() && address < std::prev(it)->end) {
        splitPythonName(std::prev(it)->name, out);
        return out;
    }
    if (!mapping) {
        out.module = out.function = "[unknown]";
        return out;
    }
    // Anonymous code (JIT without a perf map), "//anon", a memfd: offsets within the mapping.
    out.module
        = mapping->path.empty() || mapping->path == "//anon" ? "[anonymous]" : fileNameOf(mapping->path);
    out.offset = address - mapping->start + mapping->fileOffset;
    out.function = placeName(out.module, out.offset);
    return out;
}

KernelSymbols::KernelSymbols()
{
    // "ffffffff8141f9e0 T hrtimer_nanosleep\t[module]": only text symbols name code.
    std::ifstream in("/proc/kallsyms");
    std::string line;
    while (std::getline(in, line)) {
        char* end = nullptr;
        const unsigned long long address = strtoull(line.c_str(), &end, 16);
        if (address == 0 || end[0] != ' ' || (end[1] != 't' && end[1] != 'T') || end[2] != ' ') continue;
        const char* name = end + 3;
        m_symbols.emplace_back(address, std::string(name, strcspn(name, " \t")));
    }
    std::sort(m_symbols.begin(), m_symbols.end());
}

SymbolName KernelSymbols::name(uint64_t address) const
{
    SymbolName out;
    out.kernel = true;
    out.module = "[kernel.kallsyms]";
    out.offset = address;
    auto it = std::upper_bound(m_symbols.begin(), m_symbols.end(), std::pair(address, std::string()));
    if (it != m_symbols.begin() && !m_symbols.empty()) {
        --it;
        if (it->first == address || std::next(it) != m_symbols.end()) out.function = it->second;
    }
    if (out.function.empty()) out.function = "[kernel]";
    return out;
}

ProcessImages::ProcessImages(const PerfRecording& recording)
{
    // Mappings and process starts interleave in time: walk both in order.
    size_t m = 0;
    auto mapUntil = [&](uint64_t time) {
        for (; m < recording.mappings.size() && recording.mappings[m].time <= time; ++m) {
            const PerfMapping& map = recording.mappings[m];
            current(map.pid).addMapping(
                {map.start, map.start + map.length, map.fileOffset, std::string(map.path)});
        }
    };
    for (const PerfThreadEvent& e : recording.threadEvents) {
        mapUntil(e.time);
        const bool newProcess
            = e.kind == PerfThreadEvent::Kind::Fork && e.pid == e.tid && e.pid != e.parentPid;
        const bool exec = e.kind == PerfThreadEvent::Kind::Comm && e.exec;
        if (!newProcess && !exec) continue;
        std::vector<Generation>& generations = m_images[e.pid];
        if (!generations.empty() && generations.back().since == e.time) continue;
        auto image = std::make_unique<ProcessImage>();
        image->setPid(e.pid);
        if (newProcess && m_images.count(e.parentPid) && !m_images[e.parentPid].empty())
            image->copyMappingsOf(*m_images[e.parentPid].back().image);
        generations.push_back({e.time, std::move(image)});
    }
    mapUntil(UINT64_MAX);
}

std::vector<std::string> ProcessImages::problems() const
{
    std::vector<std::string> all;
    for (const auto& [pid, generations] : m_images)
        for (const Generation& g : generations)
            all.insert(all.end(), g.image->problems().begin(), g.image->problems().end());
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return all;
}

ProcessImage& ProcessImages::current(uint32_t pid)
{
    std::vector<Generation>& generations = m_images[pid];
    if (generations.empty()) {
        generations.push_back({0, std::make_unique<ProcessImage>()});
        generations.back().image->setPid(pid);
    }
    return *generations.back().image;
}

ProcessImage& ProcessImages::at(uint32_t pid, uint64_t time)
{
    // Consecutive samples are mostly of one process and one image: answer those from the last.
    if (m_last.image && m_last.pid == pid && time >= m_last.since && time < m_last.until)
        return *m_last.image;
    std::vector<Generation>& generations = m_images[pid];
    if (generations.empty()) return current(pid);
    auto it = std::upper_bound(generations.begin(), generations.end(), time,
        [](uint64_t t, const Generation& g) { return t < g.since; });
    const auto found = it == generations.begin() ? generations.begin() : std::prev(it);
    const auto next = std::next(found);
    m_last = {pid, found->since, next == generations.end() ? UINT64_MAX : next->since, found->image.get()};
    return *found->image;
}

} // namespace sightline::collector
