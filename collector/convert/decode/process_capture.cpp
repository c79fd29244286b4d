#include "collector/convert/decode/process_capture.h"

#include "collector/convert/decode/chunk_decoder.h"
#include "collector/convert/decode/nvtx_matcher.h"
#include "model/common/parallel_for.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <set>

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
        , m_nvtx(m_leftOpen)
    { }

    void decode(const std::vector<const SpoolFile*>& files);
    void finish();

private:
    FileTables readTables(const SpoolFile& file);
    void internStrings(DecodedChunk& chunk);
    static void localizeNames(DecodedChunk& chunk);
    void join(DecodedChunk& chunk, const SpoolFile& file, const FileTables& tables);
    void joinNvtx(DecodedChunk& chunk);
    void applyDeferred(const spool::RecordHeader& record, const SpoolFile& file, const FileTables& tables);
    void decodeProcessText(const spool::RecordHeader& record);
    void decodeLoss(const spool::LossRecord& loss);
    template <class Event> static void append(std::vector<Event>& to, std::vector<Event>& from)
    {
        to.insert(to.end(), from.begin(), from.end());
        std::vector<Event>().swap(from);
    }

    ProcessCapture& m_capture;
    const ClockMap& m_clock;
    const DecodeOptions& m_options;
    TraceBuilder& m_builder;
    std::vector<HostEvent<NvtxEvent>> m_leftOpen; // closed by finish()
    NvtxMatcher m_nvtx; // NVTX ranges across chunks
    std::map<uint32_t, ThreadNames> m_threadNames;
    std::set<uint32_t> m_activeThreads;
    std::vector<std::string> m_commandLine; // of the latest image
    std::string m_executable;
    size_t m_clockHint = 0; // for capture control records
    Timestamp m_lastTime = std::numeric_limits<Timestamp>::min();
};

// The file's strings and domains, which other records refer to.
FileTables ProcessDecoder::readTables(const SpoolFile& file)
{
    FileTables tables;
    for (const spool::RecordHeader* record : file.tables()) {
        if (record->type == RecordType::String) {
            tables.strings[SpoolFile::as<spool::StringRecord>(*record).id] = SpoolFile::text(*record);
        } else {
            const DomainId id = m_builder.addDomain(SpoolFile::text(*record));
            tables.domains[SpoolFile::as<spool::NvtxDomainRecord>(*record).domain] = id;
        }
    }
    return tables;
}

void ProcessDecoder::decode(const std::vector<const SpoolFile*>& files)
{
    std::vector<FileTables> tables;
    struct Piece
    {
        size_t file, chunk;
    };
    std::vector<Piece> pieces;
    for (size_t f = 0; f < files.size(); ++f) {
        tables.push_back(readTables(*files[f]));
        for (size_t c = 0; c < files[f]->chunkCount(); ++c)
            pieces.push_back({f, c});
    }
    std::vector<DecodedChunk> chunks(pieces.size());
    parallelFor(pieces.size(), [&](size_t i) {
        const Piece& p = pieces[i];
        chunks[i] = decodeChunk(*files[p.file], p.chunk, tables[p.file], m_clock, m_options);
    });
    // Strings into the report in chunk order: the ids one pass over the files would give.
    for (DecodedChunk& chunk : chunks)
        internStrings(chunk);
    parallelFor(chunks.size(), [&](size_t i) { localizeNames(chunks[i]); });

    size_t apiCalls = 0;
    for (const DecodedChunk& chunk : chunks)
        apiCalls += chunk.apiCalls.size();
    m_capture.apiCalls.reserve(m_capture.apiCalls.size() + apiCalls);
    size_t next = 0;
    for (size_t f = 0; f < files.size(); ++f) {
        const SpoolFile& file = *files[f];
        m_capture.process.pid = Pid(file.header.pid);
        m_capture.ppid = file.header.ppid;
        m_capture.truncatedSpool = m_capture.truncatedSpool || file.truncated;
        m_commandLine.clear();
        m_clockHint = 0;
        for (; next < pieces.size() && pieces[next].file == f; ++next)
            join(chunks[next], file, tables[f]);
        if (!m_commandLine.empty()) m_capture.process.commandLine = m_commandLine;
    }
}

void ProcessDecoder::internStrings(DecodedChunk& chunk)
{
    std::vector<StringId>& names = chunk.nvtx.names;
    names.reserve(chunk.strings.texts().size());
    for (std::string_view text : chunk.strings.texts())
        names.push_back(m_builder.intern(text));
}

// Local string ids in the events other than NVTX rows become report ids.
void ProcessDecoder::localizeNames(DecodedChunk& chunk)
{
    const std::vector<StringId>& names = chunk.nvtx.names;
    auto report = [&names](StringId& id) { id = names[id.value]; };
    for (auto& e : chunk.osCalls)
        report(e.event.name);
    for (auto& e : chunk.apiCalls)
        report(e.event.name);
    for (auto& e : chunk.kernels) {
        report(e.event.name);
        report(e.event.launch.mangledName);
        report(e.event.launch.shortName);
    }
}

