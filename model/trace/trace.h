// A loaded report: metadata, entities, interned strings and descriptors, and one Track per
// timeline row, plus the indexes built once after loading (level of detail per lane,
// correlation). Producers fill a Trace through the TraceBuilder or the report reader and then
// call buildIndexes(); after that it is read-only and safe to query from several threads.
//
// The query face: views, the summary and commands ask the Trace, by track and lane, which
// events overlap a time window (windowEvents), which start in a range (eventsStartingIn) or lie
// inside it (eventsContainedIn), and
// what W pixel columns over a window show (laneLod, trackLod, about O(W + log n) each). They
// never reach into the per-lane indexes themselves. Counter series (GPU metrics) answer the
// same two questions: counterSummary over a range, counterLod per pixel column.
//
// Derived tracks: rows the model derives from the stored ones and never stores (the NVTX ranges
// projected onto the GPUs, model/derived/projected_nvtx_tracks.h, which openTrace makes when
// asked). Their ids follow the stored tracks' (TrackId(tracks.size()) on), so loops over `tracks`
// (stats, exports, the writer) never meet them, while track(), the lane queries and the levels
// of detail serve both.
#pragma once

#include "model/core/counters.h"
#include "model/core/cpu_profile.h"
#include "model/core/descriptors.h"
#include "model/core/entities.h"
#include "model/core/flows.h"
#include "model/core/memory_usage.h"
#include "model/core/metadata.h"
#include "model/core/string_table.h"
#include "model/core/track.h"
#include "model/index/counter_lod.h"
#include "model/index/lod.h"
#include "model/trace/correlation_index.h"

#include <optional>
#include <span>
#include <vector>

namespace sightline {

struct Trace
{
    ReportMetadata metadata;
    StringTable strings;

    std::vector<Process> processes;
    std::vector<Thread> threads;
    std::vector<Gpu> gpus;
    std::vector<CudaContext> contexts;
    std::vector<CudaStream> streams;
    std::vector<NvtxDomain> domains;

    // Descriptor tables, indexed by a track's `detail` column (see track.h).
    std::vector<ApiResult> apiResults;
    std::vector<KernelLaunch> kernelLaunches;
    std::vector<MemoryOp> memoryOps;
    std::vector<SyncOp> syncOps;
    std::vector<NvtxAttributes> nvtxAttributes;

    std::vector<Track> tracks;
    // Arrows between stored events (model/core/flows.h), sorted by from, then to.
    std::vector<FlowLink> flows;
    std::vector<Diagnostic> diagnostics;

    // Sampled values (model/core/counters.h): each series refers to one timeline.
    std::vector<CounterTimeline> counterTimelines;
    std::vector<CounterSeries> counterSeries;
    // GPU memory allocations and releases (model/core/memory_usage.h), by time; the GpuMemory
    // series sum them per device.
    std::vector<MemoryUsageEvent> memoryUsage;
    // CPU samples, call stacks and thread states (model/core/cpu_profile.h).
    CpuProfile cpu;

    // The .rep format version it was read from ({0, 0} when built or imported).
    struct FormatVersion
    {
        uint16_t major = 0, minor = 0;
    } storedFormat;

    // Derived by buildIndexes().
    CorrelationIndex correlation;
    TimeRange span; // from the earliest start to the latest end

    // Builds every index, spreading tracks over `threads` workers (0: all cores).
    void buildIndexes(unsigned workerCount = 0);
    // Replaces the flows (sorted here) and indexes them, for producers that bind flows to the
    // events of a trace already built (their indexes are final only then).
    void setFlows(std::vector<FlowLink> links);
    // The events linked to `e` by a flow, either way (sources first): O(log n + k).
    std::vector<EventRef> flowPartners(EventRef e) const;
    // From the earliest start to the latest end of the events and counter samples (what
    // buildIndexes sets `span` to); none when there are none.
    std::optional<TimeRange> dataSpan() const;

    const Track& track(TrackId id) const
    {
        return id.value < tracks.size() ? tracks[id.value] : m_derivedTracks[id.value - tracks.size()];
    }
    // Replaces the derived tracks (each laid out lane by lane) and builds their levels of
    // detail. Called once the stored tracks are final, before the Trace is shared.
    void setDerivedTracks(std::vector<Track> derived, unsigned workerCount = 0);
    const std::vector<Track>& derivedTracks() const { return m_derivedTracks; }
    // Names the recording every track key, process and GPU comes from (TrackKey::source),
    // derived tracks included; what opens a report calls it (model/open/source_identity.h).
    void setSource(SourceId source);
    TrackId derivedTrackId(size_t k) const { return TrackId(uint32_t(tracks.size() + k)); }
    bool isDerived(TrackId id) const { return id.value >= tracks.size() && id.value < trackCount(); }
    // Stored and derived tracks: every valid TrackId is below it.
    size_t trackCount() const { return tracks.size() + m_derivedTracks.size(); }

    // The events of lane `lane` of a track overlapping `window`, as an index range of the track.
    IndexRange windowEvents(TrackId track, uint32_t lane, TimeRange window) const;
    // The events of lane `lane` whose start lies in `range` (the whole lane without one): the
    // rule of the stats engine and of everything that must agree with it.
    IndexRange eventsStartingIn(TrackId track, uint32_t lane, const std::optional<TimeRange>& range) const;
    // The events of lane `lane` lying wholly inside [range.start, range.end] (an instant at
    // range.end included), e.g. the calls an NVTX range encloses.
    IndexRange eventsContainedIn(TrackId track, uint32_t lane, TimeRange range) const;
    // What out.size() pixel columns over `window` show of one lane (see model/index/lod.h).
    // Leaves `out` as it is when the track has no such lane or indexes were not built.
    void laneLod(TrackId track, uint32_t lane, TimeRange window, std::span<LodColumn> out) const;
    // The same for a whole track: per column the busiest lane's fraction, summed counts and
    // the longest event of any lane.
    void trackLod(TrackId track, TimeRange window, std::span<LodColumn> out) const;
    // Counter series `series` over `range`: minimum, maximum, time-weighted mean.
    CounterSummary counterSummary(uint32_t series, TimeRange range) const;
    // The same for out.size() pixel columns over `window`.
    void counterLod(uint32_t series, TimeRange window, std::span<CounterSummary> out) const;
    const CounterTimeline& timelineOf(const CounterSeries& series) const
    {
        return counterTimelines[series.timeline];
    }
    // Whether buildIndexes() has run since the tracks last changed.
    bool indexesBuilt() const
    {
        return m_laneLods.size() == tracks.size() && m_counterLods.size() == counterSeries.size();
    }

    size_t eventCount() const;
    size_t eventCount(TrackKind kind) const;
    // Bytes held by the trace in memory, indexes included.
    size_t residentBytes() const;

    const Thread* findThread(Tid tid) const;
    const Process* findProcess(Pid pid) const;
    const Gpu* findGpu(DeviceId device) const;
    std::string_view domainName(DomainId id) const; // "" for the default domain

private:
    const std::vector<LaneLod>* lodsOf(TrackId track) const;
    void indexFlows();

    std::vector<std::vector<LaneLod>> m_laneLods; // per track, one per lane (buildIndexes)
    std::vector<Track> m_derivedTracks;
    std::vector<std::vector<LaneLod>> m_derivedLods; // per derived track, one per lane
    std::vector<CounterLod> m_counterLods; // per counter series (buildIndexes)
    std::vector<uint32_t> m_flowsByTo; // indices into flows, sorted by (to, from)
};

} // namespace sightline
