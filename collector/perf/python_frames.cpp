#include "collector/perf/python_frames.h"

#include "collector/perf/elf_symbols.h"
#include "collector/spool/python_stack_records.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/uio.h>

namespace sightline::collector {

namespace records = spool::python_stacks;

// Offsets (bytes) into CPython's structures, from one version's headers; see python_frames.h.
struct PythonLayout
{
    uint32_t version; // PY_VERSION_HEX >> 16
    uint32_t runtimeInterpreters; // _PyRuntimeState.interpreters.head
    uint32_t interpreterNext; // PyInterpreterState.next
    uint32_t interpreterThreads; // PyInterpreterState.threads.head
    uint32_t threadNext; // PyThreadState.next
    uint32_t threadNativeId; // PyThreadState.native_thread_id
    uint32_t threadCFrame; // PyThreadState.cframe
    uint32_t cframeCurrentFrame; // _PyCFrame.current_frame
    uint32_t frameCode; // _PyInterpreterFrame.f_code
    uint32_t framePrevious; // _PyInterpreterFrame.previous
    uint32_t framePrevInstr; // _PyInterpreterFrame.prev_instr
    uint32_t frameIsEntry; // _PyInterpreterFrame.is_entry (bool)
    uint32_t frameOwner; // _PyInterpreterFrame.owner (char)
    uint32_t frameBytes; // what a frame's read covers
    uint32_t codeFirstLine; // PyCodeObject.co_firstlineno (int)
    uint32_t codeFilename; // PyCodeObject.co_filename
    uint32_t codeQualname; // PyCodeObject.co_qualname
    uint32_t codeFirstTraceable; // PyCodeObject._co_firsttraceable (int)
    uint32_t codeInstructions; // PyCodeObject.co_code_adaptive
    uint32_t codeBytes; // what a code object's read covers
    uint32_t asciiBytes; // sizeof(PyASCIIObject): where a compact ASCII string's text starts
    uint32_t compactBytes; // sizeof(PyCompactUnicodeObject): where other compact strings' text starts
};

namespace {

// 3.11.2 (Debian 12) and 3.11.7 (pyenv) agree on every offset.
constexpr PythonLayout kPython311 {
    0x030B, 40, 0, 16, 8, 160, 56, 8, 32, 48, 56, 68, 69, 72, 72, 112, 128, 168, 184, 176, 48, 72};
constexpr std::array kLayouts = {&kPython311};

constexpr uint32_t kObjectType = 8; // PyObject.ob_type
constexpr uint32_t kStringLength = 16; // PyASCIIObject.length
constexpr uint32_t kStringState = 32; // PyASCIIObject.state: kind (bits 2-4), compact (5), ascii (6)
constexpr char kOwnedByGenerator = 1; // FRAME_OWNED_BY_GENERATOR
constexpr char kLastOwner = 2; // FRAME_OWNED_BY_FRAME_OBJECT
constexpr uint32_t kMaxThreadStates = 4096; // per interpreter, against a looping list
constexpr uint32_t kMaxInterpreters = 256;

uint64_t wordAt(const char* bytes, uint32_t offset)
{
    uint64_t word = 0;
    memcpy(&word, bytes + offset, sizeof(word));
    return word;
}

uint32_t int32At(const char* bytes, uint32_t offset)
{
    uint32_t value = 0;
    memcpy(&value, bytes + offset, sizeof(value));
    return value;
}

void appendUtf8(std::string& out, uint32_t c)
{
    if (c < 0x80) {
        out += char(c);
    } else if (c < 0x800) {
        out += char(0xC0 | c >> 6);
        out += char(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += char(0xE0 | c >> 12);
        out += char(0x80 | (c >> 6 & 0x3F));
        out += char(0x80 | (c & 0x3F));
    } else {
        out += char(0xF0 | c >> 18);
        out += char(0x80 | (c >> 12 & 0x3F));
        out += char(0x80 | (c >> 6 & 0x3F));
        out += char(0x80 | (c & 0x3F));
    }
}

bool isPythonFile(const std::string& path)
{
    const std::string name = path.substr(path.rfind('/') + 1);
    return name.rfind("python", 0) == 0 || name.rfind("libpython", 0) == 0;
}

} // namespace

std::unique_ptr<PythonProcess> PythonProcess::find(pid_t pid, std::string& why)
{
    // "start-end perms offset dev inode path": the first mapping at offset 0 of each file.
    std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
    std::vector<std::pair<std::string, uint64_t>> files;
    for (std::string line; std::getline(maps, line);) {
        std::istringstream fields(line);
        std::string range, perms, offset, device, inode, path;
        fields >> range >> perms >> offset >> device >> inode;
        std::getline(fields >> std::ws, path);
        if (path.empty() || path[0] != '/' || std::stoull(offset, nullptr, 16) != 0 || !isPythonFile(path))
            continue;
        bool seen = false;
        for (const auto& f : files)
            seen = seen || f.first == path;
        if (!seen) files.emplace_back(path, std::stoull(range, nullptr, 16));
    }
    constexpr std::array<std::string_view, 4> kNames
        = {"_PyRuntime", "Py_Version", "PyCode_Type", "PyUnicode_Type"};
    for (const auto& [path, start] : files) {
        const std::optional<ElfSymbolValues> symbols = readElfSymbols(path, kNames);
        if (!symbols || symbols->values[0] == 0) continue;
        const uint64_t bias = symbols->positionDependent ? 0 : start - symbols->firstLoadAddress;
        if (symbols->values[1] == 0) {
            why = path + " is a CPython older than 3.11, whose frames Sightline does not read";
            return nullptr;
        }
        // Any layout will do to read the version.
        std::unique_ptr<PythonProcess> process(new PythonProcess(pid, *kLayouts[0]));
        uint64_t versionHex = 0;
        if (!process->readValue(symbols->values[1] + bias, versionHex)) {
            why = "cannot read the memory of process " + std::to_string(pid) + " (" + strerror(errno)
                + "); its Python frames are not read";
            return nullptr;
        }
        const uint32_t version = uint32_t(versionHex >> 16);
        for (const PythonLayout* layout : kLayouts)
            if (layout->version == version) {
                std::unique_ptr<PythonProcess> found(new PythonProcess(pid, *layout));
                found->m_runtime = symbols->values[0] + bias;
                found->m_codeType = symbols->values[2] ? symbols->values[2] + bias : 0;
                found->m_unicodeType = symbols->values[3] ? symbols->values[3] + bias : 0;
                if (found->m_codeType && found->m_unicodeType) return found;
            }
        // 3.12 and later write the perf map instead; older or unlisted versions are not read.
        if (version < 0x030C)
            why = "CPython " + std::to_string(version >> 8) + "." + std::to_string(version & 0xFF) + " ("
                + path + ") is a version whose frames Sightline does not read";
        return nullptr;
    }
    return nullptr;
}

bool PythonProcess::read(uint64_t address, void* out, size_t bytes)
{
    if (address == 0 || m_refused) return false;
    iovec local {out, bytes};
    iovec remote {reinterpret_cast<void*>(address), bytes};
    const ssize_t got = process_vm_readv(m_pid, &local, 1, &remote, 1, 0);
    if (got < 0 && (errno == EPERM || errno == ESRCH)) m_refused = true;
    return got == ssize_t(bytes);
}

uint64_t PythonProcess::threadState(uint32_t tid)
{
    const PythonLayout& l = m_layout;
    if (auto it = m_threadStates.find(tid); it != m_threadStates.end()) {
        uint64_t native = 0;
        if (readValue(it->second + l.threadNativeId, native) && native == tid) return it->second;
    }
    // Every thread state of every interpreter, remembered by native thread id.
    m_threadStates.clear();
    uint64_t interpreter = 0;
    readValue(m_runtime + l.runtimeInterpreters, interpreter);
    for (uint32_t i = 0; interpreter != 0 && i < kMaxInterpreters; ++i) {
        uint64_t state = 0;
        readValue(interpreter + l.interpreterThreads, state);
        for (uint32_t t = 0; state != 0 && t < kMaxThreadStates; ++t) {
            uint64_t native = 0;
            if (!readValue(state + l.threadNativeId, native)) break;
            m_threadStates.emplace(uint32_t(native), state);
            if (!readValue(state + l.threadNext, state)) break;
        }
        if (!readValue(interpreter + l.interpreterNext, interpreter)) break;
    }
    auto it = m_threadStates.find(tid);
    return it == m_threadStates.end() ? 0 : it->second;
}

bool PythonProcess::currentFrame(uint64_t threadState, uint32_t tid, uint64_t& frame)
{
    char state[8 * 24];
    const uint32_t bytes = std::max(m_layout.threadNativeId, m_layout.threadCFrame) + 8;
    if (bytes > sizeof(state) || !read(threadState, state, bytes)) return false;
    if (wordAt(state, m_layout.threadNativeId) != tid) return false;
    frame = 0;
    const uint64_t cframe = wordAt(state, m_layout.threadCFrame);
    return cframe != 0 && readValue(cframe + m_layout.cframeCurrentFrame, frame);
}

bool PythonProcess::readName(uint64_t object, std::string& text)
{
    char head[96];
    if (m_layout.compactBytes > sizeof(head) || !read(object, head, m_layout.compactBytes)) return false;
    if (wordAt(head, kObjectType) != m_unicodeType) return false;
    const uint64_t length = std::min<uint64_t>(wordAt(head, kStringLength), records::kMaxNameBytes);
    const uint32_t state = int32At(head, kStringState);
    const uint32_t kind = state >> 2 & 7;
    const bool compact = (state >> 5 & 1) != 0, ascii = (state >> 6 & 1) != 0;
    if (!compact || (kind != 1 && kind != 2 && kind != 4)) return false;
    m_buffer.resize(length * kind);
    const uint64_t data = object + (ascii ? m_layout.asciiBytes : m_layout.compactBytes);
    if (length > 0 && !read(data, m_buffer.data(), m_buffer.size())) return false;
    text.clear();
    for (uint64_t i = 0; i < length; ++i) {
        uint32_t c = 0;
        memcpy(&c, m_buffer.data() + i * kind, kind); // little-endian code units
        appendUtf8(text, c);
    }
    return true;
}

bool PythonProcess::codeId(
    uint64_t code, uint64_t instruction, bool generator, uint32_t& id, const CodeNamer& nameCode)
{
    const PythonLayout& l = m_layout;
    char object[256];
    if (l.codeBytes > sizeof(object) || !read(code, object, l.codeBytes)) return false;
    if (wordAt(object, kObjectType) != m_codeType) return false;
    // A frame whose first instruction has not run yet ("incomplete", pycore_frame.h) has no
    // name to show.
    const uint64_t firstTraceable
        = code + l.codeInstructions + 2 * uint64_t(int32At(object, l.codeFirstTraceable));
    if (!generator && instruction < firstTraceable) {
        id = 0;
        return true;
    }
    const KnownCode seen {
        wordAt(object, l.codeQualname), wordAt(object, l.codeFilename), int32At(object, l.codeFirstLine), 0};
    auto it = m_codes.find(code);
    if (it != m_codes.end() && it->second.name == seen.name && it->second.file == seen.file
        && it->second.firstLine == seen.firstLine) {
        id = it->second.id;
        return true;
    }
    PythonCode named;
    named.firstLine = seen.firstLine;
    if (!readName(seen.name, named.name) || !readName(seen.file, named.file)) return false;
    id = nameCode(named);
    m_codes[code] = {seen.name, seen.file, seen.firstLine, id};
    return true;
}

bool PythonProcess::readStack(uint32_t tid, std::vector<uint32_t>& frames, const CodeNamer& nameCode)
{
    frames.clear();
    const PythonLayout& l = m_layout;
    const uint64_t state = threadState(tid);
    uint64_t first = 0;
    if (state == 0 || !currentFrame(state, tid, first)) return false;
    char frame[128];
    for (uint64_t at = first; at != 0;) {
        if (frames.size() >= records::kMaxFrames || l.frameBytes > sizeof(frame)
            || !read(at, frame, l.frameBytes)) {
            frames.clear();
            return false;
        }
        const char owner = frame[l.frameOwner];
        uint32_t id = 0;
        if (owner < 0 || owner > kLastOwner
            || !codeId(wordAt(frame, l.frameCode), wordAt(frame, l.framePrevInstr),
                owner == kOwnedByGenerator, id, nameCode)) {
            frames.clear();
            return false;
        }
        frames.push_back(id | (frame[l.frameIsEntry] ? records::kEntryFrameBit : 0));
        at = wordAt(frame, l.framePrevious);
    }
    // The thread ran on while it was read: a chain is kept only where it still starts at the
    // same frame.
    uint64_t again = 0;
    if (!currentFrame(state, tid, again) || again != first) {
        frames.clear();
        return false;
    }
    return !frames.empty();
}

} // namespace sightline::collector
