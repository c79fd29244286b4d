#include "collector/convert/assemble/trace_assembly.h"

#include "collector/convert/assemble/batch_assembly.h"
#include "collector/convert/assemble/column_room.h"
#include "collector/convert/assemble/gpu_assembly.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace sightline::collector {

namespace {

using CorrelationRemap = std::unordered_map<uint32_t, uint32_t>;

// Sorts [first, last) when it is mostly in order already (a thread's API calls arrive as they
// end, so a nested call comes just before the call around it) by insertion, in about one pass;
// falls back to std::sort once the moves exceed a few per element.
template <class It, class Less> void sortMostlyInOrder(It first, It last, Less less)
{
    size_t movesLeft = 4 * size_t(last - first) + 64;
    for (It i = first + (first != last); i < last; ++i) {
        if (!less(*i, *(i - 1))) continue;
        auto value = std::move(*i);
        It hole = i;
        do {
            *hole = std::move(*(hole - 1));
            --hole;
        } while (hole > first && less(value, *(hole - 1)) && --movesLeft > 0);
        *hole = std::move(value);
        if (movesLeft == 0) {
            std::sort(first, last, less);
            return;
        }
    }
}

// The API calls' indexes ordered by thread, then by start (the enclosing call first). The
// threads' calls are interleaved in arrival order: their indexes are grouped by thread first (a
// counting sort), then each thread's run is sorted on its own. Sorting 4-byte indexes rather
// than the calls themselves spares a copy of every call (about 240 MB per 5M calls).
std::vector<uint32_t> orderByThreadAndStart(const std::vector<HostEvent<ApiCall>>& calls)
{
    std::map<uint32_t, size_t> perThread; // tid -> calls, then where its run begins, then ends
    for (const auto& call : calls)
        ++perThread[call.tid.value];
    size_t begin = 0;
    for (auto& [tid, count] : perThread)
        begin += std::exchange(count, begin);
    std::vector<uint32_t> order(calls.size());
    for (uint32_t i = 0; i < calls.size(); ++i)
        order[perThread[calls[i].tid.value]++] = i;
    begin = 0;
    for (const auto& [tid, end] : perThread) {
        sortMostlyInOrder(
            order.begin() + ptrdiff_t(begin), order.begin() + ptrdiff_t(end), [&](uint32_t a, uint32_t b) {
                const ApiCall& x = calls[a].event;
                const ApiCall& y = calls[b].event;
                if (x.start != y.start) return x.start < y.start;
                return x.end > y.end; // the enclosing call first
            });
        begin = end;
    }
    return order;
}

// Which API calls to add, and in which order: each thread's calls by start, less the driver
// calls enclosed by a runtime call of the same thread. `remap` learns which dropped correlation
// ids belong to which runtime call.
std::vector<uint32_t> keptApiCalls(
    const std::vector<HostEvent<ApiCall>>& calls, CorrelationRemap& remap, size_t& dropped)
{
    std::vector<uint32_t> order = orderByThreadAndStart(calls);
    // Kept indexes are moved down in place; `runtime` is the latest kept runtime call of this
    // thread.
    size_t kept = 0;
    const HostEvent<ApiCall>* runtime = nullptr;
    for (const uint32_t i : order) {
        const HostEvent<ApiCall>& call = calls[i];
        if (runtime && runtime->tid != call.tid) runtime = nullptr;
        const bool isDriver = call.event.result.apiClass == ApiClass::Driver;
        if (isDriver && runtime && call.event.start >= runtime->event.start
            && call.event.end <= runtime->event.end) {
            if (call.event.correlation != runtime->event.correlation)
                remap[call.event.correlation.value] = runtime->event.correlation.value;
            ++dropped;
            continue;
        }
        order[kept++] = i;
        if (!isDriver) runtime = &call;
    }
    order.resize(kept);
    return order;
}

void addLossDiagnostics(const ProcessCapture& p, TraceBuilder& builder)
{
    const std::string who = "process " + std::to_string(p.process.pid.value);
    auto add = [&](uint64_t count, Severity severity, const std::string& text) {
        if (count > 0) builder.addDiagnostic({severity, "collector", std::to_string(count) + " " + text});
    };
    const LossCounts& l = p.losses;
    add(l.cuptiDropped, Severity::Warning,
        "CUDA activity records of " + who
            + " were dropped by CUPTI (its buffers were full); some GPU activity is missing.");
    add(l.bufferExhausted, Severity::Warning,
        "events of " + who + " were dropped: the collector's buffers reached their memory limit.");
    add(l.zeroTimestamps, Severity::Warning,
        "GPU activity records of " + who
            + " had no timestamps (still running on the GPU when collection ended, or CUPTI's device buffer "
              "overflowed) and were left out.");
    add(l.textTruncated, Severity::Info, "NVTX messages of " + who + " longer than 4096 bytes were cut.");
    add(l.unmatchedNvtxEnds, Severity::Warning,
        "NVTX range ends of " + who + " had no matching start (or pops no push) and were ignored.");
    add(l.openNvtxRanges, Severity::Info,
        "NVTX ranges of " + who + " were still open when it ended; they end at its last event.");
    if (p.truncatedSpool)
        builder.addDiagnostic({Severity::Warning, "collector",
            "The recording of " + who
                + " ends in a partial record (the process was killed while "
                  "writing); its last few hundred milliseconds may be missing."});
    for (const Diagnostic& d : p.diagnostics)
        builder.addDiagnostic(d);
}

class ProcessAssembler
{
public:
    ProcessAssembler(ProcessCapture& p, const CaptureWindows& windows, TraceBuilder& builder,
        AssemblyStats& stats, std::unordered_set<uint32_t>& gpusAdded)
        : m_p(p)
        , m_windows(windows)
        , m_builder(builder)
        , m_stats(stats)
        , m_gpusAdded(gpusAdded)
    { }

