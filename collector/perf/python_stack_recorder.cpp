#include "collector/perf/python_stack_recorder.h"

#include "collector/spool/python_stack_records.h"

#include <algorithm>
#include <cstring>
#include <linux/perf_event.h>

namespace sightline::collector {

namespace {

namespace records = spool::python_stacks;

constexpr uint64_t kLeadingFields
    = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
constexpr uint64_t kFieldsBeforeTime = PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID;

void appendBytes(std::vector<char>& out, const void* data, size_t bytes)
{
    const char* begin = static_cast<const char*>(data);
    out.insert(out.end(), begin, begin + bytes);
}

void padTo8(std::vector<char>& out, size_t entryStart)
{
    out.resize(entryStart + (out.size() - entryStart + 7) / 8 * 8, '\0');
}

} // namespace

PythonStackRecorder::PythonStackRecorder(uint64_t sampleType, std::vector<uint64_t> clockIds)
    : m_parses((sampleType & kLeadingFields) == kLeadingFields && (sampleType & kFieldsBeforeTime) == 0)
    , m_clockIds(clockIds.begin(), clockIds.end())
{ }

std::vector<std::string> PythonStackRecorder::takeWarnings()
{
    return std::move(m_warnings);
}

bool PythonStackRecorder::readsFramesOf(uint32_t pid) const
{
    if (m_readable == 0) return false;
    const auto it = m_processes.find(pid);
    return it != m_processes.end() && it->second.python;
}

void PythonStackRecorder::forget(uint32_t pid)
{
    auto it = m_processes.find(pid);
    if (it == m_processes.end()) return;
    if (it->second.python) --m_readable;
    m_processes.erase(it);
}

PythonProcess* PythonStackRecorder::pythonOf(uint32_t pid)
{
    Process& process = m_processes[pid];
    if (!process.examined) {
        process.examined = true;
        std::string why;
        process.python = PythonProcess::find(pid_t(pid), why);
        if (process.python) ++m_readable;
        if (!why.empty() && m_warned.insert(why).second) m_warnings.push_back(why);
    }
    PythonProcess* python = process.python.get();
    if (python && python->refused()) {
        const std::string why = "cannot read the memory of process " + std::to_string(pid)
            + " (process_vm_readv was refused: run as root or allow ptrace); its Python frames are not read";
        if (m_warned.insert(why).second) m_warnings.push_back(why);
        process.python.reset();
        --m_readable;
        return nullptr;
    }
    return python;
}

void PythonStackRecorder::noteRecord(uint32_t type, uint16_t misc, std::string_view body)
{
    if (type == PERF_RECORD_COMM && (misc & PERF_RECORD_MISC_COMM_EXEC) != 0 && body.size() >= 4) {
        uint32_t pid = 0;
        memcpy(&pid, body.data(), 4);
        forget(pid); // a new program: examined again at its next sample
    } else if (type == PERF_RECORD_MMAP2 && body.size() > 64) {
        // pid, tid, addr, len, pgoff, device and inode (24), prot, flags, then the file name.
        uint32_t pid = 0;
        memcpy(&pid, body.data(), 4);
        const std::string_view path(body.data() + 64, strnlen(body.data() + 64, body.size() - 64));
        const auto it = m_processes.find(pid);
        if (it != m_processes.end() && !it->second.python
            && path.find("/libpython") != std::string_view::npos)
            forget(pid); // a CPython loaded after the process was examined
    }
}

void PythonStackRecorder::addStacksOf(std::string_view drained, std::vector<char>& out)
{
    if (!m_parses) return;
    m_newest.clear();
    size_t at = 0;
    while (at + sizeof(perf_event_header) <= drained.size()) {
        perf_event_header header;
        memcpy(&header, drained.data() + at, sizeof(header));
        if (header.size < sizeof(header) || at + header.size > drained.size()) break;
        const std::string_view body = drained.substr(at + sizeof(header), header.size - sizeof(header));
        at += header.size;
        if (header.type != PERF_RECORD_SAMPLE) {
            noteRecord(header.type, header.misc, body);
            continue;
        }
        if (body.size() < 32) continue;
        uint64_t fields[4]; // identifier, ip, pid and tid, time
        memcpy(fields, body.data(), sizeof(fields));
        if (!m_clockIds.count(fields[0])) continue;
        const Sampled sample {uint32_t(fields[2]), uint32_t(fields[2] >> 32), fields[3]};
        auto same = std::find_if(
            m_newest.begin(), m_newest.end(), [&](const Sampled& s) { return s.tid == sample.tid; });
        if (same == m_newest.end())
            m_newest.push_back(sample);
        else if (sample.time > same->time)
            *same = sample;
    }
    m_chunk.clear();
    for (const Sampled& sample : m_newest) {
        PythonProcess* python = pythonOf(sample.pid);
        if (!python) continue;
        if (python->readStack(sample.tid, m_frames, [this](const PythonCode& code) { return addCode(code); }))
            addStack(sample, m_frames);
    }
    if (m_chunk.empty()) return;
    const uint32_t head[2] = {records::kPythonStackChunk, uint32_t(m_chunk.size())};
    appendBytes(out, head, sizeof(head));
    appendBytes(out, m_chunk.data(), m_chunk.size());
}

uint32_t PythonStackRecorder::addCode(const PythonCode& code)
{
    const size_t start = m_chunk.size();
    const std::string_view name = std::string_view(code.name).substr(0, records::kMaxNameBytes);
    const std::string_view file = std::string_view(code.file).substr(0, records::kMaxNameBytes);
    const records::CodeEntryHeader entry {
        records::kCodeEntry, 0, m_nextCodeId, code.firstLine, uint32_t(name.size()), uint32_t(file.size())};
    appendBytes(m_chunk, &entry, sizeof(entry));
    appendBytes(m_chunk, name.data(), name.size());
    appendBytes(m_chunk, file.data(), file.size());
    padTo8(m_chunk, start);
    const uint32_t bytes = uint32_t(m_chunk.size() - start);
    memcpy(m_chunk.data() + start + 4, &bytes, sizeof(bytes));
    return m_nextCodeId++;
}

void PythonStackRecorder::addStack(const Sampled& sample, const std::vector<uint32_t>& frames)
{
    const size_t start = m_chunk.size();
    const records::StackEntryHeader entry {
        records::kStackEntry, 0, sample.pid, sample.tid, sample.time, uint32_t(frames.size()), 0};
    appendBytes(m_chunk, &entry, sizeof(entry));
    appendBytes(m_chunk, frames.data(), frames.size() * sizeof(uint32_t));
    padTo8(m_chunk, start);
    const uint32_t bytes = uint32_t(m_chunk.size() - start);
    memcpy(m_chunk.data() + start + 4, &bytes, sizeof(bytes));
}

} // namespace sightline::collector
