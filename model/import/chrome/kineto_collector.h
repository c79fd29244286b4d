// Turns parsed Chrome trace events (kineto_event.h) into model events. Events are held in a
// compact row form until the whole file has been read, because three facts are only known at
// the end: the earliest timestamp (t = 0), which host process owns each GPU row (Kineto puts GPU
// activities on pseudo-process "pid = device"), and the flow events that correlate activities
// whose args carry no correlation id. finish() resolves those and hands everything to the
// TraceBuilder. Memory: about 56 bytes per event until finish(), then the builder's columns.
//
// Mapping: kernel/gpu_memcpy/gpu_memset/cuda_sync -> Kernels/Memory/Synchronization tracks of
// their stream; cuda_runtime/cuda_driver -> the thread's CUDA API track; cpu_op,
// user_annotation, python_function and cpu_instant_event -> NVTX-like push/pop ranges (marks for
// instants) on the thread, one domain per category; gpu_user_annotation -> NVTX-kind ranges on a
// GPU stream track (TrackKind::Nvtx keyed by device/context/stream, domain
// "gpu_user_annotation"; without a context of their own, that of their stream's activities);
// Sightline's own "nvtx" and "os_runtime" categories -> NVTX and OS runtime tracks. PyTorch
// 1.8-1.10's spellings (kineto_mapping.h) import as today's; nsys2json's rows as the Kineto
// events they stand for (nsys2json_events.h).
//
// Kineto or generic: a file is a Kineto trace when it carries a PyTorch profiler marker: a
// top-level "schemaVersion", "deviceProperties" or "baseTimeNanoseconds", or an event of a
// category the table maps (kineto_mapping.h: not Unknown, not Ignored). There, categories the
// table does not know and the phases Kineto never writes ("B", "E", "n", "C") are skipped and
// counted, as always. Any other file is a generic Chrome trace: its "X", "B"/"E" and instant
// events of any category become ranges and marks, its "C" events counter series of their
// process (generic_trace_events.h).
#pragma once

#include "model/construct/trace_builder.h"
#include "model/import/chrome/generic_trace_events.h"
#include "model/import/chrome/kineto_event.h"
#include "model/import/chrome/kineto_mapping.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace sightline {

class KinetoCollector
{
public:
    explicit KinetoCollector(TraceBuilder& builder);

    void add(const KinetoEvent& event);

    // Absolute time of ts = 0 in the file, when the file says it ("baseTimeNanoseconds" or
    // Sightline's otherData.startTimeUtcNs).
    void setTimeOrigin(int64_t utcNanoseconds) { m_timeOrigin = utcNanoseconds; }
    // The document has a top-level member only PyTorch's profiler writes.
    void noteKinetoMarker() { m_isKineto = true; }

    // Resolves owners, flows and t = 0, adds every event to the builder and records diagnostics.
    void finish();

    // After finish(), once the builder built `trace`: binds other tools' flow events to its
    // slices (generic_flows.h); what it says goes before the last `closingDiagnostics`.
    void linkFlows(Trace& trace, size_t closingDiagnostics) const
    {
        m_generic.bindFlows(trace, closingDiagnostics);
    }

