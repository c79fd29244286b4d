// KinetoCollector, reading side: classifies each event and keeps it in row form.
#include "model/import/chrome/kineto_collector.h"

#include "model/import/chrome/nsys2json_events.h"

#include <algorithm>

namespace sightline {
namespace {

uint32_t clampToU32(int64_t value)
{
    return uint32_t(std::clamp<int64_t>(value, 0, int64_t(UINT32_MAX)));
}

} // namespace

template <class T> uint32_t KinetoCollector::Table<T>::intern(const T& value)
{
    auto [it, inserted] = ids.try_emplace(value, uint32_t(values.size()));
    if (inserted) values.push_back(value);
    return it->second;
}

KinetoCollector::KinetoCollector(TraceBuilder& builder)
    : m_builder(builder)
{ }

KinetoKind KinetoCollector::kindOf(std::string_view category)
{
    if (category != m_lastCategory) {
        m_lastCategory.assign(category);
        m_lastKind = kindOfCategory(category);
    }
    return m_lastKind;
}

DomainId KinetoCollector::domainFor(std::string_view name)
{
    if (name.empty()) return DomainId();
    auto it = m_domains.find(std::string(name));
    if (it != m_domains.end()) return it->second;
    const DomainId id = m_builder.addDomain(name);
    m_domains.emplace(std::string(name), id);
    return id;
}

void KinetoCollector::add(const KinetoEvent& e)
{
    switch (e.phase) {
    case 'X':
    case 'i':
    case 'I':
    case 'b':
    case 'e':
        break;
    case 's':
    case 'f':
    case 't':
        if (isLaunchFlow(e.category, e.name)) {
            m_isKineto = true;
            addFlowPoint(e);
        } else {
            m_generic.add(e); // other tools' arrows: bound to their slices once the trace is built
        }
        return;
    case 'M':
        noteMetadataEvent(e);
        m_generic.noteMetadata(e);
        return;
    case 'B':
    case 'E':
    case 'n':
    case 'C':
        holdGeneric(e);
        return;
    default:
        ++m_unsupportedPhases[e.phase];
        return;
    }
    if (!e.hasPid && !e.pidText.empty()) {
        KinetoEvent translated;
        if (const std::optional<KinetoKind> kind = readNsys2jsonEvent(e, translated)) {
            m_processNames.try_emplace(translated.pid, std::string(e.pidText));
            addOfKind(translated, *kind);
            return;
        }
    }
    addOfKind(e, kindOf(e.category));
}

void KinetoCollector::addOfKind(const KinetoEvent& e, KinetoKind kind)
{
    if (kind != KinetoKind::Unknown && kind != KinetoKind::Ignored) m_isKineto = true;
    switch (kind) {
    case KinetoKind::Ignored:
    case KinetoKind::Flow:
        return;
    case KinetoKind::Unknown:
        holdGeneric(e);
        return;
    case KinetoKind::Kernel:
    case KinetoKind::Memcpy:
    case KinetoKind::Memset:
    case KinetoKind::Sync:
    case KinetoKind::GpuRange:
        if (!addGpuEvent(e, kind)) ++m_unplaceable;
        return;
    default:
        if (!addHostEvent(e, kind)) ++m_unplaceable;
        return;
    }
}

// Kept for a generic trace, and counted as a Kineto trace skips it.
void KinetoCollector::holdGeneric(const KinetoEvent& e)
{
    const bool held = m_generic.add(e);
    if (e.phase == 'B' || e.phase == 'E' || e.phase == 'n' || e.phase == 'C') {
        ++(held ? m_genericPhases : m_unsupportedPhases)[e.phase];
        return;
    }
    // Global instants ("Iteration Start") have no category and no numeric row: not events.
    if (e.category.empty() && !(e.hasPid && e.hasTid)) return;
    ++(held ? m_genericCategories
            : m_unknownCategories)[std::string(e.category.empty() ? "(none)" : e.category)];
}

void KinetoCollector::pushPending(const PendingEvent& event, const KinetoEvent& source, bool correlated)
{
    if (!correlated && source.hasPid && source.hasTid)
        m_uncorrelated.push_back(
            {source.ts, uint32_t(source.pid), uint32_t(source.tid), uint32_t(m_pending.size())});
    m_maxCorrelation = std::max(m_maxCorrelation, event.correlation);
    m_pending.push_back(event);
}

NvtxAttributes KinetoCollector::nvtxAttributes(const KinetoEvent& e, KinetoKind kind)
{
    NvtxAttributes a;
    const bool instant = e.phase == 'i' || e.phase == 'I';
    a.style = instant ? NvtxStyle::Mark : e.phase == 'b' ? NvtxStyle::StartEnd : NvtxStyle::PushPop;
    a.endThread = Tid(uint32_t(e.tid));
    if (kind != KinetoKind::Nvtx) {
        a.domain = domainFor(currentCategoryName(e.category));
        return a;
    }
    // Sightline's exporter writes the NVTX attributes as args.
    if (e.has(TextArg::Domain)) a.domain = domainFor(e.get(TextArg::Domain));
    a.category = clampToU32(e.get(IntArg::NvtxCategory));
    if (e.has(TextArg::Color)) {
        if (const std::optional<uint32_t> color = colorFromText(e.get(TextArg::Color))) {
            a.color = *color;
            a.hasColor = true;
        }
    }
    if (e.has(TextArg::PayloadType) && e.has(TextArg::Payload)) {
        const PayloadType type = payloadTypeFromText(e.get(TextArg::PayloadType));
        if (const std::optional<uint64_t> bits = payloadBitsFromText(type, e.get(TextArg::Payload))) {
            a.payloadType = type;
            a.payload = *bits;
        }
    }
    if (e.has(IntArg::EndThread)) a.endThread = Tid(uint32_t(e.get(IntArg::EndThread)));
    return a;
}

bool KinetoCollector::addHostEvent(const KinetoEvent& e, KinetoKind kind)
{
    if (!e.hasPid || !e.hasTid || !e.hasTs) return false;
    const StringId name = m_builder.intern(e.name);
    PendingEvent p;
    p.start = e.ts;
    p.end = e.ts + std::max<int64_t>(0, e.dur);
    p.name = name.value;
    p.a = uint32_t(e.pid);
    p.b = uint32_t(e.tid);
    switch (kind) {
    case KinetoKind::RuntimeCall:
    case KinetoKind::DriverCall: {
        if (e.phase != 'X') return false;
        p.kind = PendingKind::Api;
        const ApiClass apiClass = kind == KinetoKind::DriverCall ? ApiClass::Driver : ApiClass::Runtime;
        p.detail = m_apiResults.intern({apiClass, int32_t(e.get(IntArg::ReturnCode))});
        p.correlation = clampToU32(e.get(IntArg::Correlation));
        if (p.correlation != 0) m_callOwners.emplace_back(p.correlation, p.a);
        pushPending(p, e, p.correlation != 0);
        return true;
    }
    case KinetoKind::OsRuntime:
        if (e.phase != 'X') return false;
        p.kind = PendingKind::OsCall;
        p.value = e.get(IntArg::ReturnValue);
        pushPending(p, e, true);
        return true;
    default:
        break;
    }
    // NVTX-like ranges and marks; an "e" closes the "b" of the same id.
    if (e.phase == 'e') {
        auto it = m_openAsync.find(e.id);
        if (!e.hasId || it == m_openAsync.end()) {
            ++m_unmatchedAsyncEnds;
            return true;
        }
        PendingEvent range = it->second;
        range.end = std::max(range.start, e.ts);
        m_openAsync.erase(it);
        pushPending(range, e, true);
        return true;
    }
    const NvtxAttributes attributes = nvtxAttributes(e, kind);
    p.kind = PendingKind::HostRange;
    p.c = attributes.domain.value;
    p.detail = m_nvtx.intern(attributes);
    if (e.phase == 'b') {
        if (!e.hasId) return false;
        m_openAsync[e.id] = p;
        return true;
    }
    if (attributes.style == NvtxStyle::Mark) p.end = p.start;
    pushPending(p, e, true);
    return true;
}

KernelLaunch KinetoCollector::kernelLaunch(const KinetoEvent& e, StringId name)
{
    KernelLaunch l;
    l.shortName = e.has(TextArg::ShortName) ? m_builder.intern(e.get(TextArg::ShortName)) : name;
    if (e.has(TextArg::MangledName)) l.mangledName = m_builder.intern(e.get(TextArg::MangledName));
    for (size_t i = 0; i < 3; ++i) {
        l.grid[i] = clampToU32(e.grid[i]);
        l.block[i] = clampToU32(e.block[i]);
    }
    l.registersPerThread = clampToU32(e.get(IntArg::Registers));
    if (e.has(IntArg::StaticShared) || e.has(IntArg::DynamicShared)) {
        l.staticSharedMemory = clampToU32(e.get(IntArg::StaticShared));
        l.dynamicSharedMemory = clampToU32(e.get(IntArg::DynamicShared));
    } else {
        // Kineto writes only the sum of static and dynamic shared memory.
        l.staticSharedMemory = clampToU32(e.get(IntArg::SharedMemory));
    }
    l.localMemoryPerThread = clampToU32(e.get(IntArg::LocalPerThread));
    l.localMemoryTotal = uint64_t(std::max<int64_t>(0, e.get(IntArg::LocalTotal)));
    if (e.has(TextArg::LaunchType)) l.launchType = launchTypeFromText(e.get(TextArg::LaunchType));
    l.graphId = clampToU32(e.get(IntArg::GraphId));
    l.graphNodeId = uint64_t(std::max<int64_t>(0, e.get(IntArg::GraphNodeId)));
    return l;
}

MemoryOp KinetoCollector::memoryOp(const KinetoEvent& e, KinetoKind kind, uint32_t device)
{
    MemoryOp op;
    op.srcDevice = DeviceId(e.has(IntArg::SrcDevice) ? clampToU32(e.get(IntArg::SrcDevice)) : device);
    op.dstDevice = DeviceId(e.has(IntArg::DstDevice) ? clampToU32(e.get(IntArg::DstDevice)) : device);
    if (kind == KinetoKind::Memset) {
        op.kind = MemoryOpKind::Memset;
        op.srcKind = e.has(TextArg::MemoryKind)
            ? memoryKindFromText(e.get(TextArg::MemoryKind)).value_or(MemoryKind::Unknown)
            : describeMemset(e.name);
        op.memsetValue = clampToU32(e.get(IntArg::Value));
        return op;
    }
    const MemcpyDescription fromName = describeMemcpy(e.name);
    op.copyKind = e.has(TextArg::CopyKind)
        ? copyKindFromText(e.get(TextArg::CopyKind)).value_or(fromName.copyKind)
        : fromName.copyKind;
    op.srcKind = e.has(TextArg::SrcKind)
        ? memoryKindFromText(e.get(TextArg::SrcKind)).value_or(fromName.srcKind)
        : fromName.srcKind;
    op.dstKind = e.has(TextArg::DstKind)
        ? memoryKindFromText(e.get(TextArg::DstKind)).value_or(fromName.dstKind)
        : fromName.dstKind;
    return op;
}

bool KinetoCollector::addGpuEvent(const KinetoEvent& e, KinetoKind kind)
{
    if (!e.hasTs || e.phase != 'X') return false;
    // Kineto places GPU rows at pid = device, tid = stream; the args say it too. A range may
    // leave its stream to be found (placeGpuRanges).
    if (!e.has(IntArg::Device) && !e.hasPid) return false;
    if (!e.has(IntArg::Stream) && !e.hasTid && kind != KinetoKind::GpuRange) return false;
    PendingEvent p;
    p.start = e.ts;
    p.end = e.ts + std::max<int64_t>(0, e.dur);
    p.a = uint32_t(e.has(IntArg::Device) ? e.get(IntArg::Device) : e.pid);
    p.b = uint32_t(e.get(IntArg::Context));
    p.c = e.has(IntArg::Stream) ? uint32_t(e.get(IntArg::Stream)) : e.hasTid ? uint32_t(e.tid) : kUnplaced;
    p.correlation = clampToU32(e.get(IntArg::Correlation));
    const StringId name = m_builder.intern(e.name);
    p.name = name.value;
    switch (kind) {
    case KinetoKind::Kernel:
        p.kind = PendingKind::Kernel;
        p.detail = m_launches.intern(kernelLaunch(e, name));
        break;
    case KinetoKind::Memcpy:
    case KinetoKind::Memset:
        p.kind = PendingKind::Memory;
        p.detail = m_memoryOps.intern(memoryOp(e, kind, p.a));
        p.value = std::max<int64_t>(0, e.get(IntArg::Bytes));
        break;
    case KinetoKind::Sync: {
        p.kind = PendingKind::Sync;
        SyncOp op;
        op.type = syncTypeFromText(e.has(TextArg::SyncKind) ? e.get(TextArg::SyncKind) : e.name);
        op.eventId = clampToU32(e.get(IntArg::EventId));
        p.detail = m_syncOps.intern(op);
        break;
    }
    default: { // GpuRange
        p.kind = PendingKind::GpuRange;
        if (!e.has(IntArg::Context)) p.b = kUnplaced;
        NvtxAttributes a;
        a.domain = domainFor(currentCategoryName(e.category));
        p.detail = m_nvtx.intern(a);
        p.correlation = 0;
        pushPending(p, e, true);
        return true;
    }
    }
    pushPending(p, e, p.correlation != 0);
    return true;
}

void KinetoCollector::addFlowPoint(const KinetoEvent& e)
{
    if (!e.hasId || !e.hasPid || !e.hasTid || !e.hasTs) return;
    m_flows.push_back({e.id, e.ts, uint32_t(e.pid), uint32_t(e.tid), e.phase == 's'});
}

void KinetoCollector::noteMetadataEvent(const KinetoEvent& e)
{
    if (!e.hasPid || !e.has(TextArg::Name)) return;
    if (e.name == "process_name")
        m_processNames[e.pid] = std::string(e.get(TextArg::Name));
    else if (e.name == "thread_name" && e.hasTid)
        m_threadNames[{e.pid, e.tid}] = std::string(e.get(TextArg::Name));
}

} // namespace sightline
