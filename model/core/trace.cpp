#include "trace.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace sightline {
namespace {

void buildTrackIndex(const Track& track, TrackIndex& index)
{
    index.lanes.resize(track.laneCount());
    for (uint32_t l = 0; l < track.laneCount(); ++l) index.lanes[l].build(track, track.lane(l));
    if (!track.nested) index.overlap.build(track);
}

} // namespace

void Trace::buildIndexes(unsigned workerCount)
{
    indexes.assign(tracks.size(), {});
    if (workerCount == 0) workerCount = std::max(1u, std::thread::hardware_concurrency());

    // Largest tracks first, handed out through an atomic cursor, so workers stay balanced.
    std::vector<uint32_t> order(tracks.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return tracks[a].size() > tracks[b].size(); });
    std::atomic<size_t> next {0};
    auto work = [&] {
        for (size_t i; (i = next.fetch_add(1)) < order.size();) buildTrackIndex(tracks[order[i]], indexes[order[i]]);
    };
    std::vector<std::jthread> workers;
    for (unsigned t = 1; t < std::min<size_t>(workerCount, order.size()); ++t) workers.emplace_back(work);
    work();
    workers.clear();

    correlation.build(*this);

    span = {};
    bool any = false;
    for (const auto& t : tracks) {
        for (uint32_t l = 0; l < t.laneCount(); ++l) {
            const auto lane = t.lane(l);
            if (lane.empty()) continue;
            const Timestamp first = t.events.start[lane.begin];
            const Timestamp last = t.events.end[lane.end - 1];
            span.start = any ? std::min(span.start, first) : first;
            span.end = any ? std::max(span.end, last) : last;
            any = true;
        }
    }
}

size_t Trace::eventCount() const
{
    size_t n = 0;
    for (const auto& t : tracks) n += t.size();
    return n;
}

size_t Trace::eventCount(TrackKind kind) const
{
    size_t n = 0;
    for (const auto& t : tracks)
        if (t.key.kind == kind) n += t.size();
    return n;
}

size_t Trace::residentBytes() const
{
    size_t bytes = sizeof(Trace) + strings.residentBytes();
    bytes += tracks.capacity() * sizeof(Track) + indexes.capacity() * sizeof(TrackIndex);
    for (const auto& t : tracks) bytes += t.events.residentBytes() + t.laneBegin.capacity() * sizeof(uint32_t);
    for (const auto& idx : indexes) {
        bytes += idx.lanes.capacity() * sizeof(LaneLod) + idx.overlap.residentBytes();
        for (const auto& lane : idx.lanes) bytes += lane.residentBytes();
    }
    bytes += correlation.residentBytes();
    bytes += kernelLaunches.capacity() * sizeof(KernelLaunch) + memoryOps.capacity() * sizeof(MemoryOp)
        + syncOps.capacity() * sizeof(SyncOp) + nvtxAttributes.capacity() * sizeof(NvtxAttributes)
        + apiResults.capacity() * sizeof(ApiResult);
    return bytes;
}

const Thread* Trace::findThread(Tid tid) const
{
    auto it = std::find_if(threads.begin(), threads.end(), [&](const Thread& t) { return t.tid == tid; });
    return it == threads.end() ? nullptr : &*it;
}

const Process* Trace::findProcess(Pid pid) const
{
    auto it = std::find_if(processes.begin(), processes.end(), [&](const Process& p) { return p.pid == pid; });
    return it == processes.end() ? nullptr : &*it;
}

const Gpu* Trace::findGpu(DeviceId device) const
{
    auto it = std::find_if(gpus.begin(), gpus.end(), [&](const Gpu& g) { return g.device == device; });
    return it == gpus.end() ? nullptr : &*it;
}

std::string_view Trace::domainName(DomainId id) const
{
    auto it = std::find_if(domains.begin(), domains.end(), [&](const NvtxDomain& d) { return d.id == id; });
    return it == domains.end() ? std::string_view() : std::string_view(it->name);
}

} // namespace sightline
