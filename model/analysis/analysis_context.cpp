#include "model/analysis/analysis_context.h"

#include "model/common/parallel_for.h"

#include <algorithm>
#include <map>

namespace sightline {

CallRole roleOfCall(std::string_view name)
{
    if (name.find("Synchronize") != std::string_view::npos) return CallRole::Synchronization;
    if (name.find("Launch") != std::string_view::npos) return CallRole::Launch;
    if (name.find("Memcpy") != std::string_view::npos || name.find("Memset") != std::string_view::npos)
        return CallRole::Memory;
    return CallRole::Other;
}

bool isAsyncApi(std::string_view name)
{
    return name.find("Async") != std::string_view::npos;
}

bool isCommunicationKernel(std::string_view name)
{
    return name.find("nccl") != std::string_view::npos || name.find("nvshmem") != std::string_view::npos;
}

AnalysisContext::AnalysisContext(const Trace& t, const AnalysisOptions& o, const std::atomic<bool>* cancel)
    : trace(t)
    , options(o)
    , scope(o.range.value_or(t.span))
    , m_cancel(cancel)
    , m_tracks(kTrackKindCount)
{
    for (size_t i = 0; i < trace.tracks.size(); ++i)
        m_tracks[size_t(trace.tracks[i].key.kind)].push_back(TrackId(uint32_t(i)));
    classifyCallNames();
    // Two independent passes over the trace, on two cores.
    parallelFor(2, [&](size_t i) {
        if (i == 0)
            m_launches.build(trace, tracksOf(TrackKind::CudaApi));
        else
            collectGpuActivity();
    });
}

CallRole AnalysisContext::callRole(TrackId track, uint32_t index) const
{
    const StringId name = trace.track(track).events.name[index];
    if (name.value >= m_roleOfName.size()) return roleOfCall(text(name));
    return m_roleOfName[name.value];
}

std::optional<EventRef> AnalysisContext::launchingCall(EventRef gpuOperation) const
{
    const Track& track = trace.track(gpuOperation.track);
    if (track.events.correlation.empty()) return std::nullopt;
    return m_launches.find(track.key.pid, track.events.correlation[gpuOperation.index]);
}

const std::vector<LaunchedKernel>& AnalysisContext::launchedKernels() const
{
    if (m_launchedKernels) return *m_launchedKernels;
    std::vector<LaunchedKernel> out;
    for (TrackId id : tracksOf(TrackKind::Kernels)) {
        const Track& track = trace.track(id);
        for (uint32_t i = 0; i < track.size(); ++i) {
            if (!inScope(track.events.start[i])) continue;
            const std::optional<EventRef> call = launchingCall({id, i});
            if (!call) continue;
            const Track& api = trace.track(call->track);
            out.push_back({{id, i}, {track.events.start[i], track.events.end[i]},
                {api.events.start[call->index], api.events.end[call->index]},
                trace.kernelLaunches[track.events.detail[i]].shortName});
        }
    }
    m_launchedKernels = std::move(out);
    return *m_launchedKernels;
}

void AnalysisContext::hostTime(TrackId apiTrack, TimeRange range, Duration (&byRole)[kCallRoleCount]) const
{
    const Track& track = trace.track(apiTrack);
    if (track.laneCount() == 0) return;
    const IndexRange calls = trace.windowEvents(apiTrack, 0, range);
    for (uint32_t i = calls.begin; i < calls.end; ++i) {
        const Duration inside
            = std::min(track.events.end[i], range.end) - std::max(track.events.start[i], range.start);
        if (inside > 0) byRole[size_t(callRole(apiTrack, i))] += inside;
    }
}

void AnalysisContext::hostTime(
    TrackId apiTrack, const Intervals& ranges, Duration (&byRole)[kCallRoleCount]) const
{
    const Track& track = trace.track(apiTrack);
    if (track.laneCount() == 0 || ranges.empty()) return;
    // Lane 0's calls are sorted and disjoint, like the ranges: one pass over both.
    const IndexRange calls = trace.windowEvents(apiTrack, 0, {ranges.front().start, ranges.back().end});
    uint32_t first = calls.begin;
    for (const Interval& range : ranges) {
        while (first < calls.end && track.events.end[first] <= range.start)
            ++first;
        for (uint32_t i = first; i < calls.end && track.events.start[i] < range.end; ++i) {
            const Duration inside
                = std::min(track.events.end[i], range.end) - std::max(track.events.start[i], range.start);
            if (inside > 0) byRole[size_t(callRole(apiTrack, i))] += inside;
        }
    }
}

void AnalysisContext::classifyCallNames()
{
    std::vector<bool> used;
    for (TrackId id : tracksOf(TrackKind::CudaApi)) {
        for (StringId name : trace.track(id).events.name) {
            if (name.value >= used.size()) used.resize(name.value + 1, false);
            used[name.value] = true;
        }
    }
    m_roleOfName.assign(used.size(), CallRole::Other);
    for (size_t s = 0; s < used.size(); ++s)
        if (used[s]) m_roleOfName[s] = roleOfCall(trace.strings[StringId(uint32_t(s))]);
}

// The launching thread of a GPU: in the process with most operations on it, the thread with
// the most launch calls in the scope.
void AnalysisContext::chooseLaunchingThread(GpuActivity& gpu, uint32_t pid) const
{
    size_t mostLaunches = 0;
    for (TrackId id : tracksOf(TrackKind::CudaApi)) {
        const Track& track = trace.track(id);
        if (track.key.pid.value != pid || track.laneCount() == 0) continue;
        size_t launches = 0;
        const IndexRange calls = trace.eventsStartingIn(id, 0, scope);
        for (uint32_t i = calls.begin; i < calls.end; ++i)
            launches += callRole(id, i) == CallRole::Launch ? 1 : 0;
        if (!gpu.hasLaunchingThread || launches > mostLaunches) {
            mostLaunches = launches;
            gpu.launchingApiTrack = id;
            gpu.hasLaunchingThread = true;
        }
    }
}

void AnalysisContext::collectGpuActivity()
{
    // Per device and kind of work, the intervals in runs (one per lane, each sorted by start).
    struct Runs
    {
        std::vector<Interval> values;
        std::vector<size_t> starts;
        void beginRun()
        {
            if (starts.empty() || starts.back() != values.size()) starts.push_back(values.size());
        }
    };
    struct Collected
    {
        Runs compute, communication, memory;
        size_t kernels = 0, memoryOps = 0;
        std::map<uint32_t, size_t> opsByPid;
    };
    std::map<uint32_t, Collected> byDevice;
    std::vector<int8_t> communicationName; // by StringId: -1 unknown, 0 no, 1 yes
    for (TrackKind kind : {TrackKind::Kernels, TrackKind::Memory}) {
        for (TrackId id : tracksOf(kind)) {
            const Track& track = trace.track(id);
            Collected& c = byDevice[track.key.device.value];
            size_t count = 0;
            for (uint32_t lane = 0; lane < track.laneCount(); ++lane) {
                c.compute.beginRun(), c.communication.beginRun(), c.memory.beginRun();
                const IndexRange events = trace.eventsStartingIn(id, lane, scope);
                count += events.size();
                for (uint32_t i = events.begin; i < events.end; ++i) {
                    const Interval interval {track.events.start[i], std::min(track.events.end[i], scope.end)};
                    if (kind == TrackKind::Memory) {
                        c.memory.values.push_back(interval);
                        continue;
                    }
                    const uint32_t name = track.events.name[i].value;
                    if (name >= communicationName.size()) communicationName.resize(name + 1, -1);
                    if (communicationName[name] < 0)
                        communicationName[name] = isCommunicationKernel(text(StringId(name))) ? 1 : 0;
                    (communicationName[name] ? c.communication : c.compute).values.push_back(interval);
                }
            }
            (kind == TrackKind::Kernels ? c.kernels : c.memoryOps) += count;
            c.opsByPid[track.key.pid.value] += count;
        }
    }

    for (auto& [device, c] : byDevice) {
        if (c.kernels + c.memoryOps == 0) continue;
        GpuActivity gpu;
        gpu.device = DeviceId(device);
        gpu.kernelCount = c.kernels;
        gpu.memoryOpCount = c.memoryOps;
        Intervals compute = mergeRuns(std::move(c.compute.values), std::move(c.compute.starts));
        gpu.communication = mergeRuns(std::move(c.communication.values), std::move(c.communication.starts));
        gpu.memory = mergeRuns(std::move(c.memory.values), std::move(c.memory.starts));
        Intervals kernels = unionOf(compute, gpu.communication);
        gpu.busy = IntervalSet(unionOf(kernels, gpu.memory));
        gpu.kernels = IntervalSet(std::move(kernels));
        gpu.compute = IntervalSet(std::move(compute));
        if (gpu.busy.empty()) continue; // only instants
        gpu.active = {gpu.busy.intervals().front().start, gpu.busy.intervals().back().end};
        const auto topPid
            = std::max_element(c.opsByPid.begin(), c.opsByPid.end(), [](const auto& a, const auto& b) {
                  return a.second < b.second;
              })->first;
        chooseLaunchingThread(gpu, topPid);
        m_gpus.push_back(std::move(gpu));
    }
    std::sort(m_gpus.begin(), m_gpus.end(), [](const GpuActivity& a, const GpuActivity& b) {
        return a.busy.total() != b.busy.total() ? a.busy.total() > b.busy.total() : a.device < b.device;
    });
}

} // namespace sightline
