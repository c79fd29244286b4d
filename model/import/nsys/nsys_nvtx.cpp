// NVTX_EVENTS: push/pop and start/end ranges, marks, domain names and NVTX thread names, read
// with one SELECT. nsys numbers domains per process; Sightline's domain ids are global, so a
// (process, domainId) pair keeps the file's number when it is free and equal names share one
// id, which reproduces the ids of a Sightline export exactly.
#include "model/import/nsys/nsys_importer.h"
#include "model/nsys/global_id.h"
#include "model/nsys/sqlite_schema.h"

#include <bit>

namespace sightline::nsys_import {
namespace {

// ENUM_NSYS_EVENT_TYPE values in NVTX_EVENTS.
constexpr int64_t kCategoryName = 33;
constexpr int64_t kMark = 34;
constexpr int64_t kThreadName = 39;
constexpr int64_t kPushPopRange = 59;
constexpr int64_t kStartEndRange = 60;
constexpr int64_t kDomainCreate = 75;

enum {
    kStart,
    kEnd,
    kType,
    kCategory,
    kColor,
    kText,
    kThread,
    kEndThread,
    kTextId,
    kDomain,
    kUInt64,
    kInt64,
    kDouble,
    kUInt32,
    kInt32,
    kFloat
};
constexpr Column kColumns[] = {{"start", true}, {"end", false}, {"eventType", true}, {"category", false},
    {"color", false}, {"text", false}, {"globalTid", false}, {"endGlobalTid", false}, {"textId", false},
    {"domainId", false}, {"uint64Value", false}, {"int64Value", false}, {"doubleValue", false},
    {"uint32Value", false}, {"int32Value", false}, {"floatValue", false}};

// The payload column that is set, as the model's type and raw bits.
void readPayload(const SqliteRows& rows, NvtxAttributes& a)
{
    if (!rows.isNull(kUInt64)) {
        a.payloadType = PayloadType::UInt64;
        a.payload = uint64_t(rows.integer(kUInt64));
    } else if (!rows.isNull(kInt64)) {
        a.payloadType = PayloadType::Int64;
        a.payload = uint64_t(rows.integer(kInt64));
    } else if (!rows.isNull(kDouble)) {
        a.payloadType = PayloadType::Double;
        a.payload = std::bit_cast<uint64_t>(rows.real(kDouble));
    } else if (!rows.isNull(kUInt32)) {
        a.payloadType = PayloadType::UInt32;
        a.payload = uint32_t(rows.integer(kUInt32));
    } else if (!rows.isNull(kInt32)) {
        a.payloadType = PayloadType::Int32;
        a.payload = std::bit_cast<uint32_t>(int32_t(rows.integer(kInt32)));
    } else if (!rows.isNull(kFloat)) {
        a.payloadType = PayloadType::Float;
        a.payload = std::bit_cast<uint32_t>(float(rows.real(kFloat)));
    }
}

} // namespace

DomainId Importer::newDomainId(int64_t preferred) const
{
    if (preferred > 0 && preferred <= int64_t(UINT32_MAX) && !m_domainIdsNamed.count(uint32_t(preferred)))
        return DomainId(uint32_t(preferred));
    const uint32_t next = m_domainIdsNamed.empty() ? 1 : std::max(1u, m_domainIdsNamed.rbegin()->first + 1);
    return DomainId(next);
}

DomainId Importer::domainOf(uint32_t pid, int64_t fileDomain)
{
    if (fileDomain == 0) return DomainId();
    if (const auto it = m_domains.find({pid, fileDomain}); it != m_domains.end()) return it->second;
    // Used before its NvtxDomainCreate row: a provisional entry, named when the row comes.
    const DomainId id = newDomainId(fileDomain);
    m_domains[{pid, fileDomain}] = id;
    m_domainIdsNamed[id.value] = false;
    m_builder.addDomain(NvtxDomain {id, {}});
    return id;
}

void Importer::nameDomain(uint32_t pid, int64_t fileDomain, std::string name)
{
    if (fileDomain == 0) return;
    if (const auto known = m_domains.find({pid, fileDomain}); known != m_domains.end()) {
        if (!m_domainIdsNamed[known->second.value]) {
            m_domainIdsNamed[known->second.value] = true;
            m_domainsByName.try_emplace(name, known->second);
            m_builder.addDomain(NvtxDomain {known->second, std::move(name)});
        }
        return;
    }
    DomainId id;
    if (const auto same = m_domainsByName.find(name); same != m_domainsByName.end()) {
        id = same->second;
    } else {
        id = newDomainId(fileDomain);
        m_domainIdsNamed[id.value] = true;
        m_domainsByName.emplace(name, id);
        m_builder.addDomain(NvtxDomain {id, std::move(name)});
    }
    m_domains[{pid, fileDomain}] = id;
}

void Importer::readNvtx()
{
    if (!m_db.hasTable(nsys::table::kNvtxEvents)) return;
    struct OpenRange
    {
        TrackId track;
        NvtxEvent event;
    };
    std::vector<OpenRange> open;
    SqliteRows rows = select(nsys::table::kNvtxEvents, kColumns);
    while (rows.next()) {
        tick();
        const int64_t type = rows.integer(kType);
        const int64_t thread = rows.integerOr(kThread, 0);
        const Pid pid = pidOfGlobalId(thread);
        const Tid tid = tidOfGlobalId(thread);
        auto text = [&]() -> std::string_view {
            if (!rows.isNull(kText)) return rows.text(kText);
            return rows.isNull(kTextId) ? std::string_view() : textOf(rows.integer(kTextId));
        };
        if (type == kDomainCreate) {
            nameDomain(pid.value, rows.integerOr(kDomain, 0), std::string(text()));
            continue;
        }
        if (type == kThreadName) {
            m_threadNames[{pid.value, tid.value}] = std::string(text());
            continue;
        }
        if (type == kCategoryName) continue; // the model keeps category numbers only
        if (type != kMark && type != kPushPopRange && type != kStartEndRange) {
            ++m_skippedNvtxTypes[type];
            continue;
        }
        // A mark, and a range never closed (its end comes later), is read as an instant.
        const bool unended = type == kMark || rows.isNull(kEnd);
        const std::optional<TimeRange> time
            = rowInterval(rows, kStart, unended ? kStart : kEnd, nsys::table::kNvtxEvents);
        if (!time) continue;
        NvtxEvent e;
        e.start = time->start;
        e.end = time->end;
        e.name = rows.isNull(kText) ? optionalStringOf(rows, kTextId) : m_builder.intern(rows.text(kText));
        NvtxAttributes& a = e.attributes;
        a.style = type == kMark      ? NvtxStyle::Mark
            : type == kStartEndRange ? NvtxStyle::StartEnd
                                     : NvtxStyle::PushPop;
        a.domain = domainOf(pid.value, rows.integerOr(kDomain, 0));
        a.category = uint32_t(rows.integerOr(kCategory, 0));
        a.hasColor = !rows.isNull(kColor);
        a.color = uint32_t(rows.integerOr(kColor, 0));
        a.endThread = rows.isNull(kEndThread) ? tid : tidOfGlobalId(rows.integer(kEndThread));
        readPayload(rows, a);
        const TrackId track = m_tracks.host(TrackKind::Nvtx, pid, tid, a.domain);
        if (type != kMark && rows.isNull(kEnd)) {
            open.push_back({track, e});
            continue;
        }
        noteEnd(e.end);
        m_builder.add(track, e);
    }
    // Ranges the program never closed end with the trace, as nsys draws them.
    const Timestamp traceEnd = std::max(m_traceEnd, m_analysisEnd);
    for (OpenRange& range : open) {
        range.event.end = std::max(range.event.start, traceEnd);
        m_builder.add(range.track, range.event);
    }
    m_openRanges += open.size();
    for (const auto& [key, id] : m_domains)
        if (!m_domainIdsNamed[id.value])
            m_builder.addDomain(NvtxDomain {id, "NVTX domain " + std::to_string(key.fileDomain)});
}

} // namespace sightline::nsys_import
