#include "collector/convert/cpu/perf_records.h"

#include "collector/convert/cpu/python_stacks.h"
#include "collector/spool/python_stack_records.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <linux/perf_event.h>
#include <map>
#include <unistd.h>

namespace sightline::collector {

namespace {

namespace file = spool::cpu_recording;

// Reads fields in order from one record; any read past its end marks it bad.
class FieldReader
{
public:
    FieldReader(const char* data, size_t size)
        : m_data(data)
        , m_size(size)
    { }
    template <class T> T next()
    {
        T value {};
        if (!take(sizeof(T))) return value;
        memcpy(&value, m_data + m_at - sizeof(T), sizeof(T));
        return value;
    }
    std::span<const uint64_t> words(uint64_t count)
    {
        if (count > (m_size - std::min(m_at, m_size)) / 8 || !take(count * 8)) {
            m_bad = true;
            return {};
        }
        // Records are 8-byte aligned in the file buffer (chunks keep the kernel's alignment).
        return {reinterpret_cast<const uint64_t*>(m_data + m_at - count * 8), size_t(count)};
    }
    std::string_view bytes(uint64_t count)
    {
        if (count > m_size - std::min(m_at, m_size) || !take(count)) {
            m_bad = true;
            return {};
        }
        return {m_data + m_at - count, size_t(count)};
    }
    // A NUL-padded string filling the record up to `trailer` bytes before its end.
    std::string_view paddedString(size_t trailer)
    {
        if (m_at + trailer > m_size) {
            m_bad = true;
            return {};
        }
        std::string_view all(m_data + m_at, m_size - trailer - m_at);
        m_at = m_size - trailer;
        return all.substr(0, std::min(all.find('\0'), all.size()));
    }
    bool bad() const { return m_bad; }

private:
    bool take(size_t n)
    {
        if (n > m_size - std::min(m_at, m_size)) {
            m_bad = true;
            return false;
        }
        m_at += n;
        return true;
    }
    const char* m_data;
    size_t m_size;
    size_t m_at = 0;
    bool m_bad = false;
};

constexpr size_t kSampleIdBytes = 32; // pid/tid, time, cpu, identifier (sample_id_all)

struct SampleId
{
    uint32_t pid = 0, tid = 0, cpu = 0;
    uint64_t time = 0;
};

SampleId trailingSampleId(const char* record, size_t size)
{
    SampleId id;
    if (size < sizeof(perf_event_header) + kSampleIdBytes) return id;
    FieldReader r(record + size - kSampleIdBytes, kSampleIdBytes);
    id.pid = r.next<uint32_t>();
    id.tid = r.next<uint32_t>();
    id.time = r.next<uint64_t>();
    id.cpu = r.next<uint32_t>();
    return id;
}

class RecordParser
{
public:
    RecordParser(PerfRecording& out, uint64_t sampleType, std::map<uint64_t, file::EventRole> roles)
        : m_out(out)
        , m_sampleType(sampleType)
        , m_roles(std::move(roles))
        , m_registerCount(size_t(std::popcount(out.sampleRegistersMask)))
    { }

