#include "views/timeline/rows/row_tree.h"

#include "model/derived/projected_nvtx_tracks.h"
#include "model/events/track_labels.h"
#include "model/index/lod.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

namespace sightline::views {
namespace {

QString fromUtf8(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

QString percentLabel(double part, double whole, const QString& name)
{
    if (whole <= 0) return name;
    char text[16];
    std::snprintf(text, sizeof text, "%.1f%% ", 100.0 * part / whole);
    return QString::fromLatin1(text) + name;
}

// Time covered by the events of a track (its outermost lane for nested tracks).
double busyTime(const Trace& trace, TrackId id)
{
    const Track& track = trace.track(id);
    if (track.size() == 0 || trace.span.empty()) return 0;
    if (trace.indexesBuilt()) {
        LodColumn column;
        trace.trackLod(id, trace.span, std::span<LodColumn>(&column, 1));
        return double(column.busy) * double(trace.span.duration());
    }
    double busy = 0;
    const IndexRange lane = track.lane(0);
    for (uint32_t i = lane.begin; i < lane.end; ++i)
        busy += double(track.duration(i));
    return busy;
}

using ContextKey = std::tuple<uint32_t, uint32_t, uint32_t>; // device, pid, context
using StreamKey = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>; // + stream

struct GpuTracks
{
    std::map<ContextKey, std::map<StreamKey, std::vector<TrackId>>> contexts;
};

} // namespace

// The trace's tracks and counter series by where their rows go.
struct RowTree::Places
{
    explicit Places(const Trace& trace);
    std::map<uint32_t, GpuTracks> gpus; // device > (process, context) > stream > tracks
    std::map<uint32_t, std::map<uint32_t, std::vector<TrackId>>> hosts; // pid > tid > tracks
    std::map<uint32_t, std::vector<uint32_t>> metricsOf; // device > GPU metric series
    std::map<uint32_t, std::vector<uint32_t>> memoryOf; // device > memory in use
    std::map<uint32_t, uint32_t> cpuUsageOf; // pid > CPU utilization series
    std::map<uint32_t, std::vector<uint32_t>> processCountersOf; // pid > its own counter series
    std::set<uint32_t> cpuThreads; // threads with CPU samples or states
};

namespace {

// A counter series' row: "SMs Active [%]".
RowNode counterRow(const Trace& trace, uint32_t c)
{
    const CounterSeries& series = trace.counterSeries[c];
    RowNode row;
    row.kind = RowKind::Counter;
    row.label = series.unit.empty()
        ? fromUtf8(series.name)
        : QStringLiteral("%1 [%2]").arg(fromUtf8(series.name), fromUtf8(series.unit));
    row.counter = c;
    row.whenExpanded = row.whenCollapsed = RowContent::Counter;
    return row;
}

void sortByKind(const Trace& trace, std::vector<TrackId>& tracks)
{
    std::sort(tracks.begin(), tracks.end(),
        [&](TrackId a, TrackId b) { return trace.track(a).key < trace.track(b).key; });
}

QString gpuLabel(const Trace& trace, DeviceId device)
{
    const Gpu* gpu = trace.findGpu(device);
    const QString bus
        = gpu && !gpu->busId.empty() ? fromUtf8(gpu->busId) : QStringLiteral("GPU %1").arg(device.value);
    if (!gpu || gpu->name.empty()) return QStringLiteral("CUDA HW (%1)").arg(bus);
    return QStringLiteral("CUDA HW (%1 - %2)").arg(bus, fromUtf8(gpu->name));
}

QString processLabel(const Trace& trace, Pid pid)
{
    const Process* process = trace.findProcess(pid);
    const QString name
        = process && !process->name.empty() ? fromUtf8(process->name) : QStringLiteral("Process");
    return QStringLiteral("%1 [%2]").arg(name).arg(pid.value);
}

QString threadLabel(const Trace& trace, Tid tid)
{
    const Thread* thread = trace.findThread(tid);
    const QString name = thread && !thread->name.empty() ? fromUtf8(thread->name) : QStringLiteral("Thread");
    return QStringLiteral("%1 [%2]").arg(name).arg(tid.value);
}

// A track's row: "OS runtime libraries", "NVTX (my domain)".
QString trackRowLabel(const Trace& trace, const TrackKey& key)
{
    const QString title = QString::fromUtf8(eventKind(key.kind).rowTitle);
    const std::string_view domain
        = eventKind(key.kind).columns.domain ? trace.domainName(key.domain) : std::string_view();
    return domain.empty() ? title : QStringLiteral("%1 (%2)").arg(title, fromUtf8(domain));
}

RowKind rowKindOf(TrackKind kind)
{
    switch (kind) {
    case TrackKind::CudaApi:
        return RowKind::CudaApi;
    case TrackKind::Nvtx:
        return RowKind::Nvtx;
    case TrackKind::OsRuntime:
        return RowKind::OsRuntime;
    case TrackKind::Kernels:
        return RowKind::Kernels;
    case TrackKind::Memory:
        return RowKind::Memory;
    case TrackKind::Synchronization:
        return RowKind::Synchronization;
    }
    return RowKind::Kernels;
}

RowNode group(RowKind kind, QString label, RowContent collapsed, std::vector<TrackId> tracks, bool expanded)
{
    RowNode node;
    node.kind = kind;
    node.label = std::move(label);
    node.whenCollapsed = collapsed;
    node.tracks = std::move(tracks);
    node.expanded = expanded;
    return node;
}

RowNode leaf(RowKind kind, QString label, TrackId track)
{
    RowNode node;
    node.kind = kind;
    node.label = std::move(label);
    node.tracks = {track};
    node.whenExpanded = node.whenCollapsed = RowContent::Lanes;
    return node;
}

// What a collapsed host row summarises: the calls its threads make (CUDA API, OS runtime);
// NVTX ranges are annotations that usually cover everything, so they count only when a
// thread has nothing else.
std::vector<TrackId> hostActivity(const Trace& trace, const std::vector<TrackId>& tracks)
{
    std::vector<TrackId> calls;
    for (TrackId id : tracks)
        if (trace.track(id).key.kind != TrackKind::Nvtx) calls.push_back(id);
    return calls.empty() ? tracks : calls;
}

// Kernels and memory operations: the GPU work the summaries show (synchronization is waiting,
// ranges on a stream annotate).
std::vector<TrackId> gpuWork(const Trace& trace, const std::vector<TrackId>& tracks)
{
    std::vector<TrackId> work;
    for (TrackId id : tracks)
        if (isGpuKind(trace.track(id).key.kind) && trace.track(id).key.kind != TrackKind::Synchronization)
            work.push_back(id);
    return work;
}

// Threads with CPU samples or thread states.
std::set<uint32_t> threadsWithCpuData(const CpuProfile& cpu)
{
    std::set<uint32_t> threads;
    for (const ThreadRange& range : cpu.sampleThreads)
        threads.insert(range.tid.value);
    for (const ThreadRange& range : cpu.stateThreads)
        threads.insert(range.tid.value);
    return threads;
}

// A thread's process; a thread the trace does not list counts as a process of its own, as
// its CPU utilization series does (model/derived/cpu_utilization_series.h).
Pid pidOf(const Trace& trace, Tid tid)
{
    const Thread* thread = trace.findThread(tid);
    return thread ? thread->pid : Pid(tid.value);
}

} // namespace

void RowTree::addProjectionRows(const Trace& trace, DeviceId device, int gpuIndex)
{
    std::vector<TrackId> projected;
    for (size_t k = 0; k < trace.derivedTracks().size(); ++k) {
        const TrackId id = trace.derivedTrackId(k);
        if (isProjectedNvtxTrack(trace, id) && trace.track(id).key.device == device) projected.push_back(id);
    }
    // Several threads launching onto the GPU get a row each, named after the thread.
    for (TrackId id : projected) {
        QString label = QStringLiteral("NVTX (projected)");
        if (projected.size() > 1)
            label += QStringLiteral(" \u00b7 ") + threadLabel(trace, trace.track(id).key.tid);
        add(leaf(RowKind::NvtxProjection, label, id), gpuIndex);
    }
}

uint32_t summaryLaneCount(const Track& track)
{
    return track.nested ? std::min<uint32_t>(1, track.laneCount()) : track.laneCount();
}

int RowTree::add(RowNode node, int parent)
{
    const int index = int(m_nodes.size());
    node.parent = parent;
    node.depth = parent < 0 ? 0 : m_nodes[size_t(parent)].depth + 1;
    if (parent < 0)
        m_roots.push_back(index);
    else
        m_nodes[size_t(parent)].children.push_back(index);
    if (node.whenCollapsed == RowContent::Lanes) m_leafOfTrack[node.tracks.front().value] = index;
    m_nodes.push_back(std::move(node));
    return index;
}

RowTree::Places::Places(const Trace& trace)
{
    // GPU side, grouped device > (process, context) > stream.
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
        const TrackKey& key = trace.tracks[t].key;
        if (trace.tracks[t].size() == 0) continue;
        if (onStream(key))
            gpus[key.device.value]
                .contexts[{key.device.value, key.pid.value, key.context.value}]
                         [{key.device.value, key.pid.value, key.context.value, key.stream.value}]
                .push_back(TrackId(t));
        else
            hosts[key.pid.value][key.tid.value].push_back(TrackId(t));
    }

