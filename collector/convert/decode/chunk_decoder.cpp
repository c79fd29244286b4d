#include "collector/convert/decode/chunk_decoder.h"

#include "collector/spool/os_functions.h"

#include <algorithm>
#include <cstring>

namespace sightline::collector {

namespace {

using spool::RecordType;

class ChunkDecoder
{
public:
    ChunkDecoder(const SpoolFile& file, const FileTables& tables, const ClockMap& clock,
        const DecodeOptions& options, DecodedChunk& out)
        : m_out(out)
        , m_context {file, tables, clock, options, out.strings}
    { }

    void reserve(const SpoolFile& file, size_t chunk);
    void decode(const spool::RecordHeader& record);
    void finish();

private:
    void decodeNvtx(const spool::RecordHeader& record);
    NvtxRow nvtxRow(const spool::RecordHeader& record, const spool::NvtxFields& fields, uint64_t ticks,
        NvtxStyle style, DomainId& domain);
    uint32_t attributesIndex(const NvtxAttributes& a);
    uint32_t plainAttributes(Tid tid);
    std::vector<NvtxRow>& stack(Tid tid, DomainId domain);
    void pop(Tid tid, DomainId domain, Timestamp end);
    void emit(const NvtxRow& row)
    {
        m_out.nvtx.rows.push_back(row);
        m_out.active(row.tid);
    }
    void seen(Timestamp t) { m_out.lastTime = std::max(m_out.lastTime, t); }
    StringId osFunctionName(uint16_t function)
    {
        if (function >= m_osNames.size()) m_osNames.resize(function + 1, 0);
        if (m_osNames[function] == 0)
            m_osNames[function] = m_out.strings.intern(spool::osFunctionName(function));
        return StringId(m_osNames[function]);
    }