    // Parses one chunk; false when a record in it is damaged (the rest of the chunk is dropped).
    bool parseChunk(const char* data, size_t size)
    {
        size_t at = 0;
        while (at + sizeof(perf_event_header) <= size) {
            perf_event_header header;
            memcpy(&header, data + at, sizeof(header));
            if (header.size < sizeof(header) || header.size % 8 != 0 || header.size > size - at) return false;
            if (!parseRecord(header, data + at, header.size)) return false;
            at += header.size;
        }
        return at == size;
    }

private:
    bool parseRecord(const perf_event_header& header, const char* record, size_t size)
    {
        FieldReader r(record + sizeof(header), size - sizeof(header));
        switch (header.type) {
        case PERF_RECORD_SAMPLE:
            return parseSample(header, r);
        case PERF_RECORD_MMAP2: {
            PerfMapping m;
            m.pid = r.next<uint32_t>();
            r.next<uint32_t>();
            m.start = r.next<uint64_t>();
            m.length = r.next<uint64_t>();
            m.fileOffset = r.next<uint64_t>();
            r.bytes(24); // device and inode, or build id
            r.next<uint32_t>(); // prot
            r.next<uint32_t>(); // flags
            m.path = r.paddedString(kSampleIdBytes);
            m.time = trailingSampleId(record, size).time;
            if (r.bad()) return false;
            m_out.mappings.push_back(m);
            return true;
        }
        case PERF_RECORD_COMM: {
            PerfThreadEvent e;
            e.kind = PerfThreadEvent::Kind::Comm;
            e.pid = r.next<uint32_t>();
            e.tid = r.next<uint32_t>();
            e.name = r.paddedString(kSampleIdBytes);
            e.exec = (header.misc & PERF_RECORD_MISC_COMM_EXEC) != 0;
            const SampleId id = trailingSampleId(record, size);
            e.time = id.time;
            e.cpu = id.cpu;
            if (r.bad()) return false;
            m_out.threadEvents.push_back(e);
            return true;
        }
        case PERF_RECORD_FORK:
        case PERF_RECORD_EXIT: {
            PerfThreadEvent e;
            e.kind
                = header.type == PERF_RECORD_FORK ? PerfThreadEvent::Kind::Fork : PerfThreadEvent::Kind::Exit;
            e.pid = r.next<uint32_t>();
            e.parentPid = r.next<uint32_t>();
            e.tid = r.next<uint32_t>();
            r.next<uint32_t>(); // ptid
            e.time = r.next<uint64_t>();
            e.cpu = trailingSampleId(record, size).cpu;
            if (r.bad()) return false;
            m_out.threadEvents.push_back(e);
            return true;
        }
        case PERF_RECORD_SWITCH: {
            if (size < sizeof(header) + kSampleIdBytes) return false;
            const SampleId id = trailingSampleId(record, size);
            PerfThreadEvent e;
            const bool out = (header.misc & PERF_RECORD_MISC_SWITCH_OUT) != 0;
            e.kind = out ? PerfThreadEvent::Kind::SwitchOut : PerfThreadEvent::Kind::SwitchIn;
            e.preempted = out && (header.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) != 0;
            e.pid = id.pid;
            e.tid = id.tid;
            e.cpu = id.cpu;
            e.time = id.time;
            m_out.threadEvents.push_back(e);
            return true;
        }
        case PERF_RECORD_LOST: {
            r.next<uint64_t>();
            m_out.lostRecords += r.next<uint64_t>();
            return !r.bad();
        }
        default:
            return true; // other records (throttling, ...) carry nothing we use
        }
    }

