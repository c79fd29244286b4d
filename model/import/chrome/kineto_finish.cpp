// KinetoCollector, finishing side: flows, GPU owners, t = 0, and the hand-over to the builder.
#include "model/import/chrome/kineto_collector.h"
#include "model/import/track_cache.h"

#include <algorithm>
#include <limits>

namespace sightline {
namespace {

constexpr int64_t kEpochThresholdNs = 1'000'000'000'000'000'000; // 2001-09-09: raw times above are wall clock

struct RowTime
{
    uint32_t pid, tid;
    Timestamp ts;
    friend bool operator==(const RowTime&, const RowTime&) = default;
};

struct RowTimeHash
{
    size_t operator()(const RowTime& k) const noexcept
    {
        uint64_t h = uint64_t(k.ts) * 0x9E3779B97F4A7C15ull;
        h ^= uint64_t(k.tid) + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
        h ^= uint64_t(k.pid) + 0x85EBCA77C2B2AE63ull + (h << 6) + (h >> 2);
        return size_t(h);
    }
};

} // namespace

// Which host process owns each GPU activity. Kineto traces come from one process, whose pid is
// then the owner of every GPU row; with several host processes (merged traces, Sightline's
// exporter) the launching call's process is found through the correlation id, and activities
// without one go to the process that launched most of the work on their device.
class KinetoCollector::OwnerResolver
{
public:
    explicit OwnerResolver(const KinetoCollector& c)
    {
        std::set<uint32_t> pids;
        for (const auto& [correlation, pid] : c.m_callOwners)
            pids.insert(pid);
        if (pids.empty())
            for (const PendingEvent& p : c.m_pending)
                if (isHost(p.kind)) pids.insert(p.a);
        m_fallback = pids.empty() ? 0 : *pids.begin();
        m_single = pids.size() <= 1;
        if (m_single) return;

        m_calls = c.m_callOwners;
        std::sort(m_calls.begin(), m_calls.end());
        // A correlation id used by two processes cannot say which one launched an activity.
        for (size_t i = 1; i < m_calls.size(); ++i)
            if (m_calls[i].first == m_calls[i - 1].first && m_calls[i].second != m_calls[i - 1].second)
                m_calls[i].second = m_calls[i - 1].second = kAmbiguous;
        std::map<std::pair<uint32_t, uint32_t>, size_t> votes; // (device, pid) -> activities
        for (const PendingEvent& p : c.m_pending)
            if (!isHost(p.kind))
                if (const uint32_t pid = byCorrelation(p.correlation); pid != kAmbiguous) ++votes[{p.a, pid}];
        for (const auto& [key, count] : votes) {
            auto& best = m_deviceOwner[key.first];
            if (count > best.second) best = {key.second, count};
        }
    }

    uint32_t ownerOf(const PendingEvent& p) const
    {
        if (m_single) return m_fallback;
        if (const uint32_t pid = byCorrelation(p.correlation); pid != kAmbiguous) return pid;
        const auto it = m_deviceOwner.find(p.a);
        return it != m_deviceOwner.end() ? it->second.first : m_fallback;
    }

    static bool isHost(PendingKind k)
    {
        return k == PendingKind::Api || k == PendingKind::HostRange || k == PendingKind::OsCall;
    }

private:
    static constexpr uint32_t kAmbiguous = std::numeric_limits<uint32_t>::max();

    uint32_t byCorrelation(uint32_t correlation) const
    {
        if (correlation == 0) return kAmbiguous;
        const auto it
            = std::lower_bound(m_calls.begin(), m_calls.end(), std::pair<uint32_t, uint32_t>(correlation, 0));
        return it != m_calls.end() && it->first == correlation ? it->second : kAmbiguous;
    }