    void run()
    {
        m_builder.addProcess(m_p.process);
        for (const Thread& t : m_p.threads)
            m_builder.addThread(t);
        learnContexts();
        addEntities();
        addHostEvents();
        addGpuEvents(m_p.kernels, TrackKind::Kernels);
        addGpuEvents(m_p.memory, TrackKind::Memory);
        addGpuEvents(m_p.syncs, TrackKind::Synchronization);
        addLossDiagnostics(m_p, m_builder);
    }

private:
    void learnContexts()
    {
        for (const CudaContext& c : m_p.contexts)
            m_deviceOf[c.context.value] = c.device;
        learnDevices(m_p.kernels);
        learnDevices(m_p.memory);
        for (const auto& [context, stream] : m_p.contextNullStreams)
            m_nullStreamOf[context.value] = stream;
    }

    // A context without a record takes the device of its first GPU operation.
    template <class Event> void learnDevices(const std::vector<std::vector<GpuEvent<Event>>>& batches)
    {
        uint32_t last = UINT32_MAX; // operations come in runs of one context
        for (const auto& batch : batches)
            for (const auto& e : batch)
                if (e.context.value != last) {
                    m_deviceOf.emplace(e.context.value, e.device);
                    last = e.context.value;
                }
    }

    DeviceId deviceOf(ContextId context) const
    {
        auto found = m_deviceOf.find(context.value);
        return found == m_deviceOf.end() ? DeviceId() : found->second;
    }

    void addEntities()
    {
        for (const Gpu& gpu : m_p.gpus)
            if (m_gpusAdded.insert(gpu.device.value).second) m_builder.addGpu(gpu);
        for (const CudaContext& c : m_p.contexts)
            m_builder.addContext(c);
        for (CudaStream s : m_p.streams) {
            s.device = deviceOf(s.context);
            auto null = m_nullStreamOf.find(s.context.value);
            s.isDefault = s.isDefault || (null != m_nullStreamOf.end() && null->second == s.stream);
            m_builder.addStream(s);
        }
    }

    // The builder's get-or-create, behind a cache of the last few rows: consecutive API calls
    // mostly share a row, or take turns between a few threads.
    TrackId hostTrack(TrackKind kind, Tid tid, DomainId domain = {})
    {
        TrackKey key;
        key.kind = kind, key.pid = m_p.process.pid, key.tid = tid, key.domain = domain;
        return cached(key, [&] { return m_builder.hostTrack(kind, m_p.process.pid, tid, domain); });
    }
    template <class Create> TrackId cached(const TrackKey& key, Create&& create)
    {
        for (const RecentTrack& recent : m_recentTracks)
            if (recent.id && recent.key == key) return *recent.id;
        RecentTrack& slot = m_recentTracks[m_nextRecentSlot++ % m_recentTracks.size()];
        slot = {key, create()};
        return *slot.id;
    }

    template <class Event> bool keep(const Event& e)
    {
        const bool kept = m_windows.keeps(e.start, e.end);
        m_stats.outsideCaptureRange += kept ? 0 : 1;
        return kept;
    }

