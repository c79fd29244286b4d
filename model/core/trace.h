// A loaded report: metadata, entities, interned strings and descriptors, and one Track per
// timeline row, plus the indexes built once after loading (level of detail per lane, interval
// indexes for freely overlapping rows, correlation). Producers fill a Trace through the
// TraceBuilder or the report reader and then call buildIndexes(); after that it is read-only
// and safe to query from several threads.
#pragma once

#include "descriptors.h"
#include "entities.h"
#include "metadata.h"
#include "string_table.h"
#include "track.h"

#include "../index/correlation_index.h"
#include "../index/interval_index.h"
#include "../index/lod.h"

#include <vector>

namespace sightline {

struct TrackIndex
{
    std::vector<LaneLod> lanes;  // one per lane
    IntervalIndex overlap;       // only for tracks that are not nested
};

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
    std::vector<Diagnostic> diagnostics;

    // Derived by buildIndexes().
    std::vector<TrackIndex> indexes;   // parallel to tracks
    CorrelationIndex correlation;
    TimeRange span;                    // from the earliest start to the latest end

    // Builds every index, spreading tracks over `threads` workers (0: all cores).
    void buildIndexes(unsigned workerCount = 0);

    const Track& track(TrackId id) const { return tracks[id.value]; }
    size_t eventCount() const;
    size_t eventCount(TrackKind kind) const;
    // Bytes held by the trace in memory, indexes included.
    size_t residentBytes() const;

    const Thread* findThread(Tid tid) const;
    const Process* findProcess(Pid pid) const;
    const Gpu* findGpu(DeviceId device) const;
    std::string_view domainName(DomainId id) const;  // "" for the default domain
};

} // namespace sightline
