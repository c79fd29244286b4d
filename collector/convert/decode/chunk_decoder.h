// Decodes one chunk of a spool file (spool_reader.h) on its own, so that the chunks of a
// recording decode on every core at once. A chunk cannot see the others, so what depends on
// them is left for the process decoder (process_capture.cpp), which joins the chunks in order:
//  - names go into the chunk's own string table (local_strings.h), interned into the report
//    afterwards, chunk by chunk;
//  - an NVTX pop is matched with the pushes of its chunk; a pop whose push came in an earlier
//    chunk stays in place as an unresolved row, and the pushes still open at the chunk's end are
//    handed on, so the rows end up in the order a single pass would have produced them;
//  - start/end ranges and the records whose meaning depends on everything before them (process
//    text, thread names, losses, diagnostics, capture control, CUDA devices, contexts,
//    streams, versions) are kept in order, to be applied after the chunks before.
#pragma once

#include "collector/convert/decode/spool_context.h"

#include <limits>
#include <unordered_set>

namespace sightline::collector {

// An NVTX start (`row` holds the range's start, name and attributes) or end (`row.end`).
struct NvtxRangeOp
{
    bool start = false;
    uint64_t rangeId = 0;
    NvtxRow row;
};

struct DecodedChunk
{
    LocalStrings strings;
    // Rows in the order they completed; names are filled in from `strings` by the process decoder.
    NvtxBatch nvtx;
    std::vector<uint32_t> unresolvedPops; // rows of `nvtx`, in order
    std::vector<uint64_t> stackKeys; // NVTX (tid, domain) stacks in the order first used
    std::vector<NvtxRow> openPushes; // still open at the end, stack by stack, oldest first
    std::vector<NvtxRangeOp> rangeOps;
    std::vector<HostEvent<OsCall>> osCalls;
    std::vector<HostEvent<ApiCall>> apiCalls;
    std::vector<GpuEvent<KernelEvent>> kernels;
    std::vector<GpuEvent<MemoryEvent>> memory;
    std::vector<GpuEvent<SyncEvent>> syncs;
    std::vector<MemoryUsageEvent> memoryUsage;
    std::vector<const spool::RecordHeader*> deferred; // records to apply in order afterwards
    std::vector<Tid> activeThreads; // threads with events in this chunk
    Timestamp lastTime = std::numeric_limits<Timestamp>::min(); // the latest host-side time seen

    void active(Tid tid)
    {
        if (tid == m_lastActive) return;
        m_lastActive = tid;
        if (m_activeSet.insert(tid.value).second) activeThreads.push_back(tid);
    }

private:
    Tid m_lastActive {~0u};
    std::unordered_set<uint32_t> m_activeSet;
};

DecodedChunk decodeChunk(const SpoolFile& file, size_t chunk, const FileTables& tables, const ClockMap& clock,
    const DecodeOptions& options);

} // namespace sightline::collector
