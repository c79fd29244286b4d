#include "model/export/chrome_trace_layout.h"

#include <set>

namespace sightline {
namespace {

// Sort keys keep a thread's pseudo-threads right after it, and a stream's sync row after it.
constexpr int64_t kHostSortStride = 8;
int64_t hostSortIndex(Tid tid, TrackKind kind)
{
    const int64_t offset = kind == TrackKind::CudaApi ? 0 : kind == TrackKind::Nvtx ? 1 : 2;
    return int64_t(tid.value) * kHostSortStride + offset;
}

} // namespace

ChromeTraceLayout::ChromeTraceLayout(const Trace& trace)
    : m_rows(trace.tracks.size())
{
    for (const Process& p : trace.processes)
        m_processes.push_back({p.pid.value, p.name, {}, p.pid.value});
    for (const Thread& t : trace.threads)
        if (!t.name.empty())
            addThreadOnce(t.pid.value, t.tid.value, t.name, hostSortIndex(t.tid, TrackKind::CudaApi));

    std::set<uint32_t> devices;
    std::set<std::tuple<uint32_t, uint32_t, uint32_t>> owners; // (device, pid, context)
    for (const Gpu& g : trace.gpus)
        devices.insert(g.device.value);
    for (const Track& t : trace.tracks) {
        if (!isGpuKind(t.key.kind)) continue;
        devices.insert(t.key.device.value);
        if (owners.insert({t.key.device.value, t.key.pid.value, t.key.context.value}).second)
            ++m_ownersPerDevice[t.key.device.value];
    }
    for (uint32_t device : devices) {
        const Gpu* gpu = trace.findGpu(DeviceId(device));
        m_processes.push_back({gpuPid(DeviceId(device)), "GPU " + std::to_string(device),
            gpu ? gpu->name : "", gpuPid(DeviceId(device))});
    }

    for (uint32_t i = 0; i < trace.tracks.size(); ++i) {
        if (isGpuKind(trace.tracks[i].key.kind))
            placeGpuTrack(trace, TrackId(i));
        else
            placeHostTrack(trace, TrackId(i));
    }
}

void ChromeTraceLayout::addThreadOnce(int64_t pid, int64_t tid, std::string name, int64_t sortIndex)
{
    if (m_threadIndex.try_emplace({pid, tid}, m_threads.size()).second)
        m_threads.push_back({pid, tid, std::move(name), sortIndex});
}

std::string ChromeTraceLayout::threadLabel(Pid pid, Tid tid) const
{
    if (auto it = m_threadIndex.find({pid.value, tid.value}); it != m_threadIndex.end())
        return m_threads[it->second].name;
    return "Thread " + std::to_string(tid.value);
}

void ChromeTraceLayout::placeHostTrack(const Trace& trace, TrackId id)
{
    const TrackKey& key = trace.track(id).key;
    const int64_t pid = key.pid.value;
    if (key.kind == TrackKind::CudaApi) {
        m_rows[id.value] = {pid, key.tid.value};
        return;
    }
    std::string name = threadLabel(key.pid, key.tid);
    if (key.kind == TrackKind::Nvtx) {
        name += " NVTX";
        if (key.domain.value != 0) name += " (" + std::string(trace.domainName(key.domain)) + ")";
    } else {
        name += " OS runtime";
    }
    const int64_t tid = newPseudoId();
    m_rows[id.value] = {pid, tid};
    addThreadOnce(pid, tid, std::move(name), hostSortIndex(key.tid, key.kind));
}

void ChromeTraceLayout::placeGpuTrack(const Trace& trace, TrackId id)
{
    const TrackKey& key = trace.track(id).key;
    const int64_t pid = gpuPid(key.device);

    // A stream id is only unique within one context of one process: when a device serves
    // several, rows are named with their owner, and a later owner of a taken id gets a pseudo id.
    std::string name = "Stream " + std::to_string(key.stream.value);
    if (m_ownersPerDevice[key.device.value] > 1)
        name += " (pid " + std::to_string(key.pid.value) + ", context " + std::to_string(key.context.value)
            + ")";
    const bool sync = key.kind == TrackKind::Synchronization;
    const int64_t sortIndex = int64_t(key.stream.value) * 2 + (sync ? 1 : 0);

    if (sync) {
        const int64_t tid = newPseudoId();
        m_rows[id.value] = {pid, tid};
        addThreadOnce(pid, tid, name + " synchronization", sortIndex);
        return;
    }
    // Kernels and memory operations of one stream share its row.
    const auto streamKey
        = std::make_tuple(key.device.value, key.pid.value, key.context.value, key.stream.value);
    if (auto it = m_streamRows.find(streamKey); it != m_streamRows.end()) {
        m_rows[id.value] = {pid, it->second};
        return;
    }
    const bool streamIdTaken = m_threadIndex.count({pid, int64_t(key.stream.value)}) > 0;
    const int64_t tid = streamIdTaken ? newPseudoId() : int64_t(key.stream.value);
    m_streamRows.emplace(streamKey, tid);
    m_rows[id.value] = {pid, tid};
    addThreadOnce(pid, tid, name, sortIndex);
}

} // namespace sightline
