#include "model/construct/trace_builder.h"

#include "model/common/parallel_for.h"
#include "model/derived/cpu_utilization_series.h"
#include "model/index/lane_layout.h"
#include "model/trace/event_access.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace sightline {

template <class T> uint32_t TraceBuilder::Interner<T>::intern(std::vector<T>& table, const T& value)
{
    if (last < table.size() && table[last] == value) return last;
    auto [it, inserted] = ids.try_emplace(value, uint32_t(table.size()));
    if (inserted) table.push_back(value);
    return last = it->second;
}

TraceBuilder::TraceBuilder() = default;

namespace {

// Replaces the entry `same` finds, or appends; returns true when it appended.
template <class T, class Same> bool upsert(std::vector<T>& list, T value, Same same)
{
    auto it = std::find_if(list.begin(), list.end(), same);
    if (it != list.end()) {
        *it = std::move(value);
        return false;
    }
    list.push_back(std::move(value));
    return true;
}

} // namespace

void TraceBuilder::addProcess(Process process)
{
    const Pid pid = process.pid;
    if (upsert(m_trace.processes, std::move(process), [&](const Process& p) { return p.pid == pid; }))
        m_knownPids.insert(pid.value);
}

void TraceBuilder::addThread(Thread thread)
{
    const Tid tid = thread.tid;
    if (upsert(m_trace.threads, std::move(thread), [&](const Thread& t) { return t.tid == tid; }))
        m_knownTids.insert(tid.value);
}

void TraceBuilder::addGpu(Gpu gpu)
{
    const DeviceId device = gpu.device;
    upsert(m_trace.gpus, std::move(gpu), [&](const Gpu& g) { return g.device == device; });
}

void TraceBuilder::addContext(CudaContext context)
{
    if (m_knownContexts.emplace(context.device.value, context.context.value).second)
        m_trace.contexts.push_back(context);
}

void TraceBuilder::addStream(CudaStream stream)
{
    if (m_knownStreams.emplace(stream.device.value, stream.context.value, stream.stream.value).second) {
        m_trace.streams.push_back(stream);
        return;
    }
    for (auto& s : m_trace.streams)
        if (s.device == stream.device && s.context == stream.context && s.stream == stream.stream) s = stream;
}

DomainId TraceBuilder::addDomain(std::string_view name)
{
    for (const auto& d : m_trace.domains)
        if (d.name == name) return d.id;
    uint32_t next = 1;
    for (const auto& d : m_trace.domains)
        next = std::max(next, d.id.value + 1);
    m_trace.domains.push_back({DomainId(next), std::string(name)});
    return DomainId(next);
}

void TraceBuilder::addDomain(NvtxDomain domain)
{
    for (auto& d : m_trace.domains)
        if (d.id == domain.id) {
            d = std::move(domain);
            return;
        }
    m_trace.domains.push_back(std::move(domain));
}

uint32_t TraceBuilder::addCounterTimeline(CounterTimeline timeline)
{
    m_trace.counterTimelines.push_back(std::move(timeline));
    return uint32_t(m_trace.counterTimelines.size() - 1);
}

void TraceBuilder::addCounterSeries(CounterSeries series)
{
    for (double& value : series.values)
        value = roundToResolution(value, series.resolution);
    m_trace.counterSeries.push_back(std::move(series));
}

uint32_t TraceBuilder::cpuFrame(const StackFrame& frame)
{
    auto [it, added] = m_cpuFrames.try_emplace(frame, uint32_t(m_trace.cpu.frames.size()));
    if (added) m_trace.cpu.frames.push_back(frame);
    return it->second;
}

uint32_t TraceBuilder::cpuStackChild(uint32_t parent, uint32_t frame)
{
    const uint64_t key = uint64_t(parent) << 32 | frame;
    auto [it, added] = m_cpuNodes.try_emplace(key, uint32_t(m_trace.cpu.stacks.size()));
    if (added) m_trace.cpu.stacks.push_back({parent, frame});
    return it->second;
}

