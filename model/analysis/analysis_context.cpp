#include "model/analysis/analysis_context.h"

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

namespace {

Intervals merged(std::vector<Interval> intervals)
{
    std::sort(intervals.begin(), intervals.end(),
        [](const Interval& a, const Interval& b) { return a.start < b.start; });
    Intervals out;
    for (const Interval& i : intervals) {
        if (i.end <= i.start) continue;
        if (!out.empty() && i.start <= out.back().end)
            out.back().end = std::max(out.back().end, i.end);
        else
            out.push_back(i);
    }
    return out;
}

// The first interval ending after `t`.
Intervals::const_iterator firstEndingAfter(const Intervals& intervals, Timestamp t)
{
    return std::upper_bound(intervals.begin(), intervals.end(), t,
        [](Timestamp value, const Interval& i) { return value < i.end; });
}

} // namespace

Duration coveredTime(const Intervals& intervals, TimeRange range)
{
    Duration covered = 0;
    for (auto it = firstEndingAfter(intervals, range.start); it != intervals.end() && it->start < range.end;
         ++it)
        covered += std::min(it->end, range.end) - std::max(it->start, range.start);
    return covered;
}

Intervals gapsWithin(const Intervals& intervals, TimeRange range)
{
    Intervals gaps;
    Timestamp cursor = range.start;
    for (auto it = firstEndingAfter(intervals, range.start); it != intervals.end() && it->start < range.end;
         ++it) {
        if (it->start > cursor) gaps.push_back({cursor, it->start});
        cursor = std::max(cursor, it->end);
    }
    if (cursor < range.end) gaps.push_back({cursor, range.end});
    return gaps;
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
    collectGpuActivity();
}

CallRole AnalysisContext::callRole(TrackId track, uint32_t index) const
{
    const StringId name = trace.track(track).events.name[index];
    if (name.value >= m_roleOfName.size()) return roleOfCall(text(name));
    return m_roleOfName[name.value];
}

std::optional<EventRef> AnalysisContext::launchingCall(EventRef gpuOperation) const
{
    return trace.correlation.launchingCall(trace, gpuOperation);
}

void AnalysisContext::hostTime(TrackId apiTrack, TimeRange range, Duration (&byClass)[4]) const
{
    const Track& track = trace.track(apiTrack);
    if (track.laneCount() == 0) return;
    const IndexRange calls = trace.windowEvents(apiTrack, 0, range);
    for (uint32_t i = calls.begin; i < calls.end; ++i) {
        const Duration inside
            = std::min(track.events.end[i], range.end) - std::max(track.events.start[i], range.start);
        if (inside > 0) byClass[size_t(callRole(apiTrack, i))] += inside;
    }
}

void AnalysisContext::collectGpuActivity()
{
    // The class of every name the API tracks use, looked up once.
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

    struct Collected
    {
        std::vector<Interval> compute, communication, memory;
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
            for (uint32_t i = 0; i < track.size(); ++i) {
                const Timestamp start = track.events.start[i];
                if (!inScope(start)) continue;
                const Interval interval {start, std::min(track.events.end[i], scope.end)};
                ++count;
                if (kind == TrackKind::Memory) {
                    c.memory.push_back(interval);
                    continue;
                }
                const uint32_t name = track.events.name[i].value;
                if (name >= communicationName.size()) communicationName.resize(name + 1, -1);
                if (communicationName[name] < 0)
                    communicationName[name] = isCommunicationKernel(text(StringId(name))) ? 1 : 0;
                (communicationName[name] ? c.communication : c.compute).push_back(interval);
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
        std::vector<Interval> all;
        all.reserve(c.compute.size() + c.communication.size() + c.memory.size());
        all.insert(all.end(), c.compute.begin(), c.compute.end());
        all.insert(all.end(), c.communication.begin(), c.communication.end());
        all.insert(all.end(), c.memory.begin(), c.memory.end());
        gpu.busy = merged(all);
        all.resize(c.compute.size() + c.communication.size());
        gpu.kernels = merged(std::move(all));
        gpu.compute = merged(std::move(c.compute));
        gpu.communication = merged(std::move(c.communication));
        gpu.memory = merged(std::move(c.memory));
        gpu.active = {gpu.busy.front().start, gpu.busy.back().end};

        // The launching thread: in the process with most operations on this GPU, the thread
        // with the most launch calls in the scope.
        const auto topPid
            = std::max_element(c.opsByPid.begin(), c.opsByPid.end(), [](const auto& a, const auto& b) {
                  return a.second < b.second;
              })->first;
        size_t mostLaunches = 0;
        for (TrackId id : tracksOf(TrackKind::CudaApi)) {
            const Track& track = trace.track(id);
            if (track.key.pid.value != topPid || track.laneCount() == 0) continue;
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
        m_gpus.push_back(std::move(gpu));
    }
    std::sort(m_gpus.begin(), m_gpus.end(), [](const GpuActivity& a, const GpuActivity& b) {
        const Duration busyA = coveredTime(a.busy, a.active), busyB = coveredTime(b.busy, b.active);
        return busyA != busyB ? busyA > busyB : a.device < b.device;
    });
}

} // namespace sightline