    DecodedChunk& m_out;
    SpoolContext m_context;
    std::unordered_map<uint64_t, std::vector<NvtxRow>> m_stacks; // (tid, domain) -> open pushes
    uint64_t m_lastKey = ~uint64_t(0);
    std::vector<NvtxRow>* m_lastStack = nullptr; // map nodes never move
    std::unordered_map<NvtxAttributes, uint32_t, DescriptorHash> m_attributeIds;
    uint32_t m_lastAttributes = UINT32_MAX;
    Tid m_plainTid {~0u}; // the thread of the last plain push, and its attributes' index
    uint32_t m_plainAttributes = 0;
    std::vector<uint32_t> m_osNames; // OsFunction -> local string id (0: not yet interned)
};

// Room for the events, from the chunk's record counts.
void ChunkDecoder::reserve(const SpoolFile& file, size_t chunk)
{
    auto count = [&](std::initializer_list<RecordType> types) {
        size_t total = 0;
        for (RecordType t : types)
            total += file.count(chunk, t);
        return total;
    };
    m_out.nvtx.rows.reserve(count({RecordType::NvtxPop, RecordType::NvtxPopPlain, RecordType::NvtxMark}));
    m_out.osCalls.reserve(count({RecordType::OsCall}));
    m_out.apiCalls.reserve(count({RecordType::CudaApi}));
    m_out.kernels.reserve(count({RecordType::CudaKernel}));
    m_out.memory.reserve(count({RecordType::CudaMemcpy, RecordType::CudaMemset}));
    m_out.syncs.reserve(count({RecordType::CudaSync}));
}

void ChunkDecoder::decode(const spool::RecordHeader& record)
{
    switch (record.type) {
    case RecordType::NvtxPushPlain: {
        // The hot path: nvtxRangePushA.
        const Tid tid(record.tid);
        NvtxRow row;
        row.start = row.end = m_context.hostTime(SpoolFile::as<spool::NvtxPushPlainRecord>(record).ticks);
        seen(row.start);
        const char* text = reinterpret_cast<const char*>(&record) + sizeof(spool::NvtxPushPlainRecord);
        row.name = m_out.strings.intern(
            std::string_view(text, strnlen(text, record.bytes - sizeof(spool::NvtxPushPlainRecord))));
        row.tid = tid;
        row.attributes = plainAttributes(tid);
        stack(tid, DomainId()).push_back(row);
        break;
    }
    case RecordType::NvtxPopPlain: {
        const Timestamp end = m_context.hostTime(SpoolFile::as<spool::NvtxPopPlainRecord>(record).ticks);
        seen(end);
        pop(Tid(record.tid), DomainId(), end);
        break;
    }
    case RecordType::NvtxPush:
    case RecordType::NvtxPop:
    case RecordType::NvtxStart:
    case RecordType::NvtxEnd:
    case RecordType::NvtxMark:
        decodeNvtx(record);
        break;
    case RecordType::OsCall: {
        const auto& c = SpoolFile::as<spool::OsCallRecord>(record);
        const Timestamp start = m_context.hostTime(c.startTicks);
        const Timestamp end = m_context.hostTime(c.endTicks);
        seen(end);
        if (end - start >= m_context.options.osrtThresholdNs) {
            m_out.osCalls.push_back(
                {Tid(record.tid), OsCall {start, end, osFunctionName(c.function), c.result}});
            m_out.active(Tid(record.tid));
        }
        break;
    }
    case RecordType::CudaApi:
    case RecordType::CudaKernel:
    case RecordType::CudaMemcpy:
    case RecordType::CudaMemset:
    case RecordType::CudaSync:
    case RecordType::CudaMemoryUsage:
        decodeCudaEvent(m_context, m_out, record);
        break;
    case RecordType::ProcessText:
    case RecordType::ThreadName:
    case RecordType::Loss:
    case RecordType::Diagnostic:
    case RecordType::CaptureControl:
    case RecordType::CudaDevice:
    case RecordType::CudaContext:
    case RecordType::CudaStream:
    case RecordType::CudaVersions:
        m_out.deferred.push_back(&record);
        break;
    default: // String, NvtxDomain (read first), ClockSync (pooled), NvtxCategory, unknown types
        break;
    }
}

// A push, start or mark: everything but the end.
NvtxRow ChunkDecoder::nvtxRow(const spool::RecordHeader& record, const spool::NvtxFields& f, uint64_t ticks,
    NvtxStyle style, DomainId& domain)
{
    NvtxRow row;
    row.start = row.end = m_context.hostTime(ticks);
    seen(row.start);
    row.tid = Tid(record.tid);
    if (f.messageKind == spool::NvtxMessageKind::Inline)
        row.name = m_out.strings.intern(SpoolFile::text(record));
    else if (f.messageKind == spool::NvtxMessageKind::Registered)
        row.name = m_context.string(f.registeredId).value;
    NvtxAttributes a;
    a.style = style;
    a.domain = domain = m_context.tables.domain(f.domain);
    a.category = f.category;
    a.color = f.color;
    a.hasColor = f.hasColor != 0;
    a.endThread = Tid(record.tid);
    a.payloadType
        = f.payloadType <= uint8_t(PayloadType::Float) ? PayloadType(f.payloadType) : PayloadType::None;
    a.payload = f.payload;
    row.attributes = attributesIndex(a);
    return row;
}

void ChunkDecoder::decodeNvtx(const spool::RecordHeader& record)
{
    const Tid tid(record.tid);
    DomainId domain;
    switch (record.type) {
    case RecordType::NvtxPush: {
        const auto& r = SpoolFile::as<spool::NvtxPushRecord>(record);
        const NvtxRow row = nvtxRow(record, r.fields, r.ticks, NvtxStyle::PushPop, domain);
        stack(tid, domain).push_back(row);
        break;
    }
    case RecordType::NvtxPop: {
        const auto& r = SpoolFile::as<spool::NvtxPopRecord>(record);
        const Timestamp end = m_context.hostTime(r.ticks);
        seen(end);
        pop(tid, m_context.tables.domain(r.domain), end);
        break;
    }
    case RecordType::NvtxStart: {
        const auto& r = SpoolFile::as<spool::NvtxStartRecord>(record);
        m_out.rangeOps.push_back(
            {true, r.rangeId, nvtxRow(record, r.fields, r.ticks, NvtxStyle::StartEnd, domain)});
        break;
    }
    case RecordType::NvtxEnd: {
        const auto& r = SpoolFile::as<spool::NvtxEndRecord>(record);
        NvtxRow end;
        end.tid = tid;
        end.end = m_context.hostTime(r.ticks);
        seen(end.end);
        m_out.rangeOps.push_back({false, r.rangeId, end});
        break;
    }
    default: {
        const auto& r = SpoolFile::as<spool::NvtxMarkRecord>(record);
        emit(nvtxRow(record, r.fields, r.ticks, NvtxStyle::Mark, domain));
        break;
    }
    }
}

uint32_t ChunkDecoder::attributesIndex(const NvtxAttributes& a)
{
    std::vector<NvtxAttributes>& table = m_out.nvtx.attributes;
    if (m_lastAttributes < table.size() && table[m_lastAttributes] == a) return m_lastAttributes;
    auto [it, added] = m_attributeIds.try_emplace(a, uint32_t(table.size()));
    if (added) table.push_back(a);
    return m_lastAttributes = it->second;
}

// A plain push has default attributes but for its thread.
uint32_t ChunkDecoder::plainAttributes(Tid tid)
{
    if (tid != m_plainTid) {
        NvtxAttributes a;
        a.endThread = tid;
        m_plainAttributes = attributesIndex(a);
        m_plainTid = tid;
    }
    return m_plainAttributes;
}

std::vector<NvtxRow>& ChunkDecoder::stack(Tid tid, DomainId domain)
{
    const uint64_t key = nvtxStackKey(tid, domain);
    if (key != m_lastKey) {
        auto [it, added] = m_stacks.try_emplace(key);
        if (added) m_out.stackKeys.push_back(key);
        m_lastStack = &it->second;
        m_lastKey = key;
    }
    return *m_lastStack;
}

void ChunkDecoder::pop(Tid tid, DomainId domain, Timestamp end)
{
    std::vector<NvtxRow>& open = stack(tid, domain);
    if (open.empty()) { // its push is in an earlier chunk, or there is none
        NvtxRow unresolved;
        unresolved.tid = tid;
        unresolved.end = end;
        unresolved.attributes = domain.value;
        unresolved.state = NvtxRow::State::UnresolvedPop;
        m_out.unresolvedPops.push_back(uint32_t(m_out.nvtx.rows.size()));
        m_out.nvtx.rows.push_back(unresolved);
        return;
    }
    NvtxRow row = open.back();
    open.pop_back();
    row.end = std::max(end, row.start);
    emit(row);
}

void ChunkDecoder::finish()
{
    for (uint64_t key : m_out.stackKeys) {
        const std::vector<NvtxRow>& open = m_stacks[key];
        m_out.openPushes.insert(m_out.openPushes.end(), open.begin(), open.end());
    }
}

} // namespace

DecodedChunk decodeChunk(const SpoolFile& file, size_t chunk, const FileTables& tables, const ClockMap& clock,
    const DecodeOptions& options)
{
    DecodedChunk out;
    ChunkDecoder decoder(file, tables, clock, options, out);
    decoder.reserve(file, chunk);
    file.forEachInChunk(chunk, [&decoder](const spool::RecordHeader& record) { decoder.decode(record); });
    decoder.finish();
    return out;
}

} // namespace sightline::collector
