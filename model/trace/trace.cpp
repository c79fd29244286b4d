#include "model/trace/trace.h"

#include "model/common/parallel_for.h"
#include "model/index/lane_query.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace sightline {
namespace {

void buildLaneLods(const Track& track, std::vector<LaneLod>& lanes)
{
    lanes.resize(track.laneCount());
    for (uint32_t l = 0; l < track.laneCount(); ++l)
        lanes[l].build(track, track.lane(l));
}

} // namespace

void Trace::buildIndexes(unsigned workerCount)
{
    m_laneLods.assign(tracks.size(), {});

    // Largest tracks first, so workers stay balanced.
    std::vector<uint32_t> order(tracks.size());
    for (uint32_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(),
        [&](uint32_t a, uint32_t b) { return tracks[a].size() > tracks[b].size(); });
    parallelFor(
        order.size(), [&](size_t i) { buildLaneLods(tracks[order[i]], m_laneLods[order[i]]); }, workerCount);

    m_counterLods.assign(counterSeries.size(), {});
    parallelFor(
        counterSeries.size(),
        [&](size_t i) { m_counterLods[i].build(timelineOf(counterSeries[i]), counterSeries[i].values); },
        workerCount);

    correlation.build(*this);
    cpu.buildIndex();
    indexFlows();

    span = dataSpan().value_or(TimeRange {});
}

void Trace::setFlows(std::vector<FlowLink> links)
{
    flows = std::move(links);
    indexFlows();
}

void Trace::indexFlows()
{
    std::sort(flows.begin(), flows.end());
    m_flowsByTo.resize(flows.size());
    for (uint32_t i = 0; i < m_flowsByTo.size(); ++i)
        m_flowsByTo[i] = i;
    std::sort(m_flowsByTo.begin(), m_flowsByTo.end(), [&](uint32_t a, uint32_t b) {
        return std::pair(flows[a].to, flows[a].from) < std::pair(flows[b].to, flows[b].from);
    });
}

std::vector<EventRef> Trace::flowPartners(EventRef e) const
{
    std::vector<EventRef> partners;
    const auto into = std::partition_point(
        m_flowsByTo.begin(), m_flowsByTo.end(), [&](uint32_t i) { return flows[i].to < e; });
    for (auto it = into; it != m_flowsByTo.end() && flows[*it].to == e; ++it)
        partners.push_back(flows[*it].from);
    const auto from = std::partition_point(
        flows.begin(), flows.end(), [&](const FlowLink& link) { return link.from < e; });
    for (auto it = from; it != flows.end() && it->from == e; ++it)
        partners.push_back(it->to);
    return partners;
}

std::optional<TimeRange> Trace::dataSpan() const
{
    std::optional<TimeRange> all;
    for (const CounterTimeline& timeline : counterTimelines)
        if (!timeline.starts.empty()) widen(all, {timeline.starts.front(), timeline.end});
    for (const Track& t : tracks)
        if (const std::optional<TimeRange> trackRange = trackSpan(t)) widen(all, *trackRange);
    return all;
}

void Trace::setDerivedTracks(std::vector<Track> derived, unsigned workerCount)
{
    m_derivedTracks = std::move(derived);
    m_derivedLods.assign(m_derivedTracks.size(), {});
    parallelFor(
        m_derivedTracks.size(), [&](size_t i) { buildLaneLods(m_derivedTracks[i], m_derivedLods[i]); },
        workerCount);
}

void Trace::setSource(SourceId source)
{
    for (Track& track : tracks)
        track.key.source = source;
    for (Track& track : m_derivedTracks)
        track.key.source = source;
    for (Process& process : processes)
        process.source = source;
    for (Gpu& gpu : gpus)
        gpu.source = source;
}

const std::vector<LaneLod>* Trace::lodsOf(TrackId track) const
{
    if (track.value < tracks.size())
        return track.value < m_laneLods.size() ? &m_laneLods[track.value] : nullptr;
    const size_t derived = track.value - tracks.size();
    return derived < m_derivedLods.size() ? &m_derivedLods[derived] : nullptr;
}

IndexRange Trace::windowEvents(TrackId track, uint32_t lane, TimeRange window) const
{
    return laneWindow(this->track(track), lane, window);
}