    // Events taken so far that finish() will add (NVTX-style ranges go to the builder at once;
    // a generic trace's events all wait for the end): what a file cut short still keeps.
    size_t pendingEvents() const { return m_pending.size() + (m_isKineto ? 0 : m_generic.size()); }

private:
    enum class PendingKind : uint8_t { Api, Kernel, Memory, Sync, HostRange, OsCall, GpuRange };
    // A GPU range's context or stream that its file does not give (placeGpuRanges finds it).
    static constexpr uint32_t kUnplaced = UINT32_MAX;
    struct PendingEvent
    {
        Timestamp start = 0, end = 0;
        uint32_t name = 0;
        uint32_t correlation = 0;
        uint32_t a = 0, b = 0, c = 0; // host rows: pid, tid, domain; GPU rows: device, context, stream
        uint32_t detail = 0; // index into the descriptor table of its kind
        int64_t value = 0; // bytes, or an OS call's return value
        PendingKind kind = PendingKind::Api;
    };
    struct FlowPoint // pid and tid cut to 32 bits, as the model keeps them
    {
        uint64_t id = 0;
        Timestamp ts = 0;
        uint32_t pid = 0, tid = 0;
        bool isStart = false;
    };
    struct FlowCandidate // an activity or call without a correlation id, where a flow may end
    {
        Timestamp ts = 0;
        uint32_t pid = 0, tid = 0;
        uint32_t index = 0;
    };
    template <class T> struct Table
    {
        std::vector<T> values;
        std::unordered_map<T, uint32_t, DescriptorHash> ids;
        uint32_t intern(const T& value);
    };

    KinetoKind kindOf(std::string_view category);
    void addOfKind(const KinetoEvent& e, KinetoKind kind);
    bool addHostEvent(const KinetoEvent& e, KinetoKind kind);
    bool addGpuEvent(const KinetoEvent& e, KinetoKind kind);
    void addFlowPoint(const KinetoEvent& e);
    void addAsync(const KinetoEvent& e, const NvtxAttributes& attributes, StringId name);
    NvtxAttributes nvtxAttributes(const KinetoEvent& e, KinetoKind kind);
    KernelLaunch kernelLaunch(const KinetoEvent& e, StringId name);
    MemoryOp memoryOp(const KinetoEvent& e, KinetoKind kind, uint32_t device);
    DomainId domainFor(std::string_view name);
    void pushPending(const PendingEvent& event, const KinetoEvent& source, bool correlated);
    void noteMetadataEvent(const KinetoEvent& e);
    void holdGeneric(const KinetoEvent& e);

    void bindFlows();
    void placeGpuRanges();
    class OwnerResolver;
    void closeOpenAsync(Timestamp traceEnd);
    void emitAll(const OwnerResolver& owners, Timestamp base);
    void nameEntities();
    void addDiagnostics();

    TraceBuilder& m_builder;
    std::vector<PendingEvent> m_pending;
    std::vector<FlowPoint> m_flows;
    std::vector<FlowCandidate> m_uncorrelated;
    std::unordered_map<uint64_t, PendingEvent> m_openAsync; // "b" events waiting for their "e", by id
    std::vector<std::pair<uint32_t, uint32_t>> m_callOwners; // (correlation, pid) of API calls

    Table<ApiResult> m_apiResults;
    Table<KernelLaunch> m_launches;
    Table<MemoryOp> m_memoryOps;
    Table<SyncOp> m_syncOps;
    Table<NvtxAttributes> m_nvtx;

    std::unordered_map<std::string, DomainId> m_domains;
    std::string m_lastCategory;
    KinetoKind m_lastKind = KinetoKind::Unknown;

    std::map<int64_t, std::string> m_processNames;
    std::map<std::pair<int64_t, int64_t>, std::string> m_threadNames;
    std::set<std::pair<uint32_t, uint32_t>> m_hostThreads; // (pid, tid) of host tracks, from emitAll
    std::optional<int64_t> m_timeOrigin;
    uint32_t m_maxCorrelation = 0;

    GenericTraceEvents m_generic;
    bool m_isKineto = false;

    std::map<std::string, size_t> m_unknownCategories;
    std::map<char, size_t> m_unsupportedPhases;
    // What m_generic holds, counted as a Kineto trace would skip it.
    std::map<std::string, size_t> m_genericCategories;
    std::map<char, size_t> m_genericPhases;
    size_t m_unplaceable = 0; // events without numeric pid/tid or a timestamp
    size_t m_unmatchedAsyncEnds = 0;
    size_t m_closedAsync = 0;
    size_t m_flowBound = 0;
};

} // namespace sightline
