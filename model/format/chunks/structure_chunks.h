// The small chunks of a .rep file, read in file order before any batch: header, strings,
// entities, descriptors and diagnostics go straight into a Trace; the track list, the counter
// definitions and the CPU stacks go to the caller, which either prepares to decode batches
// (report_reader.cpp) or only outlines the report (report_outline.h). Every chunk is checked
// (checksum, version) before use. readBatches decodes the batches of one kind on all cores.
#pragma once

#include "model/common/parallel_for.h"
#include "model/common/result.h"
#include "model/format/frame_index.h"
#include "model/format/report.pb.h"
#include "model/trace/trace.h"

#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <string>

namespace sightline::rep {

// Batches follow the structure and are decoded apart from it.
bool isBatch(ChunkKind kind);

// The tracks a track list describes, without events. Fails (naming the chunk at `offset` of
// `path`) when a track's lanes claim more than the 32-bit event indexes hold; the lane sizes are
// checked against the file by each reader.
Result<std::vector<Track>> tracksFromChunk(const Tracks& chunk, const std::string& path, uint64_t offset);

// The spans a 1.1 report stores: the whole trace's (as a full read computes it) in its track
// list, and each counter timeline's. None for an empty one, an older report (which stores no
// spans) or a reversed span.
std::optional<TimeRange> storedSpan(const Tracks& tracks, uint16_t formatMinor);
std::optional<TimeRange> storedSpan(const CounterTimelineInfo& t, uint16_t formatMinor);

// Flow links (model/core/flows.h) in their chunk. Reading checks every link against the
// tracks and strings already read: a link to an event that does not exist is damage.
void toProto(const std::vector<FlowLink>& links, FlowLinks& out);
Result<std::vector<FlowLink>> flowsFromProto(
    const FlowLinks& chunk, const Trace& trace, const std::string& path, uint64_t offset);

// GPU memory allocations and releases (model/core/memory_usage.h) in their chunk. Reading
// checks that the columns agree in length, that times never go back and that every kind is
// known: anything else is damage.
void toProto(const std::vector<MemoryUsageEvent>& events, MemoryUsageEvents& out);
Result<std::vector<MemoryUsageEvent>> memoryUsageFromProto(
    const MemoryUsageEvents& chunk, const std::string& path, uint64_t offset);

// Whether `events` claimed in `lanes` lanes of `tracks` tracks fit `rawBytes` of their batches:
// each event takes at least a byte in each of its start, duration and name columns, and a lane
// that holds none is at most one per track. Checked before anything is allocated for them.
bool claimsFit(uint64_t events, uint64_t lanes, uint64_t tracks, uint64_t rawBytes);

struct StructureRead
{
    size_t skippedChunks = 0; // of kinds newer than this build
};

// Reads every structure chunk of `index` into `trace` (header, strings, entities, descriptors,
// diagnostics) and hands the track list, counter definitions, CPU stacks, flows, memory usage
// and the overview's descriptors to `visit` with their frame; frames whose header indexFrames left
// unread are skipped. Fails with one sentence on a damaged chunk, a newer major version, a missing
// header, or the first failure `visit` returns.
Result<StructureRead> readStructureChunks(std::span<const unsigned char> file, const FrameIndex& index,
    const std::string& path, Trace& trace, const std::function<Status(const Chunk&, const FrameRef&)>& visit);

// Decodes every batch of `kind` on `threads` workers (0: all cores) with `decode(chunk,
// frameOffset) -> Status`, each worker with its own scratch buffer and chunk. Fails with the
// first failure: a batch that fails its checksum (named by `what`, e.g. "a counter batch") or
// one `decode` returns.
template <class Decode>
Status readBatches(std::span<const unsigned char> file, const FrameIndex& index, const std::string& path,
    ChunkKind kind, const std::string& what, unsigned threads, Decode decode)
{
    std::vector<const FrameRef*> batches;
    for (const FrameRef& frame : index.frames)
        if (frame.header.kind == kind) batches.push_back(&frame);
    std::mutex errorMutex;
    std::string firstError;
    parallelFor(
        batches.size(),
        [&, scratch = std::string(), chunk = Chunk()](size_t i) mutable {
            const FrameRef& frame = *batches[i];
            const Status decoded = !decompress(framePayload(file, frame), frame.header.rawSize, scratch)
                    || !chunk.ParseFromString(scratch) || uint32_t(chunk.body_case()) != uint32_t(kind)
                ? Status::failure(damagedReport(path, frame.offset, what + " fails its checksum"))
                : decode(chunk, frame.offset);
            if (decoded) return true;
            std::lock_guard lock(errorMutex);
            if (firstError.empty()) firstError = decoded.error();
            return false;
        },
        threads);
    return firstError.empty() ? Status() : Status::failure(firstError);
}

} // namespace sightline::rep
