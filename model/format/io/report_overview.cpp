#include "model/format/report_overview.h"

#include "model/format/chunks/event_batch_decoder.h"
#include "model/format/chunks/proto_convert.h"
#include "model/format/chunks/structure_chunks.h"
#include "model/format/frame_index.h"
#include "model/format/mapped_file.h"

#include <algorithm>

namespace sightline {

namespace {

using rep::ChunkKind;

using Outcome = Result<std::optional<ReportOverview>>;

// Sizes each track's lanes from the footer's overview entries, after checking that they name
// existing lanes and claim no more stand-ins than their bytes can hold.
Status sizeOverviewLanes(Trace& trace, const rep::FrameIndex& index, const std::string& path)
{
    uint64_t claimed = 0, rawBytes = 0, lanes = 0;
    for (const rep::FrameRef& frame : index.frames)
        if (frame.header.kind == ChunkKind::Overview) {
            claimed += frame.count;
            rawBytes += frame.header.rawSize;
        }
    for (const Track& track : trace.tracks)
        lanes += track.laneCount();
    if (!rep::claimsFit(claimed, lanes, trace.tracks.size(), rawBytes))
        return Status::failure(rep::damagedReport(path, 0,
            "it claims " + std::to_string(claimed) + " overview events in " + std::to_string(lanes)
                + " lanes, more than its " + std::to_string(rawBytes) + " bytes of overview can hold"));
    std::vector<std::vector<uint64_t>> sizes(trace.tracks.size());
    for (size_t t = 0; t < trace.tracks.size(); ++t)
        sizes[t].assign(trace.tracks[t].laneCount(), 0);
    for (const rep::FrameRef& frame : index.frames) {
        if (frame.header.kind != ChunkKind::Overview) continue;
        if (frame.track >= trace.tracks.size() || frame.lane >= trace.tracks[frame.track].laneCount())
            return Status::failure(
                rep::damagedReport(path, frame.offset, "an overview batch names a lane that does not exist"));
        sizes[frame.track][frame.lane] += frame.count;
    }
    for (size_t t = 0; t < trace.tracks.size(); ++t) {
        Track& track = trace.tracks[t];
        track.laneBegin.assign(1, 0);
        for (uint64_t size : sizes[t])
            track.laneBegin.push_back(uint32_t(track.laneBegin.back() + size));
    }
    return {};
}

} // namespace

uint64_t ReportOverview::eventsStartingIn(TimeRange range) const
{
    uint64_t decoded = 0;
    for (const Batch& batch : eventBatches)
        if (rep::startsReach(batch.starts, range)) decoded += batch.count;
    return decoded;
}

uint64_t ReportOverview::trackEvents(uint32_t track) const
{
    uint64_t count = 0;
    for (const Batch& batch : eventBatches)
        if (batch.track == track) count += batch.count;
    return count;
}

namespace {

// readReportOverview without its guard against running out of memory.
Outcome readOverviewUnguarded(const std::string& path)
{
    MappedFile mapped;
    if (Status opened = mapped.open(path, MappedFile::Access::Sparse); !opened)
        return Outcome::failure(opened.error());
    const auto file = mapped.bytes();
    // Only the small chunks and the overview are read: the batches' pages stay on disk, and
    // the report's descriptors and flows (which grow with its events) are not read either.
    const Result<rep::FrameIndex> indexed = rep::indexFrames(file, path, [](ChunkKind kind) {
        return kind == ChunkKind::Overview
            || (!rep::isBatch(kind) && kind != ChunkKind::Descriptors && kind != ChunkKind::Flows);
    });
    if (!indexed) return Outcome::failure(indexed.error());
    const rep::FrameIndex& index = indexed.value();
    // A writer that stores an overview stores its descriptors first (small reports have none).
    const bool stored = std::any_of(index.frames.begin(), index.frames.end(),
        [](const rep::FrameRef& frame) { return frame.header.kind == ChunkKind::OverviewDescriptors; });
    if (index.formatMinor < 2 || !index.complete || !stored) return std::optional<ReportOverview>();

    ReportOverview overview;
    overview.fileBytes = file.size();
    Trace& trace = overview.trace;
    std::optional<TimeRange> span;
    const auto visit = [&](const rep::Chunk& chunk, const rep::FrameRef& frame) -> Status {
        if (chunk.has_overview_descriptors()) {
            if (!rep::fromProto(chunk.overview_descriptors(), trace))
                return Status::failure(
                    rep::damagedReport(path, frame.offset, "a descriptor table increment is out of order"));
            return {};
        }
        if (!chunk.has_tracks()) return {};
        Result<std::vector<Track>> tracks = rep::tracksFromChunk(chunk.tracks(), path, frame.offset);
        if (!tracks) return Status::failure(tracks.error());
        for (Track& track : tracks.value()) {
            overview.events += track.laneBegin.back();
            trace.tracks.push_back(std::move(track));
        }
        span = rep::storedSpan(chunk.tracks(), index.formatMinor);
        return {};
    };
    const Result<rep::StructureRead> read = rep::readStructureChunks(file, index, path, trace, visit);
    if (!read) return Outcome::failure(read.error());
    if (Status sized = sizeOverviewLanes(trace, index, path); !sized) return Outcome::failure(sized.error());

    EventBatchDecoder decoder(trace, path);
    decoder.allocate();
    if (Status decoded = rep::readBatches(file, index, path, ChunkKind::Overview, "an overview batch", 0,
            [&](const rep::Chunk& chunk, uint64_t offset) {
                return decoder.decode(chunk.overview(), offset);
            });
        !decoded)
        return Outcome::failure(decoded.error());
    if (Status complete = decoder.checkComplete(); !complete) return Outcome::failure(complete.error());

    for (const rep::FrameRef& frame : index.frames)
        if (frame.header.kind == ChunkKind::Events)
            overview.eventBatches.push_back({frame.starts, frame.count, frame.track});
    trace.buildIndexes();
    if (span) trace.span = *span;
    trace.storedFormat = {index.formatMajor, index.formatMinor};
    return std::optional<ReportOverview>(std::move(overview));
}

} // namespace

Result<std::optional<ReportOverview>> readReportOverview(const std::string& path)
{
    try {
        return readOverviewUnguarded(path);
    } catch (const std::bad_alloc&) {
        return Outcome::failure("Cannot open '" + path
            + "': there is not enough memory to load its overview; close other programs and try again.");
    }
}

} // namespace sightline