uint32_t TraceBuilder::cpuStack(std::span<const uint32_t> framesLeafFirst)
{
    uint32_t node = kNoCallStack;
    for (auto frame = framesLeafFirst.rbegin(); frame != framesLeafFirst.rend(); ++frame)
        node = cpuStackChild(node, *frame);
    return node;
}

namespace {

// Sorts the CPU profile's rows by thread and time and cuts overlapping states of a thread.
void finishCpuProfile(CpuProfile& cpu)
{
    std::sort(cpu.samples.begin(), cpu.samples.end(), [](const CpuSample& a, const CpuSample& b) {
        return std::tie(a.tid, a.time) < std::tie(b.tid, b.time);
    });
    std::stable_sort(cpu.states.begin(), cpu.states.end(),
        [](const auto& a, const auto& b) { return std::tie(a.tid, a.start) < std::tie(b.tid, b.start); });
    std::vector<ThreadStateInterval> states;
    states.reserve(cpu.states.size());
    for (const ThreadStateInterval& s : cpu.states) {
        if (s.end <= s.start) continue;
        if (!states.empty() && states.back().tid == s.tid && states.back().end > s.start) {
            states.back().end = s.start;
            if (states.back().end <= states.back().start) states.pop_back();
        }
        states.push_back(s);
    }
    cpu.states = std::move(states);
    std::sort(cpu.eventStacks.begin(), cpu.eventStacks.end(), [](const EventStack& a, const EventStack& b) {
        return std::tie(a.tid, a.start) < std::tie(b.tid, b.start);
    });
}

} // namespace

void TraceBuilder::addDiagnostic(Diagnostic diagnostic)
{
    m_trace.diagnostics.push_back(std::move(diagnostic));
}

void TraceBuilder::addEntitiesOf(const TrackKey& key, bool onGpu)
{
    if (!m_knownPids.count(key.pid.value)) addProcess({key.pid, {}, {}});
    if (!onGpu) {
        if (!m_knownTids.count(key.tid.value)) addThread({key.pid, key.tid, {}});
        return;
    }
    addContext({key.pid, key.device, key.context});
    if (!m_knownStreams.count({key.device.value, key.context.value, key.stream.value}))
        addStream({key.pid, key.device, key.context, key.stream, 0, false});
}

TrackId TraceBuilder::hostTrack(TrackKind kind, Pid pid, Tid tid, DomainId domain)
{
    TrackKey key;
    key.kind = kind;
    key.pid = pid;
    key.tid = tid;
    key.domain = kind == TrackKind::Nvtx ? domain : DomainId();
    auto [it, inserted] = m_trackIds.try_emplace(key, TrackId(uint32_t(m_trace.tracks.size())));
    if (inserted) {
        m_trace.tracks.push_back({});
        m_trace.tracks.back().key = key;
        addEntitiesOf(key, false);
    }
    return it->second;
}

TrackId TraceBuilder::gpuTrack(TrackKind kind, Pid pid, DeviceId device, ContextId context, StreamId stream)
{
    TrackKey key;
    key.kind = kind;
    key.pid = pid;
    key.device = device;
    key.context = context;
    key.stream = stream;
    auto [it, inserted] = m_trackIds.try_emplace(key, TrackId(uint32_t(m_trace.tracks.size())));
    if (inserted) {
        m_trace.tracks.push_back({});
        m_trace.tracks.back().key = key;
        addEntitiesOf(key, true);
    }
    return it->second;
}

EventColumns& TraceBuilder::append(TrackId track, Timestamp start, Timestamp end, StringId name)
{
    EventColumns& ev = m_trace.tracks[track.value].events;
    ev.start.push_back(start);
    ev.end.push_back(std::max(start, end));
    ev.name.push_back(name);
    ++m_events;
    return ev;
}

size_t TraceBuilder::grow(TrackId track, size_t count)
{
    Track& t = m_trace.tracks[track.value];
    EventColumns& ev = t.events;
    const size_t first = ev.size();
    ev.resize(first + count, t.key.kind);
    m_events += count;
    return first;
}

void TraceBuilder::add(TrackId track, const ApiCall& e)
{
    auto& ev = append(track, e.start, e.end, e.name);
    ev.correlation.push_back(e.correlation);
    ev.detail.push_back(m_apiResults.intern(m_trace.apiResults, e.result));
}