IndexRange Trace::eventsStartingIn(TrackId track, uint32_t lane, const std::optional<TimeRange>& range) const
{
    return laneStartingIn(this->track(track), lane, range);
}

IndexRange Trace::eventsContainedIn(TrackId track, uint32_t lane, TimeRange range) const
{
    const Track& t = this->track(track);
    const IndexRange all = t.lane(lane);
    const uint32_t first = firstStartingAtOrAfter(t, all, range.start);
    // Ends are sorted within a lane too: the events ending by range.end form a prefix.
    const uint32_t last = firstEndingAfter(t, all, std::max(range.end, range.start + 1));
    return {first, std::max(first, last)};
}

CounterSummary Trace::counterSummary(uint32_t series, TimeRange range) const
{
    if (series >= m_counterLods.size()) return {};
    const CounterSeries& s = counterSeries[series];
    return m_counterLods[series].summarize(timelineOf(s), s.values, range);
}

void Trace::counterLod(uint32_t series, TimeRange window, std::span<CounterSummary> out) const
{
    if (series >= m_counterLods.size()) return;
    const CounterSeries& s = counterSeries[series];
    m_counterLods[series].query(timelineOf(s), s.values, window, out);
}

void Trace::laneLod(TrackId track, uint32_t lane, TimeRange window, std::span<LodColumn> out) const
{
    const std::vector<LaneLod>* lods = lodsOf(track);
    if (!lods || lane >= lods->size()) return;
    const Track& t = this->track(track);
    (*lods)[lane].query(t, t.lane(lane), window, out);
}

void Trace::trackLod(TrackId track, TimeRange window, std::span<LodColumn> out) const
{
    const std::vector<LaneLod>* lods = lodsOf(track);
    if (!lods || lods->empty()) return;
    queryTrackLod(this->track(track), *lods, window, out);
}

size_t Trace::eventCount() const
{
    size_t n = 0;
    for (const auto& t : tracks)
        n += t.size();
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
    bytes += tracks.capacity() * sizeof(Track) + m_laneLods.capacity() * sizeof(std::vector<LaneLod>);
    for (const auto& t : tracks)
        bytes += t.events.residentBytes() + t.laneBegin.capacity() * sizeof(uint32_t);
    for (const auto& t : m_derivedTracks)
        bytes += sizeof(Track) + t.events.residentBytes() + t.laneBegin.capacity() * sizeof(uint32_t);
    for (const auto* lods : {&m_laneLods, &m_derivedLods})
        for (const auto& lanes : *lods) {
            bytes += lanes.capacity() * sizeof(LaneLod);
            for (const auto& lane : lanes)
                bytes += lane.residentBytes();
        }
    bytes += correlation.residentBytes();
    bytes += flows.capacity() * sizeof(FlowLink) + m_flowsByTo.capacity() * sizeof(uint32_t);
    bytes += kernelLaunches.capacity() * sizeof(KernelLaunch) + memoryOps.capacity() * sizeof(MemoryOp)
        + syncOps.capacity() * sizeof(SyncOp) + nvtxAttributes.capacity() * sizeof(NvtxAttributes)
        + apiResults.capacity() * sizeof(ApiResult);
    for (const CounterTimeline& timeline : counterTimelines)
        bytes += sizeof(CounterTimeline) + timeline.starts.capacity() * sizeof(Timestamp);
    for (const CounterSeries& series : counterSeries)
        bytes += sizeof(CounterSeries) + series.values.capacity() * sizeof(double);
    for (const CounterLod& lod : m_counterLods)
        bytes += sizeof(CounterLod) + lod.residentBytes();
    bytes += memoryUsage.capacity() * sizeof(MemoryUsageEvent);
    return bytes;
}

const Thread* Trace::findThread(Tid tid) const
{
    auto it = std::find_if(threads.begin(), threads.end(), [&](const Thread& t) { return t.tid == tid; });
    return it == threads.end() ? nullptr : &*it;
}

const Process* Trace::findProcess(Pid pid) const
{
    auto it
        = std::find_if(processes.begin(), processes.end(), [&](const Process& p) { return p.pid == pid; });
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