    // API calls are added in two passes: the first counts the events each row will keep, so its
    // columns are sized (and mapped in on every core) before the second adds them; rows grown by
    // push_back would be copied again and again over a long recording.
    void addHostEvents()
    {
        m_stats.outsideCaptureRange += addNvtxBatches(m_p, m_windows, m_builder);
        m_stats.outsideCaptureRange += addOsCallBatches(m_p, m_windows, m_builder);
        const std::vector<HostEvent<ApiCall>>& calls = m_p.apiCalls;
        const std::vector<uint32_t> order = keptApiCalls(calls, m_remap, m_stats.droppedNestedDriverCalls);
        const bool filtering = !m_windows.keepsEverything();
        std::vector<size_t> counts; // per TrackId: events it will receive
        for (const uint32_t i : order) {
            const HostEvent<ApiCall>& e = calls[i];
            if (filtering) m_hasApiCall.insert(e.event.correlation.value);
            if (!m_windows.keeps(e.event.start, e.event.end)) continue;
            if (filtering) m_keptApiCalls.insert(e.event.correlation.value);
            count(counts, hostTrack(TrackKind::CudaApi, e.tid));
        }
        reserve(counts, TrackKind::CudaApi);
        for (const uint32_t i : order)
            if (keep(calls[i].event))
                m_builder.add(hostTrack(TrackKind::CudaApi, calls[i].tid), calls[i].event);
    }

    template <class Event>
    void addGpuEvents(std::vector<std::vector<GpuEvent<Event>>>& batches, TrackKind kind)
    {
        const GpuRowRule<Event> rowOf = [this, kind](GpuEvent<Event>& e) -> std::optional<GpuRowKey> {
            if (auto remapped = m_remap.find(e.event.correlation.value); remapped != m_remap.end())
                e.event.correlation = CorrelationId(remapped->second);
            if (!kept(e)) return std::nullopt;
            return rowKeyOf(e, kind);
        };
        m_stats.outsideCaptureRange += addGpuBatches(batches, m_p.process.pid, rowOf, m_builder);
    }

    // GPU work launched by a recorded API call goes with that call; other work by its own times.
    template <class Event> bool kept(const GpuEvent<Event>& e) const
    {
        if (m_windows.keepsEverything()) return true;
        const uint32_t correlation = e.event.correlation.value;
        if (m_hasApiCall.count(correlation) > 0) return m_keptApiCalls.count(correlation) > 0;
        return m_windows.keeps(e.event.start, e.event.end);
    }

    template <class Event> GpuRowKey rowKeyOf(const GpuEvent<Event>& e, TrackKind kind) const
    {
        const DeviceId device = kind == TrackKind::Synchronization ? deviceOf(e.context) : e.device;
        StreamId stream = e.stream;
        if (stream.value == UINT32_MAX) { // context-wide synchronisation
            auto null = m_nullStreamOf.find(e.context.value);
            stream = null == m_nullStreamOf.end() ? StreamId() : null->second;
        }
        return {device, e.context, stream};
    }

    static void count(std::vector<size_t>& counts, TrackId track)
    {
        if (track.value >= counts.size()) counts.resize(track.value + 1, 0);
        ++counts[track.value];
    }

    void reserve(const std::vector<size_t>& counts, TrackKind kind)
    {
        ColumnRoom room;
        for (uint32_t track = 0; track < counts.size(); ++track)
            if (counts[track] > 0) room.reserve(m_builder.columns(TrackId(track)), counts[track], kind);
        room.mapIn();
    }

    ProcessCapture& m_p;
    const CaptureWindows& m_windows;
    TraceBuilder& m_builder;
    AssemblyStats& m_stats;
    std::unordered_set<uint32_t>& m_gpusAdded; // GPUs are shared by the processes of a host
    std::unordered_map<uint32_t, DeviceId> m_deviceOf;
    std::unordered_map<uint32_t, StreamId> m_nullStreamOf;
    CorrelationRemap m_remap;
    struct RecentTrack
    {
        TrackKey key;
        std::optional<TrackId> id;
    };
    std::array<RecentTrack, 8> m_recentTracks;
    size_t m_nextRecentSlot = 0;
    std::unordered_set<uint32_t> m_hasApiCall;
    std::unordered_set<uint32_t> m_keptApiCalls;
};

} // namespace

AssemblyStats assembleTrace(
    std::vector<ProcessCapture>& processes, const CaptureWindows& windows, TraceBuilder& builder)
{
    AssemblyStats stats;
    std::sort(processes.begin(), processes.end(),
        [](const ProcessCapture& a, const ProcessCapture& b) { return a.process.pid < b.process.pid; });
    std::unordered_set<uint32_t> gpusAdded;
    for (ProcessCapture& p : processes)
        ProcessAssembler(p, windows, builder, stats, gpusAdded).run();
    stats.events = builder.eventCount();
    return stats;
}

} // namespace sightline::collector
