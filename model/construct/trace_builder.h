// Builds a Trace from events handed over in any order, one at a time, in row form. Used by
// the synthetic generator, the importers and the collector's launcher. build() sorts each
// track, assigns lanes (nesting depth, first-fit for free overlap), lays the columns out lane
// by lane and builds the indexes.
#pragma once

#include "model/core/events.h"
#include "model/trace/trace.h"

#include <map>
#include <set>
#include <span>
#include <unordered_map>

namespace sightline {

struct StackFrameHash
{
    size_t operator()(const StackFrame& f) const noexcept
    {
        return std::hash<uint64_t> {}(f.offset * 0x9E3779B97F4A7C15ull ^ (uint64_t(f.function.value) << 32)
            ^ f.module.value ^ (f.kernel ? 1ull << 63 : 0));
    }
};

class TraceBuilder
{
public:
    TraceBuilder();

    StringId intern(std::string_view text) { return m_trace.strings.intern(text); }
    ReportMetadata& metadata() { return m_trace.metadata; }
    const StringTable& strings() const { return m_trace.strings; }

    void addProcess(Process process);
    void addThread(Thread thread); // a later call for the same tid renames it
    void addGpu(Gpu gpu);
    void addContext(CudaContext context);
    void addStream(CudaStream stream);
    DomainId addDomain(std::string_view name); // the id of an existing domain of that name, or a new one
    void addDomain(NvtxDomain domain); // with a given id (importers, reader)
    void addDiagnostic(Diagnostic diagnostic);

    // Get-or-create the track of a row. A host track belongs to a thread; a GPU track to a
    // stream (usually Kernels, Memory or Synchronization; an Nvtx GPU track holds ranges
    // projected onto a stream, like PyTorch's gpu_user_annotation).
    TrackId hostTrack(TrackKind kind, Pid pid, Tid tid, DomainId domain = {});
    TrackId gpuTrack(TrackKind kind, Pid pid, DeviceId device, ContextId context, StreamId stream);

    void add(TrackId track, const ApiCall& e);
    void add(TrackId track, const KernelEvent& e);
    void add(TrackId track, const MemoryEvent& e);
    void add(TrackId track, const SyncEvent& e);
    void add(TrackId track, const NvtxEvent& e);
    void add(TrackId track, const OsCall& e);

    // Counter series (model/core/counters.h), kept in the order added. A timeline's starts
    // must increase strictly and its end follow the last; a series needs one value per sample
    // of its timeline. Values are rounded to the series' resolution here.
    uint32_t addCounterTimeline(CounterTimeline timeline);
    void addCounterSeries(CounterSeries series);
    // GPU memory allocations and releases, in any order (build() sorts them by time). Their
    // bytes-in-use series come from model/construct/memory_usage_series.h, which adds both.
    void addMemoryUsage(const MemoryUsageEvent& event) { m_trace.memoryUsage.push_back(event); }

    // The CPU profile (model/core/cpu_profile.h). Frames and stack nodes are interned: equal
    // frames, and equal stacks, get one id. cpuStack takes frame ids leaf first, as perf and
    // Nsight Systems list them; cpuStackChild extends a stack by one callee. Samples, states and
    // event stacks come in any order; build() sorts them and cuts a thread's states where they
    // overlap (a later state wins) and adds each process's CPU utilization series.
    uint32_t cpuFrame(const StackFrame& frame);
    uint32_t cpuStack(std::span<const uint32_t> framesLeafFirst);
    uint32_t cpuStackChild(uint32_t parent, uint32_t frame);
    void addCpuSample(const CpuSample& sample) { m_trace.cpu.samples.push_back(sample); }
    void addThreadState(const ThreadStateInterval& state) { m_trace.cpu.states.push_back(state); }
    void addEventStack(const EventStack& stack) { m_trace.cpu.eventStacks.push_back(stack); }
    void setSamplingPeriod(Timestamp period) { m_trace.cpu.samplingPeriod = period; }
    size_t cpuSampleCount() const { return m_trace.cpu.samples.size(); }

    // Bulk adding, for producers that prepare events on several threads (the collector's
    // launcher). grow() appends `count` zeroed events to a track and returns the index of the
    // first; the caller then sets them in columns(), each thread its own range, to what add()
    // would have stored (an end no earlier than its start). Descriptors get their ids from the
    // *Id() functions, called in the order add() would have met them; memory and
    // synchronisation events are named after their operation's id.
    size_t grow(TrackId track, size_t count);
    EventColumns& columns(TrackId track) { return m_trace.tracks[track.value].events; }
    uint32_t nvtxAttributesId(const NvtxAttributes& attributes)
    {
        return m_nvtxAttributes.intern(m_trace.nvtxAttributes, attributes);
    }
    uint32_t kernelLaunchId(const KernelLaunch& launch)
    {
        return m_kernelLaunches.intern(m_trace.kernelLaunches, launch);
    }
    uint32_t memoryOpId(const MemoryOp& op);
    uint32_t syncOpId(const SyncOp& op);
    StringId memoryOpName(uint32_t id) const { return m_memoryOpNames[id]; }
    StringId syncOpName(uint32_t id) const { return m_syncOpNames[id]; }

    size_t eventCount() const { return m_events; }

    // Finishes the trace: sorts and lays out every track, builds indexes. The builder is
    // left empty.
    Trace build(unsigned threads = 0);

private:
    // Interns descriptors; consecutive events usually share one, so the last id is checked
    // before the hash table.
    template <class T> struct Interner
    {
        std::unordered_map<T, uint32_t, DescriptorHash> ids;
        uint32_t last = UINT32_MAX;
        uint32_t intern(std::vector<T>& table, const T& value);
    };

    EventColumns& append(TrackId track, Timestamp start, Timestamp end, StringId name);
    void addEntitiesOf(const TrackKey& key, bool onGpu);

    Trace m_trace;
    std::map<TrackKey, TrackId> m_trackIds;
    std::set<uint32_t> m_knownPids;
    std::set<uint32_t> m_knownTids;
    std::set<std::pair<uint32_t, uint32_t>> m_knownContexts; // (device, context)
    std::set<std::tuple<uint32_t, uint32_t, uint32_t>> m_knownStreams; // (device, context, stream)
    Interner<ApiResult> m_apiResults;
    Interner<KernelLaunch> m_kernelLaunches;
    Interner<MemoryOp> m_memoryOps;
    Interner<SyncOp> m_syncOps;
    Interner<NvtxAttributes> m_nvtxAttributes;
    std::unordered_map<StackFrame, uint32_t, StackFrameHash> m_cpuFrames;
    std::unordered_map<uint64_t, uint32_t> m_cpuNodes; // (parent << 32 | frame) -> node
    std::vector<StringId> m_memoryOpNames; // per MemoryOp id
    std::vector<StringId> m_syncOpNames; // per SyncOp id
    size_t m_events = 0;
};

} // namespace sightline