    bool m_single = true;
    uint32_t m_fallback = 0;
    std::vector<std::pair<uint32_t, uint32_t>> m_calls;
    std::map<uint32_t, std::pair<uint32_t, size_t>> m_deviceOwner; // device -> (pid, votes)
};

void KinetoCollector::bindFlows()
{
    if (m_uncorrelated.empty() || m_flows.empty()) return;
    std::unordered_map<RowTime, uint32_t, RowTimeHash> byRowTime;
    byRowTime.reserve(m_uncorrelated.size());
    for (const FlowCandidate& c : m_uncorrelated)
        byRowTime.try_emplace(RowTime {c.pid, c.tid, c.ts}, c.index);
    auto find = [&](const FlowPoint& f) -> PendingEvent* {
        const auto it = byRowTime.find(RowTime {f.pid, f.tid, f.ts});
        return it == byRowTime.end() ? nullptr : &m_pending[it->second];
    };
    std::stable_sort(
        m_flows.begin(), m_flows.end(), [](const FlowPoint& a, const FlowPoint& b) { return a.id < b.id; });
    for (size_t i = 0; i < m_flows.size();) {
        size_t j = i;
        const FlowPoint* start = nullptr;
        const FlowPoint* finish = nullptr;
        for (; j < m_flows.size() && m_flows[j].id == m_flows[i].id; ++j) {
            if (m_flows[j].isStart && !start) start = &m_flows[j];
            if (!m_flows[j].isStart) finish = &m_flows[j];
        }
        i = j;
        if (!start || !finish) continue;
        PendingEvent* call = find(*start);
        PendingEvent* activity = find(*finish);
        if (!call || !activity || call->correlation != 0 || activity->correlation != 0) continue;
        if (m_maxCorrelation == std::numeric_limits<uint32_t>::max()) break;
        call->correlation = activity->correlation = ++m_maxCorrelation;
        if (call->kind == PendingKind::Api) m_callOwners.emplace_back(call->correlation, call->a);
        ++m_flowBound;
    }
}

// Ranges on the GPU whose file gives no context (gpu_user_annotation) or no stream (nsys2json's
// nvtx-kernel) go where their activities are: on the stream of the kernel that starts where the
// range starts (else the device's first stream), in the context of that stream's activities.
void KinetoCollector::placeGpuRanges()
{
    const auto unplaced = [](const PendingEvent& p) {
        return p.kind == PendingKind::GpuRange && (p.b == kUnplaced || p.c == kUnplaced);
    };
    if (std::none_of(m_pending.begin(), m_pending.end(), unplaced)) return;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> contexts; // (device, stream) -> context
    std::map<std::pair<uint32_t, Timestamp>, uint32_t> kernelStreams; // (device, start) -> stream
    for (const PendingEvent& p : m_pending) {
        if (OwnerResolver::isHost(p.kind) || p.kind == PendingKind::GpuRange) continue;
        contexts.try_emplace({p.a, p.c}, p.b);
        if (p.kind == PendingKind::Kernel) kernelStreams.try_emplace({p.a, p.start}, p.c);
    }
    for (PendingEvent& p : m_pending) {
        if (!unplaced(p)) continue;
        if (p.c == kUnplaced) {
            const auto kernel = kernelStreams.find({p.a, p.start});
            const auto first = contexts.lower_bound({p.a, 0});
            p.c = kernel != kernelStreams.end()                        ? kernel->second
                : first != contexts.end() && first->first.first == p.a ? first->first.second
                                                                       : 0;
        }
        if (p.b == kUnplaced) {
            const auto context = contexts.find({p.a, p.c});
            p.b = context != contexts.end() ? context->second : 0;
        }
    }
}

void KinetoCollector::closeOpenAsync(Timestamp traceEnd)
{
    for (auto& [id, range] : m_openAsync) {
        range.end = std::max(range.start, traceEnd);
        m_pending.push_back(range);
        ++m_closedAsync;
    }
    m_openAsync.clear();
}

void KinetoCollector::finish()
{
    bindFlows();
    placeGpuRanges();
    Timestamp first = std::numeric_limits<Timestamp>::max(), last = std::numeric_limits<Timestamp>::min();
    for (const PendingEvent& p : m_pending) {
        first = std::min(first, p.start);
        last = std::max(last, p.end);
    }
    for (const auto& [id, range] : m_openAsync)
        first = std::min(first, range.start);
    Timestamp genericFirst = 0, genericLast = 0;
    const bool generic = !m_isKineto && m_generic.span(genericFirst, genericLast);
    if (generic) {
        first = std::min(first, genericFirst);
        last = std::max(last, genericLast);
    } else {
        for (const auto& [category, count] : m_genericCategories)
            m_unknownCategories[category] += count;
        for (const auto& [phase, count] : m_genericPhases)
            m_unsupportedPhases[phase] += count;
    }
    if (m_pending.empty() && m_openAsync.empty() && !generic) first = last = 0;
    closeOpenAsync(last);

    ReportMetadata& metadata = m_builder.metadata();
    if (m_timeOrigin)
        metadata.startTimeUtcNs = *m_timeOrigin + first;
    else if (first >= kEpochThresholdNs)
        metadata.startTimeUtcNs = first;

    const OwnerResolver owners(*this);
    emitAll(owners, first);
    if (generic)
        m_generic.emit(m_builder, first);
    else
        m_generic.placeFlowsOnNumericRows(first);
    nameEntities();
    addDiagnostics();
}

void KinetoCollector::emitAll(const OwnerResolver& owners, Timestamp base)
{
    TrackCache tracks(m_builder);
    for (const PendingEvent& p : m_pending) {
        const Timestamp start = p.start - base, end = p.end - base;
        const StringId name(p.name);
        const CorrelationId correlation(p.correlation);
        if (OwnerResolver::isHost(p.kind)) {
            const Pid pid(p.a);
            const Tid tid(p.b);
            if (p.kind == PendingKind::Api)
                m_builder.add(tracks.host(TrackKind::CudaApi, pid, tid),
                    ApiCall {start, end, name, correlation, m_apiResults.values[p.detail]});
            else if (p.kind == PendingKind::OsCall)
                m_builder.add(
                    tracks.host(TrackKind::OsRuntime, pid, tid), OsCall {start, end, name, p.value});
            else
                m_builder.add(tracks.host(TrackKind::Nvtx, pid, tid, DomainId(p.c)),
                    NvtxEvent {start, end, name, m_nvtx.values[p.detail]});
            continue;
        }
        const Pid owner(owners.ownerOf(p));
        const DeviceId device(p.a);
        const ContextId context(p.b);
        const StreamId stream(p.c);
        switch (p.kind) {
        case PendingKind::Kernel:
            m_builder.add(tracks.gpu(TrackKind::Kernels, owner, device, context, stream),
                KernelEvent {start, end, name, correlation, m_launches.values[p.detail]});
            break;
        case PendingKind::Memory:
            m_builder.add(tracks.gpu(TrackKind::Memory, owner, device, context, stream),
                MemoryEvent {start, end, correlation, m_memoryOps.values[p.detail], uint64_t(p.value)});
            break;
        case PendingKind::Sync:
            m_builder.add(tracks.gpu(TrackKind::Synchronization, owner, device, context, stream),
                SyncEvent {start, end, correlation, m_syncOps.values[p.detail]});
            break;
        default: // GpuRange
            m_builder.add(tracks.gpu(TrackKind::Nvtx, owner, device, context, stream),
                NvtxEvent {start, end, name, m_nvtx.values[p.detail]});
            break;
        }
    }
    m_hostThreads = tracks.hostThreads();
    std::vector<PendingEvent>().swap(m_pending);
    std::vector<FlowCandidate>().swap(m_uncorrelated);
    std::vector<FlowPoint>().swap(m_flows);
}

void KinetoCollector::nameEntities()
{
    std::set<uint32_t> pids;
    for (const auto& [pid, tid] : m_hostThreads) {
        pids.insert(pid);
        const auto name = m_threadNames.find({int64_t(pid), int64_t(int32_t(tid))});
        const auto unsignedName = m_threadNames.find({int64_t(pid), int64_t(tid)});
        const auto& found = name != m_threadNames.end() ? name : unsignedName;
        if (found != m_threadNames.end()) m_builder.addThread({Pid(pid), Tid(tid), found->second});
    }
    for (uint32_t pid : pids)
        if (const auto name = m_processNames.find(int64_t(pid)); name != m_processNames.end())
            m_builder.addProcess({Pid(pid), name->second, {}});
}

void KinetoCollector::addDiagnostics()
{
    auto warn = [&](Severity severity, std::string text) {
        m_builder.addDiagnostic({severity, "import", std::move(text)});
    };
    auto listOf = [](const auto& counts, auto nameOf) {
        std::string text;
        for (const auto& [key, count] : counts)
            text += (text.empty() ? "" : ", ") + nameOf(key) + " (" + std::to_string(count) + ")";
        return text;
    };
    size_t unknown = 0;
    for (const auto& [category, count] : m_unknownCategories)
        unknown += count;
    if (unknown)
        warn(Severity::Info,
            "Skipped " + std::to_string(unknown) + " events of categories Sightline does not import: "
                + listOf(m_unknownCategories, [](const std::string& c) { return c; }) + ".");
    size_t phases = 0;
    for (const auto& [phase, count] : m_unsupportedPhases)
        phases += count;
    if (phases)
        warn(Severity::Info,
            "Skipped " + std::to_string(phases) + " events of phases Sightline does not import: "
                + listOf(m_unsupportedPhases, [](char c) { return std::string("\"") + c + "\""; }) + ".");
    if (m_unplaceable)
        warn(Severity::Warning,
            "Skipped " + std::to_string(m_unplaceable)
                + " events that have no numeric process and thread, no timestamp, or a phase "
                  "their category does not allow.");
    if (m_closedAsync)
        warn(Severity::Warning,
            std::to_string(m_closedAsync) + " ranges without an end were closed at the end of the trace.");
    if (m_unmatchedAsyncEnds)
        warn(Severity::Warning,
            "Ignored " + std::to_string(m_unmatchedAsyncEnds) + " range ends that have no matching begin.");
    if (m_flowBound)
        warn(Severity::Info,
            "Correlated " + std::to_string(m_flowBound)
                + " GPU activities with their API calls through flow events (their args carry no "
                  "correlation id).");
}

} // namespace sightline
