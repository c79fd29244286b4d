#include "model/format/paging/track_pager.h"

#include "model/common/parallel_for.h"
#include "model/format/chunks/event_batch_decoder.h"
#include "model/format/chunks/structure_chunks.h"
#include "model/format/container.h"

#include <algorithm>
#include <mutex>

namespace sightline {

namespace {

using rep::ChunkKind;

// The first failure of several workers.
class FirstError
{
public:
    void set(const std::string& error)
    {
        std::lock_guard lock(m_mutex);
        if (m_error.empty()) m_error = error;
    }
    Status status() const { return m_error.empty() ? Status() : Status::failure(m_error); }

private:
    std::mutex m_mutex;
    std::string m_error;
};

} // namespace

Result<OpenedTrack> TrackPager::open(const std::string& path, uint32_t storedTrack)
{
    using Opened = Result<OpenedTrack>;
    std::unique_ptr<TrackPager> pager(new TrackPager);
    pager->m_path = path;
    pager->m_storedTrack = storedTrack;
    // Only the structure's pages are touched now; a batch's header is read when it is decoded.
    if (Status opened = pager->m_file.open(path, MappedFile::Access::Sparse); !opened)
        return Opened::failure(opened.error());
    const auto file = pager->m_file.bytes();
    const Result<rep::FrameIndex> indexed = rep::indexFrames(file, path, [](ChunkKind kind) {
        return !rep::isBatch(kind) && kind != ChunkKind::Flows && kind != ChunkKind::OverviewDescriptors
            && kind != ChunkKind::CpuStacks && kind != ChunkKind::CounterDefinitions;
    });
    if (!indexed) return Opened::failure(indexed.error());
    const rep::FrameIndex& index = indexed.value();
    if (!index.complete)
        return Opened::failure("'" + path
            + "' was cut short (it has no index at its end), so one track cannot be read from it alone; "
              "open the report whole.");

    Trace structure;
    std::vector<Track> tracks;
    const auto visit = [&](const rep::Chunk& chunk, const rep::FrameRef& frame) -> Status {
        if (!chunk.has_tracks()) return {};
        Result<std::vector<Track>> listed = rep::tracksFromChunk(chunk.tracks(), path, frame.offset);
        if (!listed) return Status::failure(listed.error());
        tracks = std::move(listed.value());
        if (auto span = rep::storedSpan(chunk.tracks(), index.formatMinor)) structure.span = *span;
        return {};
    };
    if (const auto read = rep::readStructureChunks(file, index, path, structure, visit); !read)
        return Opened::failure(read.error());
    if (storedTrack >= tracks.size())
        return Opened::failure("'" + path + "' has no track " + std::to_string(storedTrack) + " (it has "
            + std::to_string(tracks.size()) + "); open it again to see its tracks.");
    structure.tracks.push_back(std::move(tracks[storedTrack]));
    structure.storedFormat = {index.formatMajor, index.formatMinor};
    // Only the descriptor table of the track's own kind stays: the others grow with the report
    // (a 1B-event report's memory operations take hundreds of MB) and this track's events never
    // refer to them.
    const TrackKind kind = structure.tracks.front().key.kind;
    const auto drop = [](auto& table) { std::remove_reference_t<decltype(table)>().swap(table); };
    if (kind != TrackKind::CudaApi) drop(structure.apiResults);
    if (kind != TrackKind::Kernels) drop(structure.kernelLaunches);
    if (kind != TrackKind::Memory) drop(structure.memoryOps);
    if (kind != TrackKind::Synchronization) drop(structure.syncOps);
    if (kind != TrackKind::Nvtx) drop(structure.nvtxAttributes);

    pager->m_track = structure.tracks.front();
    const EventIdLimits limits = eventIdLimits(structure, kind);
    pager->m_strings = limits.strings;
    pager->m_descriptors = limits.descriptors;

    // The track's batches must cover its events exactly, each inside its lane.
    const Track& track = pager->m_track;
    for (const rep::FrameRef& frame : index.frames)
        if (frame.header.kind == ChunkKind::Events && frame.track == storedTrack)
            pager->m_batches.push_back(frame);
    std::sort(pager->m_batches.begin(), pager->m_batches.end(),
        [](const rep::FrameRef& a, const rep::FrameRef& b) { return a.firstIndex < b.firstIndex; });
    uint64_t next = 0;
    for (const rep::FrameRef& frame : pager->m_batches) {
        const bool inLane = frame.lane < track.laneCount() && frame.firstIndex >= track.lane(frame.lane).begin
            && uint64_t(frame.firstIndex) + frame.count <= track.lane(frame.lane).end;
        if (frame.firstIndex != next || frame.count == 0 || !inLane)
            return Opened::failure(
                rep::damagedReport(path, frame.offset, "its index places an event batch outside its lane"));
        next += frame.count;
    }
    if (next != pager->eventCount())
        return Opened::failure(rep::damagedReport(path, 0,
            "its index lists " + std::to_string(next) + " of track " + std::to_string(storedTrack) + "'s "
                + std::to_string(pager->eventCount()) + " events"));
    return Opened(OpenedTrack {std::move(pager), std::move(structure)});
}

Status TrackPager::decodeBatch(size_t batch, Track& out, std::string& scratch) const
{
    const auto file = m_file.bytes();
    rep::FrameRef frame = m_batches[batch];
    const auto damaged = [&](const std::string& what) {
        return Status::failure(rep::damagedReport(m_path, frame.offset, what));
    };
    if (!rep::readFrameHeader(file, frame, ChunkKind::Events))
        return damaged("its index points at a chunk that is not an event batch");
    // Nothing is allocated for more events than the batch's bytes can hold.
    if (!rep::claimsFit(frame.count, 1, 1, frame.header.rawSize))
        return damaged("an event batch claims more events than its bytes can hold");
    rep::Chunk chunk;
    if (!rep::decompress(rep::framePayload(file, frame), frame.header.rawSize, scratch)
        || !chunk.ParseFromString(scratch) || !chunk.has_events())
        return damaged("an event batch fails its checksum");
    const rep::EventBatch& b = chunk.events();
    if (b.track() != m_storedTrack || b.lane() != frame.lane || b.first_index() != frame.firstIndex
        || b.count() != frame.count)
        return damaged("an event batch disagrees with the report's index");
    out.key = m_track.key;
    out.nested = m_track.nested;
    out.laneBegin = {0, frame.count};
    out.events.resize(frame.count, out.key.kind);
    return decodeEventColumns(
        b, out.key.kind, {m_strings, m_descriptors}, out.events, 0, m_path, frame.offset);
}

Status TrackPager::forEachBatch(const BatchVisitor& visit, unsigned threads, const std::atomic<bool>* cancel,
    const Progress& progress) const
{
    FirstError error;
    std::atomic<size_t> done {0};
    parallelFor(
        m_batches.size(),
        [&, scratch = std::string(), decoded = Track()](size_t i) mutable {
            if (cancel && cancel->load(std::memory_order_relaxed)) return false;
            Status status = decodeBatch(i, decoded, scratch);
            if (status) status = visit(i, Batch {decoded, m_batches[i].firstIndex, m_batches[i].lane});
            if (!status) {
                error.set(status.error());
                return false;
            }
            if (progress) progress(done.fetch_add(1) + 1, m_batches.size());
            return true;
        },
        threads);
    if (cancel && cancel->load()) return Status::failure("cancelled");
    return error.status();
}

Result<EventColumns> TrackPager::gather(std::span<const uint32_t> stored, unsigned threads) const
{
    // The batch of each wanted event, and each batch wanted once.
    const auto batchOf = [&](uint32_t index) {
        const auto after = std::upper_bound(m_batches.begin(), m_batches.end(), index,
            [](uint32_t i, const rep::FrameRef& frame) { return i < frame.firstIndex; });
        return size_t(after - m_batches.begin()) - 1;
    };
    std::vector<size_t> wanted;
    wanted.reserve(stored.size());
    for (uint32_t index : stored) {
        if (index >= eventCount())
            return Result<EventColumns>::failure("event " + std::to_string(index) + " is past the track's "
                + std::to_string(eventCount()) + " events");
        wanted.push_back(batchOf(index));
    }
    // The rows grouped by batch: rows[rowsBegin[b], rowsBegin[b + 1]) lie in batches[b].
    std::vector<uint32_t> rows(stored.size());
    for (uint32_t row = 0; row < rows.size(); ++row)
        rows[row] = row;
    std::sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) { return wanted[a] < wanted[b]; });
    std::vector<size_t> batches, rowsBegin;
    for (size_t i = 0; i < rows.size(); ++i)
        if (i == 0 || wanted[rows[i]] != batches.back()) {
            batches.push_back(wanted[rows[i]]);
            rowsBegin.push_back(i);
        }
    rowsBegin.push_back(rows.size());

    EventColumns out;
    out.resize(stored.size(), track().key.kind);
    FirstError error;
    parallelFor(
        batches.size(),
        [&, scratch = std::string(), decoded = Track()](size_t b) mutable {
            const size_t batch = batches[b];
            if (Status status = decodeBatch(batch, decoded, scratch); !status) {
                error.set(status.error());
                return false;
            }
            // Rows are written by the batch that holds them: disjoint between workers.
            const EventColumns& from = decoded.events;
            for (size_t i = rowsBegin[b]; i < rowsBegin[b + 1]; ++i) {
                const uint32_t row = rows[i];
                const size_t k = stored[row] - m_batches[batch].firstIndex;
                out.start[row] = from.start[k];
                out.end[row] = from.end[k];
                out.name[row] = from.name[k];
                if (!from.correlation.empty()) out.correlation[row] = from.correlation[k];
                if (!from.detail.empty()) out.detail[row] = from.detail[k];
                if (!from.value.empty()) out.value[row] = from.value[k];
            }
            return true;
        },
        threads);
    if (Status status = error.status(); !status) return Result<EventColumns>::failure(status.error());
    return out;
}

} // namespace sightline