    // GPUs with sampled metrics but no recorded work still get their row; so do processes and
    // threads with CPU data but no events.
    for (uint32_t c = 0; c < trace.counterSeries.size(); ++c) {
        const CounterSeries& series = trace.counterSeries[c];
        switch (series.source) {
        case CounterSource::GpuMetrics:
            metricsOf[series.device.value].push_back(c);
            gpus[series.device.value];
            break;
        case CounterSource::GpuMemory:
            memoryOf[series.device.value].push_back(c);
            gpus[series.device.value];
            break;
        case CounterSource::CpuUtilization:
            cpuUsageOf[series.pid.value] = c;
            hosts[series.pid.value];
            break;
        case CounterSource::Process:
            processCountersOf[series.pid.value].push_back(c);
            hosts[series.pid.value];
            break;
        }
    }
    cpuThreads = threadsWithCpuData(trace.cpu);
    for (uint32_t tid : cpuThreads)
        hosts[pidOf(trace, Tid(tid)).value][tid];
}

RowTree RowTree::build(const Trace& trace)
{
    RowTree tree;
    tree.m_leafOfTrack.assign(trace.trackCount(), -1);
    tree.m_storedTracks = trace.tracks.size();
    Places places(trace);
    tree.addGpuRows(trace, places);
    if (!places.hosts.empty()) tree.addHostRows(trace, places);
    return tree;
}

void RowTree::addGpuRows(const Trace& trace, Places& places)
{
    const auto& metricsOf = places.metricsOf;
    const auto& memoryOf = places.memoryOf;
    for (auto& [device, gpu] : places.gpus) {
        std::vector<TrackId> deviceWork;
        for (auto& [contextKey, streams] : gpu.contexts)
            for (auto& [streamKey, tracks] : streams) {
                sortByKind(trace, tracks);
                for (TrackId id : gpuWork(trace, tracks))
                    deviceWork.push_back(id);
            }
        RowNode gpuNode = group(
            RowKind::Gpu, gpuLabel(trace, DeviceId(device)), RowContent::Utilization, deviceWork, true);
        gpuNode.whenExpanded = RowContent::Utilization;
        const auto metrics = metricsOf.find(device);
        if (metrics != metricsOf.end()) {
            // Collapsed, the GPU row shows how busy its SMs were, as Nsight Systems does.
            for (uint32_t c : metrics->second)
                if (trace.counterSeries[c].name == gpu_metric::kSmsActive) {
                    gpuNode.whenCollapsed = RowContent::Counter;
                    gpuNode.counter = c;
                }
        }
        const int gpuIndex = add(std::move(gpuNode), -1);
        addProjectionRows(trace, DeviceId(device), gpuIndex);
        if (metrics != metricsOf.end()) {
            const int metricsGroup = add(
                group(RowKind::GpuMetrics, QStringLiteral("GPU Metrics"), RowContent::Nothing, {}, true),
                gpuIndex);
            for (uint32_t c : metrics->second)
                add(counterRow(trace, c), metricsGroup);
        }
        if (const auto memory = memoryOf.find(device); memory != memoryOf.end())
            for (uint32_t c : memory->second)
                add(counterRow(trace, c), gpuIndex);
        const bool severalContexts = gpu.contexts.size() > 1;
        for (auto& [contextKey, streams] : gpu.contexts) {
            const auto [dev, pid, context] = contextKey;
            std::vector<TrackId> contextWork;
            std::vector<double> streamBusy;
            double contextBusy = 0;
            for (auto& [streamKey, tracks] : streams) {
                double busy = 0;
                for (TrackId id : gpuWork(trace, tracks)) {
                    contextWork.push_back(id);
                    busy += busyTime(trace, id);
                }
                streamBusy.push_back(busy);
                contextBusy += busy;
            }
            QString contextLabel = QStringLiteral("Context %1").arg(context);
            if (severalContexts) contextLabel += QStringLiteral(" \u00b7 ") + processLabel(trace, Pid(pid));
            RowNode allStreams = group(
                RowKind::AllStreams, QStringLiteral("[All Streams]"), RowContent::Merged, contextWork, false);
            RowNode contextNode
                = group(RowKind::Context, contextLabel, RowContent::Merged, contextWork, true);
            int contextIndex = -1;
            if (severalContexts) {
                contextIndex = add(std::move(contextNode), gpuIndex);
                add(std::move(allStreams), contextIndex);
            } else {
                add(std::move(allStreams), gpuIndex);
                contextIndex = add(std::move(contextNode), gpuIndex);
            }
            size_t s = 0;
            for (auto& [streamKey, tracks] : streams) {
                const QString name
                    = QString::fromStdString(streamName(trace, trace.track(tracks.front()).key));
                // Collapsed, a stream shows its GPU work only: one with ranges on it (PyTorch's
                // gpu_user_annotation) starts open, so they are seen.
                const bool annotated = std::any_of(tracks.begin(), tracks.end(),
                    [&](TrackId id) { return trace.track(id).key.kind == TrackKind::Nvtx; });
                const int streamIndex
                    = add(group(RowKind::Stream, percentLabel(streamBusy[s], contextBusy, name),
                              RowContent::Merged, gpuWork(trace, tracks), annotated),
                        contextIndex);
                for (TrackId id : tracks) {
                    const TrackKind kind = trace.track(id).key.kind;
                    QString label = trackRowLabel(trace, trace.track(id).key);
                    if (kind == TrackKind::Kernels || kind == TrackKind::Memory)
                        label = percentLabel(busyTime(trace, id), streamBusy[s], label);
                    add(leaf(rowKindOf(kind), label, id), streamIndex);
                }
                ++s;
            }
        }
    }
}

void RowTree::addHostRows(const Trace& trace, Places& places)
{
    auto& hosts = places.hosts;
    const auto& cpuUsageOf = places.cpuUsageOf;
    const auto& processCountersOf = places.processCountersOf;
    const auto& cpuThreads = places.cpuThreads;
    std::vector<TrackId> allHost;
    for (auto& [pid, threads] : hosts)
        for (auto& [tid, tracks] : threads)
            allHost.insert(allHost.end(), tracks.begin(), tracks.end());
    const int processesIndex
        = add(group(RowKind::Processes, QStringLiteral("Processes (%1)").arg(hosts.size()),
                  RowContent::Utilization, hostActivity(trace, allHost), true),
            -1);
    // Processes that put work on a GPU first (a torchrun launcher's ranks before the
    // launcher itself), then the others, each by pid.
    std::set<uint32_t> gpuPids;
    for (const Track& track : trace.tracks)
        if (isGpuKind(track.key.kind)) gpuPids.insert(track.key.pid.value);
    std::vector<uint32_t> processOrder;
    for (const auto& entry : hosts)
        processOrder.push_back(entry.first);
    std::stable_partition(
        processOrder.begin(), processOrder.end(), [&](uint32_t pid) { return gpuPids.contains(pid); });
    for (const uint32_t pid : processOrder) {
        auto& threads = hosts[pid];
        std::vector<TrackId> processTracks;
        for (auto& [tid, tracks] : threads)
            processTracks.insert(processTracks.end(), tracks.begin(), tracks.end());
        RowNode processNode = group(RowKind::Process, processLabel(trace, Pid(pid)), RowContent::Utilization,
            hostActivity(trace, processTracks), true);
        const auto cpuUsage = cpuUsageOf.find(pid);
        if (cpuUsage != cpuUsageOf.end()) {
            // Collapsed, the process row shows its CPU utilization, as Nsight Systems does.
            processNode.whenCollapsed = RowContent::Counter;
            processNode.counter = cpuUsage->second;
        }
        const int processIndex = add(std::move(processNode), processesIndex);
        if (cpuUsage != cpuUsageOf.end()) add(counterRow(trace, cpuUsage->second), processIndex);
        if (const auto counters = processCountersOf.find(pid); counters != processCountersOf.end())
            for (uint32_t c : counters->second)
                add(counterRow(trace, c), processIndex);
        // The main thread (tid == pid) first, then by tid.
        std::vector<uint32_t> order;
        for (auto& entry : threads)
            order.push_back(entry.first);
        std::stable_partition(order.begin(), order.end(), [pid = pid](uint32_t tid) { return tid == pid; });
        for (uint32_t tid : order) {
            std::vector<TrackId>& tracks = threads[tid];
            sortByKind(trace, tracks);
            const bool usesCuda = std::any_of(tracks.begin(), tracks.end(),
                [&](TrackId id) { return trace.track(id).key.kind != TrackKind::OsRuntime; });
            RowNode threadNode = group(RowKind::Thread, threadLabel(trace, Tid(tid)), RowContent::Utilization,
                hostActivity(trace, tracks), usesCuda);
            if (cpuThreads.count(tid)) {
                threadNode.thread = Tid(tid);
                threadNode.whenExpanded = threadNode.whenCollapsed = RowContent::ThreadCpu;
            }
            const int threadIndex = add(std::move(threadNode), processIndex);
            for (TrackId id : tracks) {
                const TrackKey& key = trace.track(id).key;
                add(leaf(rowKindOf(key.kind), trackRowLabel(trace, key), id), threadIndex);
            }
        }
    }
}

void RowTree::setExpanded(int node, bool expanded)
{
    if (node >= 0 && size_t(node) < m_nodes.size()) m_nodes[size_t(node)].expanded = expanded;
}

void RowTree::setAllExpanded(bool expanded)
{
    for (RowNode& node : m_nodes)
        if (node.isGroup()) node.expanded = expanded;
}

void RowTree::reveal(int node)
{
    for (int p = node < 0 ? -1 : m_nodes[size_t(node)].parent; p >= 0; p = m_nodes[size_t(p)].parent)
        m_nodes[size_t(p)].expanded = true;
}

bool RowTree::isShown(int node) const
{
    for (int p = m_nodes[size_t(node)].parent; p >= 0; p = m_nodes[size_t(p)].parent)
        if (!m_nodes[size_t(p)].expanded) return false;
    return true;
}

int RowTree::leafOf(TrackId track) const
{
    return track.value < m_leafOfTrack.size() ? m_leafOfTrack[track.value] : -1;
}

std::vector<TrackId> RowTree::tracksBelow(int node) const
{
    std::vector<TrackId> tracks;
    std::vector<int> pending {node};
    while (!pending.empty()) {
        const RowNode& row = m_nodes[size_t(pending.back())];
        pending.pop_back();
        for (TrackId id : row.tracks)
            if (id.value < m_storedTracks) tracks.push_back(id);
        pending.insert(pending.end(), row.children.begin(), row.children.end());
    }
    std::sort(tracks.begin(), tracks.end());
    tracks.erase(std::unique(tracks.begin(), tracks.end()), tracks.end());
    return tracks;
}

int RowTree::find(const QString& label) const
{
    for (size_t i = 0; i < m_nodes.size(); ++i)
        if (m_nodes[i].label == label) return int(i);
    return -1;
}

} // namespace sightline::views
