#include "process_capture.h"

#include "collector/spool/os_functions.h"
#include "nvtx_matcher.h"
#include "spool_context.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>

namespace sightline::collector {

namespace {

using spool::RecordType;

struct ThreadNames
{
    std::string os;
    std::string nvtx;
};

class ProcessDecoder
{
public:
    ProcessDecoder(
        ProcessCapture& capture, const ClockMap& clock, const DecodeOptions& options, TraceBuilder& builder)
        : m_capture(capture)
        , m_clock(clock)
        , m_options(options)
        , m_builder(builder)
        , m_nvtx(capture.nvtx)
    { }

    void decodeFile(const SpoolFile& file);
    void finish();

private:
    void readTables(SpoolContext& context);
    void decodeRecord(SpoolContext& context, const spool::RecordHeader& record);
    void decodeProcessText(const spool::RecordHeader& record);
    void decodeNvtx(SpoolContext& context, const spool::RecordHeader& record);
    NvtxEvent nvtxEvent(SpoolContext& context, const spool::RecordHeader& record,
        const spool::NvtxFields& fields, uint64_t ticks, NvtxStyle style);
    void decodeLoss(const spool::LossRecord& loss);
    void seen(Timestamp t) { m_lastTime = std::max(m_lastTime, t); }
    StringId osFunctionName(uint16_t function)
    {
        if (function >= m_osNames.size()) m_osNames.resize(function + 1);
        if (!m_osNames[function]) m_osNames[function] = m_builder.intern(spool::osFunctionName(function));
        return *m_osNames[function];
    }