void TraceBuilder::add(TrackId track, const KernelEvent& e)
{
    auto& ev = append(track, e.start, e.end, e.name);
    ev.correlation.push_back(e.correlation);
    ev.detail.push_back(kernelLaunchId(e.launch));
}

uint32_t TraceBuilder::memoryOpId(const MemoryOp& op)
{
    const uint32_t id = m_memoryOps.intern(m_trace.memoryOps, op);
    if (id == m_memoryOpNames.size()) m_memoryOpNames.push_back(intern(sightline::memoryOpName(op)));
    return id;
}

uint32_t TraceBuilder::syncOpId(const SyncOp& op)
{
    const uint32_t id = m_syncOps.intern(m_trace.syncOps, op);
    if (id == m_syncOpNames.size()) m_syncOpNames.push_back(intern(sightline::syncOpName(op)));
    return id;
}

void TraceBuilder::add(TrackId track, const MemoryEvent& e)
{
    const uint32_t op = memoryOpId(e.op);
    auto& ev = append(track, e.start, e.end, m_memoryOpNames[op]);
    ev.correlation.push_back(e.correlation);
    ev.detail.push_back(op);
    ev.value.push_back(int64_t(e.bytes));
}

void TraceBuilder::add(TrackId track, const SyncEvent& e)
{
    const uint32_t op = syncOpId(e.op);
    auto& ev = append(track, e.start, e.end, m_syncOpNames[op]);
    ev.correlation.push_back(e.correlation);
    ev.detail.push_back(op);
}

void TraceBuilder::add(TrackId track, const NvtxEvent& e)
{
    auto& ev = append(track, e.start, e.end, e.name);
    ev.detail.push_back(m_nvtxAttributes.intern(m_trace.nvtxAttributes, e.attributes));
}

void TraceBuilder::add(TrackId track, const OsCall& e)
{
    auto& ev = append(track, e.start, e.end, e.name);
    ev.value.push_back(e.returnValue);
}

Trace TraceBuilder::build(unsigned threads)
{
    Trace trace = std::move(m_trace);
    *this = TraceBuilder();

    // Tracks in key order, so equal inputs give equal traces whatever the arrival order.
    std::sort(trace.tracks.begin(), trace.tracks.end(),
        [](const Track& a, const Track& b) { return a.key < b.key; });
    parallelFor(
        trace.tracks.size(), [&](size_t i) { layOutTrack(trace.tracks[i]); }, threads);

    std::sort(trace.processes.begin(), trace.processes.end(), [](auto& a, auto& b) { return a.pid < b.pid; });
    std::sort(trace.threads.begin(), trace.threads.end(),
        [](auto& a, auto& b) { return std::pair(a.pid, a.tid) < std::pair(b.pid, b.tid); });
    std::sort(trace.gpus.begin(), trace.gpus.end(), [](auto& a, auto& b) { return a.device < b.device; });
    std::sort(trace.contexts.begin(), trace.contexts.end(),
        [](auto& a, auto& b) { return std::tuple(a.device, a.context) < std::tuple(b.device, b.context); });
    std::sort(trace.streams.begin(), trace.streams.end(), [](auto& a, auto& b) {
        return std::tuple(a.device, a.context, a.stream) < std::tuple(b.device, b.context, b.stream);
    });
    std::sort(trace.domains.begin(), trace.domains.end(), [](auto& a, auto& b) { return a.id < b.id; });
    // By time, then by every field, so that equal inputs give equal traces.
    std::sort(trace.memoryUsage.begin(), trace.memoryUsage.end(), [](const auto& a, const auto& b) {
        auto key = [](const MemoryUsageEvent& e) {
            return std::tuple(
                e.time, e.pid, e.device, e.release, e.address, e.bytes, e.context, e.kind, e.correlation);
        };
        return key(a) < key(b);
    });
    finishCpuProfile(trace.cpu);
    addCpuUtilizationSeries(trace);

    trace.buildIndexes(threads);
    return trace;
}

} // namespace sightline