    bool parseSample(const perf_event_header& header, FieldReader& r)
    {
        PerfSample s;
        const uint64_t identifier = r.next<uint64_t>();
        auto role = m_roles.find(identifier);
        if (role == m_roles.end()) return !r.bad(); // an event the header does not list
        s.role = role->second;
        s.ip = r.next<uint64_t>();
        s.pid = r.next<uint32_t>();
        s.tid = r.next<uint32_t>();
        s.time = r.next<uint64_t>();
        s.cpu = r.next<uint32_t>();
        r.next<uint32_t>();
        s.kernelIp = (header.misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
        if (m_sampleType & PERF_SAMPLE_CALLCHAIN) splitChain(r.words(r.next<uint64_t>()), s);
        if (m_sampleType & PERF_SAMPLE_REGS_USER) {
            if (r.next<uint64_t>() != PERF_SAMPLE_REGS_ABI_NONE) s.userRegisters = r.words(m_registerCount);
        }
        if (m_sampleType & PERF_SAMPLE_STACK_USER) {
            const uint64_t size = r.next<uint64_t>();
            const std::string_view copied = r.bytes(size);
            if (size > 0) {
                const uint64_t dynamic = r.next<uint64_t>();
                s.userStack = copied.substr(0, std::min<uint64_t>(dynamic, size));
                s.userStackCut = dynamic > size;
            }
        }
        if (r.bad()) return false;
        m_out.samples.push_back(s);
        return true;
    }

    static void splitChain(std::span<const uint64_t> chain, PerfSample& s)
    {
        // Context markers separate the kernel part from the user part.
        size_t i = 0;
        auto part = [&](uint64_t marker) -> std::span<const uint64_t> {
            if (i >= chain.size() || chain[i] != marker) return {};
            const size_t first = ++i;
            while (i < chain.size() && chain[i] < uint64_t(PERF_CONTEXT_MAX))
                ++i;
            return chain.subspan(first, i - first);
        };
        s.kernelChain = part(uint64_t(PERF_CONTEXT_KERNEL));
        s.userChain = part(uint64_t(PERF_CONTEXT_USER));
    }

    PerfRecording& m_out;
    uint64_t m_sampleType;
    std::map<uint64_t, file::EventRole> m_roles;
    size_t m_registerCount;
};

template <class T> void sortByTime(std::vector<T>& rows)
{
    std::stable_sort(rows.begin(), rows.end(), [](const T& a, const T& b) { return a.time < b.time; });
}

} // namespace

Result<PerfRecording> readPerfRecording(const std::string& path)
{
    PerfRecording out;
    out.path = path;
    if (access(path.c_str(), F_OK) != 0) return out; // no recording: CPU sampling was off
    out.file = std::make_unique<MappedFile>();
    if (Status opened = out.file->open(path); !opened)
        return Result<PerfRecording>::failure(
            opened.error() + " The CPU samples of this recording cannot be read.");
    const std::string_view bytes(reinterpret_cast<const char*>(out.file->bytes().data()), out.file->size());

    auto failure = [&](const std::string& what) {
        return Result<PerfRecording>::failure(
            path + ": " + what + "; the CPU samples of this recording cannot be read.");
    };
    file::FileHeader header;
    if (bytes.size() < sizeof(header)) return failure("the file is too short for a CPU recording");
    memcpy(&header, bytes.data(), sizeof(header));
    if (std::string_view(header.magic, 8) != file::kMagic) return failure("this is not a CPU recording");
    if (header.version != file::kVersion)
        return failure("CPU recording version " + std::to_string(header.version) + " is not supported");
    size_t at = sizeof(header);
    if (header.eventCount > (bytes.size() - at) / sizeof(file::EventEntry))
        return failure("the event table runs past the end of the file");
    std::map<uint64_t, file::EventRole> roles;
    for (uint32_t i = 0; i < header.eventCount; ++i, at += sizeof(file::EventEntry)) {
        file::EventEntry entry;
        memcpy(&entry, bytes.data() + at, sizeof(entry));
        roles[entry.id] = file::EventRole(entry.role);
    }
    out.samplingPeriodNs = header.samplingPeriodNs;
    out.sampleRegistersMask = header.sampleRegsUser;

    RecordParser parser(out, header.sampleType, std::move(roles));
    size_t damagedChunks = 0;
    while (at + file::kChunkHeaderBytes <= bytes.size()) {
        uint32_t chunk[2];
        memcpy(chunk, bytes.data() + at, sizeof(chunk));
        at += file::kChunkHeaderBytes;
        if (chunk[1] > bytes.size() - at) {
            out.diagnostics.push_back(path
                + " ends inside a chunk (the recording was cut short); what came before "
                  "it is kept.");
            break;
        }
        if (chunk[0] == file::kDiagnosticChunk) {
            const std::string_view text(bytes.data() + at, chunk[1]);
            out.diagnostics.emplace_back(text.substr(0, text.find('\0')));
        } else if (chunk[0] == spool::python_stacks::kPythonStackChunk) {
            if (!readPythonChunk(bytes.substr(at, chunk[1]), out)) ++damagedChunks;
        } else if (chunk[1] % 8 != 0) {
            ++damagedChunks; // kernel records come in multiples of 8 bytes
        } else if (!parser.parseChunk(bytes.data() + at, chunk[1])) {
            ++damagedChunks;
        }
        at += chunk[1];
    }
    if (damagedChunks > 0)
        out.diagnostics.push_back(path + ": " + std::to_string(damagedChunks)
            + " chunks of kernel records or Python stacks were damaged; their records after the damage are "
              "left "
              "out.");
    sortByTime(out.samples);
    sortByTime(out.mappings);
    sortByTime(out.threadEvents);
    sortByTime(out.pythonStacks);
    return out;
}

} // namespace sightline::collector