    ProcessCapture& m_capture;
    const ClockMap& m_clock;
    const DecodeOptions& m_options;
    TraceBuilder& m_builder;
    NvtxMatcher m_nvtx;
    std::map<uint32_t, ThreadNames> m_threadNames;
    std::vector<std::optional<StringId>> m_osNames;
    std::vector<std::string> m_commandLine; // of the latest image
    std::string m_executable;
    Timestamp m_lastTime = std::numeric_limits<Timestamp>::min();
};

// The file's strings and domains, which other records refer to; and room for its events.
void ProcessDecoder::readTables(SpoolContext& context)
{
    const SpoolFile& file = context.file;
    for (const spool::RecordHeader* record : file.tables()) {
        if (record->type == RecordType::String) {
            context.strings[SpoolFile::as<spool::StringRecord>(*record).id] = SpoolFile::text(*record);
        } else {
            const DomainId id = m_builder.addDomain(SpoolFile::text(*record));
            context.domains[SpoolFile::as<spool::NvtxDomainRecord>(*record).domain] = id;
        }
    }
    auto count = [&file](std::initializer_list<RecordType> types) {
        size_t total = 0;
        for (RecordType t : types)
            total += file.count(t);
        return total;
    };
    ProcessCapture& c = m_capture;
    c.nvtx.reserve(c.nvtx.size()
        + count(
            {RecordType::NvtxPush, RecordType::NvtxPushPlain, RecordType::NvtxStart, RecordType::NvtxMark}));
    c.osCalls.reserve(c.osCalls.size() + count({RecordType::OsCall}));
    c.apiCalls.reserve(c.apiCalls.size() + count({RecordType::CudaApi}));
    c.kernels.reserve(c.kernels.size() + count({RecordType::CudaKernel}));
    c.memory.reserve(c.memory.size() + count({RecordType::CudaMemcpy, RecordType::CudaMemset}));
    c.syncs.reserve(c.syncs.size() + count({RecordType::CudaSync}));
}

void ProcessDecoder::decodeFile(const SpoolFile& file)
{
    SpoolContext context {file, m_clock, m_options, m_builder, {}, {}, {}};
    readTables(context);
    m_capture.process.pid = Pid(file.header.pid);
    m_capture.ppid = file.header.ppid;
    m_capture.truncatedSpool = m_capture.truncatedSpool || file.truncated;
    m_commandLine.clear();
    file.forEach([&](const spool::RecordHeader& record) { decodeRecord(context, record); });
    if (!m_commandLine.empty()) m_capture.process.commandLine = m_commandLine;
}

void ProcessDecoder::decodeRecord(SpoolContext& context, const spool::RecordHeader& record)
{
    const spool::RecordHeader& header = record;
    switch (header.type) {
    case RecordType::ProcessText:
        decodeProcessText(record);
        break;
    case RecordType::ThreadName: {
        ThreadNames& names = m_threadNames[header.tid];
        const bool fromNvtx
            = SpoolFile::as<spool::ThreadNameRecord>(record).source == spool::ThreadNameSource::Nvtx;
        (fromNvtx ? names.nvtx : names.os) = std::string(SpoolFile::text(record));
        break;
    }
    case RecordType::Loss:
        decodeLoss(SpoolFile::as<spool::LossRecord>(record));
        break;
    case RecordType::Diagnostic: {
        const auto& d = SpoolFile::as<spool::DiagnosticRecord>(record);
        m_capture.diagnostics.push_back({Severity(d.severity), "collector",
            "Process " + std::to_string(context.file.header.pid) + ": "
                + std::string(SpoolFile::text(record))});
        break;
    }
    case RecordType::CaptureControl: {
        const auto& c = SpoolFile::as<spool::CaptureControlRecord>(record);
        m_capture.captureControls.push_back({context.hostTime(c.ticks), c.start != 0});
        break;
    }
    case RecordType::OsCall: {
        const auto& c = SpoolFile::as<spool::OsCallRecord>(record);
        const Timestamp start = context.hostTime(c.startTicks);
        const Timestamp end = context.hostTime(c.endTicks);
        seen(end);
        if (end - start >= m_options.osrtThresholdNs) {
            const StringId name = osFunctionName(c.function);
            m_capture.osCalls.push_back({Tid(header.tid), OsCall {start, end, name, c.result}});
        }
        break;
    }
    case RecordType::NvtxPush:
    case RecordType::NvtxPushPlain:
    case RecordType::NvtxPopPlain:
    case RecordType::NvtxPop:
    case RecordType::NvtxStart:
    case RecordType::NvtxEnd:
    case RecordType::NvtxMark:
        decodeNvtx(context, record);
        break;
    case RecordType::CudaApi:
    case RecordType::CudaKernel:
    case RecordType::CudaMemcpy:
    case RecordType::CudaMemset:
    case RecordType::CudaSync:
    case RecordType::CudaDevice:
    case RecordType::CudaContext:
    case RecordType::CudaStream:
    case RecordType::CudaVersions:
        decodeCudaRecord(m_capture, context, record);
        break;
    default: // String, NvtxDomain (read first), ClockSync (pooled), NvtxCategory, unknown types
        break;
    }
}

void ProcessDecoder::decodeProcessText(const spool::RecordHeader& record)
{
    const std::string text(SpoolFile::text(record));
    switch (SpoolFile::as<spool::ProcessTextRecord>(record).kind) {
    case spool::ProcessTextKind::CommandLineArg:
        m_commandLine.push_back(text);
        break;
    case spool::ProcessTextKind::Executable:
        m_executable = text;
        break;
    case spool::ProcessTextKind::WorkingDirectory:
        m_capture.workingDirectory = text;
        break;
    case spool::ProcessTextKind::Hostname:
        m_capture.hostname = text;
        break;
    case spool::ProcessTextKind::Environment: {
        const size_t equals = text.find('=');
        if (equals != std::string::npos)
            m_capture.environment.emplace_back(text.substr(0, equals), text.substr(equals + 1));
        break;
    }
    case spool::ProcessTextKind::ProcessName:
        m_capture.process.name = text;
        break;
    }
}

NvtxEvent ProcessDecoder::nvtxEvent(SpoolContext& context, const spool::RecordHeader& record,
    const spool::NvtxFields& f, uint64_t ticks, NvtxStyle style)
{
    NvtxEvent e;
    e.start = e.end = context.hostTime(ticks);
    seen(e.start);
    if (f.messageKind == spool::NvtxMessageKind::Inline)
        e.name = m_builder.intern(SpoolFile::text(record));
    else if (f.messageKind == spool::NvtxMessageKind::Registered)
        e.name = context.string(f.registeredId);
    NvtxAttributes& a = e.attributes;
    a.style = style;
    a.domain = context.domain(f.domain);
    a.category = f.category;
    a.color = f.color;
    a.hasColor = f.hasColor != 0;
    a.endThread = Tid(record.tid);
    a.payloadType
        = f.payloadType <= uint8_t(PayloadType::Float) ? PayloadType(f.payloadType) : PayloadType::None;
    a.payload = f.payload;
    return e;
}

void ProcessDecoder::decodeNvtx(SpoolContext& context, const spool::RecordHeader& record)
{
    const Tid tid(record.tid);
    switch (record.type) {
    case RecordType::NvtxPush: {
        const auto& r = SpoolFile::as<spool::NvtxPushRecord>(record);
        m_nvtx.push(tid, nvtxEvent(context, record, r.fields, r.ticks, NvtxStyle::PushPop));
        break;
    }
    case RecordType::NvtxPushPlain: {
        const auto& r = SpoolFile::as<spool::NvtxPushPlainRecord>(record);
        NvtxEvent e;
        e.start = e.end = context.hostTime(r.ticks);
        seen(e.start);
        e.name = m_builder.intern(SpoolFile::text(record));
        e.attributes.endThread = tid;
        m_nvtx.push(tid, e);
        break;
    }
    case RecordType::NvtxPopPlain: {
        const Timestamp end = context.hostTime(SpoolFile::as<spool::NvtxPopPlainRecord>(record).ticks);
        seen(end);
        m_nvtx.pop(tid, DomainId(), end);
        break;
    }
    case RecordType::NvtxPop: {
        const auto& r = SpoolFile::as<spool::NvtxPopRecord>(record);
        const Timestamp end = context.hostTime(r.ticks);
        seen(end);
        m_nvtx.pop(tid, context.domain(r.domain), end);
        break;
    }
    case RecordType::NvtxStart: {
        const auto& r = SpoolFile::as<spool::NvtxStartRecord>(record);
        m_nvtx.start(r.rangeId, tid, nvtxEvent(context, record, r.fields, r.ticks, NvtxStyle::StartEnd));
        break;
    }
    case RecordType::NvtxEnd: {
        const auto& r = SpoolFile::as<spool::NvtxEndRecord>(record);
        const Timestamp end = context.hostTime(r.ticks);
        seen(end);
        m_nvtx.end(r.rangeId, tid, end);
        break;
    }
    default: {
        const auto& r = SpoolFile::as<spool::NvtxMarkRecord>(record);
        m_nvtx.mark(tid, nvtxEvent(context, record, r.fields, r.ticks, NvtxStyle::Mark));
        break;
    }
    }
}

void ProcessDecoder::decodeLoss(const spool::LossRecord& loss)
{
    LossCounts& l = m_capture.losses;
    switch (loss.kind) {
    case spool::LossKind::CuptiDroppedRecords:
        l.cuptiDropped += loss.count;
        break;
    case spool::LossKind::BufferExhausted:
        l.bufferExhausted += loss.count;
        break;
    case spool::LossKind::TextTruncated:
        l.textTruncated += loss.count;
        break;
    case spool::LossKind::CuptiZeroTimestamps:
        l.zeroTimestamps += loss.count;
        break;
    }
}

void ProcessDecoder::finish()
{
    for (const auto& c : m_capture.osCalls)
        seen(c.event.end);
    for (const auto& c : m_capture.apiCalls)
        seen(c.event.end);
    m_capture.losses.openNvtxRanges = m_nvtx.finish(m_lastTime);
    m_capture.losses.unmatchedNvtxEnds = m_nvtx.unmatchedEnds();

    Process& p = m_capture.process;
    if (p.name.empty() && !m_executable.empty())
        p.name = std::filesystem::path(m_executable).filename().string();
    // Threads: those that have host events, named by NVTX first, else by the OS.
    std::map<uint32_t, bool> active;
    for (const auto& e : m_capture.nvtx)
        active[e.tid.value] = true;
    for (const auto& e : m_capture.osCalls)
        active[e.tid.value] = true;
    for (const auto& e : m_capture.apiCalls)
        active[e.tid.value] = true;
    for (const auto& [tid, used] : active) {
        const ThreadNames& names = m_threadNames[tid];
        std::string name = !names.nvtx.empty() ? names.nvtx : names.os;
        if (name.empty() && tid == p.pid.value) name = p.name;
        m_capture.threads.push_back({p.pid, Tid(tid), name});
    }
}

} // namespace

ProcessCapture decodeProcess(const std::vector<const SpoolFile*>& files, const ClockMap& clock,
    const DecodeOptions& options, TraceBuilder& builder)
{
    ProcessCapture capture;
    ProcessDecoder decoder(capture, clock, options, builder);
    for (const SpoolFile* file : files)
        decoder.decodeFile(*file);
    decoder.finish();
    return capture;
}

} // namespace sightline::collector