// Adds a decoded chunk to what the chunks before it gave.
void ProcessDecoder::join(DecodedChunk& chunk, const SpoolFile& file, const FileTables& tables)
{
    for (const spool::RecordHeader* record : chunk.deferred)
        applyDeferred(*record, file, tables);
    joinNvtx(chunk);
    m_lastTime = std::max(m_lastTime, chunk.lastTime);
    for (Tid tid : chunk.activeThreads)
        m_activeThreads.insert(tid.value);
    if (!chunk.osCalls.empty()) m_capture.osCalls.push_back(std::move(chunk.osCalls));
    append(m_capture.apiCalls, chunk.apiCalls);
    if (!chunk.kernels.empty()) m_capture.kernels.push_back(std::move(chunk.kernels));
    if (!chunk.memory.empty()) m_capture.memory.push_back(std::move(chunk.memory));
    if (!chunk.syncs.empty()) m_capture.syncs.push_back(std::move(chunk.syncs));
    m_capture.memoryUsage.insert(
        m_capture.memoryUsage.end(), chunk.memoryUsage.begin(), chunk.memoryUsage.end());
}

// Pops of pushes from earlier chunks, pushes left open for later ones, start/end ranges.
void ProcessDecoder::joinNvtx(DecodedChunk& chunk)
{
    NvtxBatch& batch = chunk.nvtx;
    for (uint64_t key : chunk.stackKeys)
        m_nvtx.openStack(Tid(uint32_t(key >> 32)), DomainId(uint32_t(key)));
    for (uint32_t index : chunk.unresolvedPops) {
        NvtxRow& row = batch.rows[index];
        const std::optional<NvtxEvent> pushed = m_nvtx.take(row.tid, DomainId(row.attributes));
        if (!pushed) {
            row.state = NvtxRow::State::Dropped;
            continue;
        }
        row.start = pushed->start;
        row.end = std::max(row.end, pushed->start);
        row.name = batch.addName(pushed->name);
        row.attributes = batch.addAttributes(pushed->attributes);
        row.state = NvtxRow::State::Event;
        m_activeThreads.insert(row.tid.value);
    }
    for (const NvtxRow& row : chunk.openPushes)
        m_nvtx.push(row.tid, batch.event(row));
    for (const NvtxRangeOp& op : chunk.rangeOps) {
        if (op.start)
            m_nvtx.start(op.rangeId, op.row.tid, batch.event(op.row));
        else
            m_nvtx.end(op.rangeId, op.row.tid, op.row.end);
    }
    if (!batch.rows.empty()) m_capture.nvtx.push_back(std::move(batch));
}

void ProcessDecoder::applyDeferred(
    const spool::RecordHeader& record, const SpoolFile& file, const FileTables& tables)
{
    switch (record.type) {
    case RecordType::ProcessText:
        decodeProcessText(record);
        break;
    case RecordType::ThreadName: {
        ThreadNames& names = m_threadNames[record.tid];
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
            "Process " + std::to_string(file.header.pid) + ": " + std::string(SpoolFile::text(record))});
        break;
    }
    case RecordType::CaptureControl: {
        const auto& c = SpoolFile::as<spool::CaptureControlRecord>(record);
        const Timestamp time
            = m_clock.toMonotonic(file.header.tickSource, c.ticks, m_clockHint) - m_options.originMonotonicNs;
        m_capture.captureControls.push_back({time, c.start != 0});
        break;
    }
    default:
        decodeCudaEntity(m_capture, tables, record);
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
    m_capture.losses.openNvtxRanges = m_nvtx.finish(m_lastTime);
    m_capture.losses.unmatchedNvtxEnds = m_nvtx.unmatchedEnds();
    if (!m_leftOpen.empty()) {
        NvtxBatch last;
        for (const HostEvent<NvtxEvent>& e : m_leftOpen) {
            NvtxRow row;
            row.start = e.event.start;
            row.end = e.event.end;
            row.tid = e.tid;
            row.name = last.addName(e.event.name);
            row.attributes = last.addAttributes(e.event.attributes);
            last.rows.push_back(row);
            m_activeThreads.insert(e.tid.value);
        }
        m_capture.nvtx.push_back(std::move(last));
    }

    Process& p = m_capture.process;
    if (p.name.empty() && !m_executable.empty())
        p.name = std::filesystem::path(m_executable).filename().string();
    // Threads: those that have host events, named by NVTX first, else by the OS.
    for (uint32_t tid : m_activeThreads) {
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
    decoder.decode(files);
    decoder.finish();
    return capture;
}

} // namespace sightline::collector
