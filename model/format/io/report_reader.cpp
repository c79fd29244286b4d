// Reads a .rep file into a Trace. Small chunks (header, strings, entities, descriptors,
// tracks, diagnostics) are decoded first, in file order; the track list gives every lane's
// size, so the columns are allocated once and the event batches are then decoded on all cores
// straight into their final place; counter batches and the CPU profile's batches follow the same
// way (counter_chunks.h, cpu_chunks.h), and the derived CPU utilization series are made last. A
// report cut short keeps each lane's, each counter timeline's and each CPU array's complete prefix.
#include "model/common/parallel_for.h"
#include "model/derived/cpu_utilization_series.h"
#include "model/format/chunks/counter_chunks.h"
#include "model/format/chunks/cpu_chunks.h"
#include "model/format/chunks/event_batch_decoder.h"
#include "model/format/chunks/structure_chunks.h"
#include "model/format/frame_index.h"
#include "model/format/mapped_file.h"
#include "model/format/report_io.h"

#include <atomic>
#include <mutex>
#include <thread>

namespace sightline {
namespace {

using rep::ChunkKind;

bool decodeChunk(
    std::span<const unsigned char> file, const rep::FrameRef& frame, rep::Chunk& chunk, std::string& scratch)
{
    return rep::decompress(rep::framePayload(file, frame), frame.header.rawSize, scratch)
        && chunk.ParseFromString(scratch);
}

// Before anything is allocated for the events: the tracks may claim no more events and lanes
// than the event batches' bytes can hold (rep::claimsFit).
Status checkClaimedSizes(const Trace& trace, const rep::FrameIndex& index, const std::string& path)
{
    uint64_t batchBytes = 0;
    for (const auto& frame : index.frames)
        if (frame.header.kind == ChunkKind::Events) batchBytes += frame.header.rawSize;
    uint64_t events = 0, lanes = 0;
    for (const Track& track : trace.tracks) {
        events += track.laneBegin.back();
        lanes += track.laneCount();
    }
    if (!rep::claimsFit(events, lanes, trace.tracks.size(), batchBytes))
        return Status::failure(rep::damagedReport(path, 0,
            "its track list claims " + std::to_string(events) + " events in " + std::to_string(lanes)
                + " lanes, more than its " + std::to_string(batchBytes) + " bytes of events can hold"));
    return {};
}

// The raw bytes of every frame of `kind`.
uint64_t rawBytesOf(const rep::FrameIndex& index, ChunkKind kind)
{
    uint64_t bytes = 0;
    for (const auto& frame : index.frames)
        if (frame.header.kind == kind) bytes += frame.header.rawSize;
    return bytes;
}

// The decoders that the structure's chunks prepare for their batches.
struct BatchDecoders
{
    rep::CounterDecoder& counters;
    rep::CpuDecoder& cpu;
};

// What the structure says beyond the Trace.
struct StructureFacts
{
    bool sawTracks = false;
    size_t skipped = 0; // chunks of kinds newer than this build
    std::optional<TimeRange> storedSpan; // the whole report's, from a 1.1 report's track list
    std::optional<std::pair<rep::FlowLinks, uint64_t>> flows; // the Flows chunk and its offset
};

// Decodes the non-batch chunks; counter definitions and CPU stacks only when `select` wants them.
Result<StructureFacts> readStructure(std::span<const unsigned char> file, const rep::FrameIndex& index,
    const std::string& path, Trace& trace, BatchDecoders decoders, const DecodeSelection& select)
{
    StructureFacts facts;
    const uint64_t counterBatchBytes = rawBytesOf(index, ChunkKind::CounterBatch);
    const rep::CpuBatchBytes cpuBatchBytes {rawBytesOf(index, ChunkKind::CpuSampleBatch),
        rawBytesOf(index, ChunkKind::ThreadStateBatch), rawBytesOf(index, ChunkKind::EventStackBatch)};
    const auto visit = [&](const rep::Chunk& chunk, const rep::FrameRef& frame) -> Status {
        switch (frame.header.kind) {
        case ChunkKind::Tracks: {
            Result<std::vector<Track>> tracks = rep::tracksFromChunk(chunk.tracks(), path, frame.offset);
            if (!tracks) return Status::failure(tracks.error());
            for (Track& track : tracks.value())
                trace.tracks.push_back(std::move(track));
            facts.storedSpan = rep::storedSpan(chunk.tracks(), index.formatMinor);
            facts.sawTracks = true;
            return {};
        }
        case ChunkKind::CounterDefinitions:
            return select.counters ? decoders.counters.define(
                       chunk.counter_definitions(), counterBatchBytes, index.complete, frame.offset)
                                   : Status();
        case ChunkKind::CpuStacks:
            return select.cpu
                ? decoders.cpu.addStacks(chunk.cpu_stacks(), cpuBatchBytes, index.complete, frame.offset)
                : Status();
        case ChunkKind::Flows:
            facts.flows.emplace(chunk.flows(), frame.offset);
            return {};
        case ChunkKind::MemoryUsage: {
            // They go with the bytes-in-use series, a counter.
            if (!select.counters) return {};
            Result<std::vector<MemoryUsageEvent>> events
                = rep::memoryUsageFromProto(chunk.memory_usage(), path, frame.offset);
            if (!events) return Status::failure(events.error());
            trace.memoryUsage = std::move(events.value());
            return {};
        }
        default:
            return {};
        }
    };
    const Result<rep::StructureRead> read = rep::readStructureChunks(file, index, path, trace, visit);
    if (!read) return Result<StructureFacts>::failure(read.error());
    facts.skipped = read->skippedChunks;
    return facts;
}

// Leaves out the tracks of kinds `select` does not want. Returns, per stored track, its index in
// the Trace or rep::kUnknownTrack.
std::vector<uint32_t> keepSelectedTracks(Trace& trace, const DecodeSelection& select)
{
    std::vector<uint32_t> slots(trace.tracks.size(), rep::kUnknownTrack);
    std::vector<Track> kept;
    for (size_t t = 0; t < trace.tracks.size(); ++t) {
        if (!select.wants(trace.tracks[t].key.kind)) continue;
        slots[t] = uint32_t(kept.size());
        kept.push_back(std::move(trace.tracks[t]));
    }
    trace.tracks = std::move(kept);
    return slots;
}

// Where a stored track is in the Trace: its index (`slots` empty: all kept, in order), or
// rep::kUnknownTrack for one left out or unknown.
uint32_t slotOf(const std::vector<uint32_t>& slots, uint32_t storedTrack)
{
    if (slots.empty()) return storedTrack;
    return storedTrack < slots.size() ? slots[storedTrack] : rep::kUnknownTrack;
}

// The run of stored events a lane keeps when only events starting in a range are wanted.
struct KeptRun
{
    uint64_t begin = UINT64_MAX, end = 0; // stored indexes; empty when begin >= end
};

// Per track of the Trace (after keepSelectedTracks) and lane: the run of batches whose starts
// reach into `range`, by the footer (a batch it gives no starts for counts as reaching). Fails
// on a footer batch outside its lane.
Result<std::vector<std::vector<KeptRun>>> runsStartingIn(const Trace& trace, const rep::FrameIndex& index,
    const std::vector<uint32_t>& slots, TimeRange range, const std::string& path)
{
    using Runs = std::vector<std::vector<KeptRun>>;
    Runs runs(trace.tracks.size());
    for (size_t t = 0; t < trace.tracks.size(); ++t)
        runs[t].resize(trace.tracks[t].laneCount());
    for (const rep::FrameRef& frame : index.frames) {
        if (frame.header.kind != ChunkKind::Events || frame.track == rep::kUnknownTrack) continue;
        const uint32_t slot = slotOf(slots, frame.track);
        if (slot >= trace.tracks.size()) continue;
        const Track& track = trace.tracks[slot];
        const uint64_t first = frame.firstIndex, end = first + frame.count;
        if (frame.lane >= track.laneCount() || first < track.lane(frame.lane).begin
            || end > track.lane(frame.lane).end)
            return Result<Runs>::failure(
                rep::damagedReport(path, frame.offset, "its index places an event batch outside its lane"));
        if (!rep::startsReach(frame.starts, range)) continue;
        KeptRun& run = runs[slot][frame.lane];
        run.begin = std::min(run.begin, first);
        run.end = std::max(run.end, end);
    }
    return runs;
}

// Trims each lane to its kept run; returns, per track and lane, the stored index of the lane's
// first kept event (what EventBatchDecoder::setLaneStarts takes).
std::vector<std::vector<uint32_t>> trimToRuns(Trace& trace, const std::vector<std::vector<KeptRun>>& runs)
{
    std::vector<std::vector<uint32_t>> storedBegin(trace.tracks.size());
    for (size_t t = 0; t < trace.tracks.size(); ++t) {
        Track& track = trace.tracks[t];
        std::vector<uint32_t> laneBegin {0};
        for (uint32_t l = 0; l < track.laneCount(); ++l) {
            const KeptRun& run = runs[t][l];
            const bool kept = run.begin < run.end;
            storedBegin[t].push_back(kept ? uint32_t(run.begin) : track.lane(l).begin);
            laneBegin.push_back(laneBegin.back() + (kept ? uint32_t(run.end - run.begin) : 0));
        }
        track.laneBegin = std::move(laneBegin);
    }
    return storedBegin;
}

// After a cut: keep, per lane, the events that arrived (each lane's batches form a prefix).
size_t keepReceivedPrefixes(Trace& trace, const std::vector<std::vector<uint32_t>>& received)
{
    size_t lost = 0;
    for (size_t t = 0; t < trace.tracks.size(); ++t) {
        Track& track = trace.tracks[t];
        EventColumns& ev = track.events;
        std::vector<uint32_t> laneBegin {0};
        uint32_t out = 0;
        for (uint32_t l = 0; l < track.laneCount(); ++l) {
            const IndexRange lane = track.lane(l);
            const uint32_t keep = std::min(received[t][l], lane.size());
            lost += lane.size() - keep;
            auto move = [&](auto& column) {
                if (!column.empty())
                    std::copy(column.begin() + lane.begin, column.begin() + lane.begin + keep,
                        column.begin() + out);
            };
            move(ev.start), move(ev.end), move(ev.name), move(ev.correlation), move(ev.detail),
                move(ev.value);
            out += keep;
            laneBegin.push_back(out);
        }
        auto shrink = [&](auto& column) {
            if (!column.empty()) {
                column.resize(out);
                column.shrink_to_fit();
            }
        };
        shrink(ev.start), shrink(ev.end), shrink(ev.name), shrink(ev.correlation), shrink(ev.detail),
            shrink(ev.value);
        track.laneBegin = std::move(laneBegin);
    }
    return lost;
}

} // namespace

bool looksLikeReport(const std::string& path)
{
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return false;
    char magic[8] = {};
    const size_t n = std::fread(magic, 1, sizeof magic, f);
    std::fclose(f);
    return n == sizeof magic && std::string_view(magic, 8) == rep::kMagic;
}

namespace {

// Decodes the CPU profile's three kinds of batches on all cores.
Status readCpuBatches(std::span<const unsigned char> file, const rep::FrameIndex& index,
    const std::string& path, rep::CpuDecoder& cpu, const ReadOptions& options)
{
    Status read = rep::readBatches(file, index, path, ChunkKind::CpuSampleBatch, "a CPU sample batch",
        options.threads,
        [&](const rep::Chunk& c, uint64_t offset) { return cpu.decode(c.cpu_samples(), offset); });
    if (read)
        read = rep::readBatches(file, index, path, ChunkKind::ThreadStateBatch, "a thread state batch",
            options.threads,
            [&](const rep::Chunk& c, uint64_t offset) { return cpu.decode(c.thread_states(), offset); });
    if (read)
        read = rep::readBatches(file, index, path, ChunkKind::EventStackBatch, "an event stack batch",
            options.threads,
            [&](const rep::Chunk& c, uint64_t offset) { return cpu.decode(c.event_stacks(), offset); });
    return read;
}

// Decodes the event batches on every core, reporting progress in their compressed bytes.
Status decodeEventBatches(std::span<const unsigned char> file,
    const std::vector<const rep::FrameRef*>& batches, EventBatchDecoder& decoder, const std::string& path,
    const ReadOptions& options)
{
    uint64_t batchBytes = 0;
    for (const rep::FrameRef* frame : batches)
        batchBytes += frame->header.compressedSize;
    std::atomic<uint64_t> bytesDone {0};
    std::mutex errorMutex;
    std::string firstError;
    // Each worker keeps its own scratch buffer and chunk (parallelFor copies the lambda).
    parallelFor(
        batches.size(),
        [&, scratch = std::string(), chunk = rep::Chunk()](size_t i) mutable {
            if (options.cancel && options.cancel->load()) return false;
            const rep::FrameRef& frame = *batches[i];
            const Status decoded = !decodeChunk(file, frame, chunk, scratch) || !chunk.has_events()
                ? Status::failure(rep::damagedReport(path, frame.offset, "an event batch fails its checksum"))
                : decoder.decode(chunk.events(), frame.offset);
            if (!decoded) {
                std::lock_guard lock(errorMutex);
                if (firstError.empty()) firstError = decoded.error();
                return false;
            }
            const uint64_t done
                = bytesDone.fetch_add(frame.header.compressedSize) + frame.header.compressedSize;
            if (options.progress) options.progress(done, batchBytes);
            return true;
        },
        options.threads);
    if (options.cancel && options.cancel->load())
        return Status::failure("Loading '" + path + "' was cancelled.");
    if (!firstError.empty()) return Status::failure(firstError);
    return {};
}

// What a report cut short lost, for the diagnostic that says so.
struct CutShort
{
    uint64_t validBytes = 0;
    uint64_t fileBytes = 0;
    bool sawTracks = false;
    uint64_t countersLost = 0;
    uint64_t cpuRowsLost = 0;
};

// Keeps every lane's complete prefix of a report cut short, and the flows between what is kept,
// and says what was lost.
void keepWhatArrived(Trace& trace, const EventBatchDecoder& decoder, const CutShort& cut)
{
    const size_t kept = decoder.receivedEvents();
    const size_t lost = keepReceivedPrefixes(trace, decoder.receivedPerLane());
    std::erase_if(trace.flows, [&](const FlowLink& link) {
        return link.from.index >= trace.tracks[link.from.track.value].size()
            || link.to.index >= trace.tracks[link.to.track.value].size();
    });
    trace.diagnostics.push_back({Severity::Warning, "reader",
        "The report was cut short after " + std::to_string(cut.validBytes) + " of "
            + std::to_string(cut.fileBytes) + " bytes: " + std::to_string(kept) + " events were recovered"
            + (cut.sawTracks ? " and " + std::to_string(lost) + " events after the cut are lost"
                             : "; the track list and all events after it are lost")
            + (cut.countersLost > 0
                    ? "; " + std::to_string(cut.countersLost) + " counter samples after it are lost too"
                    : "")
            + (cut.cpuRowsLost > 0 ? "; " + std::to_string(cut.cpuRowsLost)
                        + " CPU samples, thread states and event stacks after it are lost too"
                                   : "")
            + "."});
}

// readReport without its guard against running out of memory.
Result<Trace> readReportUnguarded(const std::string& path, const ReadOptions& options)
{
    MappedFile mapped;
    if (Status opened = mapped.open(path); !opened) return Result<Trace>::failure(opened.error());
    const auto file = mapped.bytes();
    const Result<rep::FrameIndex> indexed = rep::indexFrames(file, path);
    if (!indexed) return Result<Trace>::failure(indexed.error());
    const rep::FrameIndex& index = indexed.value();

    Trace trace;
    const DecodeSelection& select = options.select;
    rep::CounterDecoder counters(trace, path);
    rep::CpuDecoder cpu(trace, path);
    const Result<StructureFacts> structure = readStructure(file, index, path, trace, {counters, cpu}, select);
    if (!structure) return Result<Trace>::failure(structure.error());
    const bool sawTracks = structure->sawTracks;
    if (structure->skipped > 0)
        trace.diagnostics.push_back({Severity::Warning, "reader",
            std::to_string(structure->skipped)
                + " chunk(s) of a kind this Sightline does not know were skipped: the report was written by "
                  "a newer version; update Sightline to see everything in it."});
    if (index.complete && !sawTracks)
        return Result<Trace>::failure(rep::damagedReport(path, 0, "the track list is missing"));
    if (index.complete)
        if (Status sane = checkClaimedSizes(trace, index, path); !sane)
            return Result<Trace>::failure(sane.error());

    // Flows are checked against the full track list, and kept only when every track is read
    // whole: a partial read leaves tracks and events out, and the links' indexes with them.
    if (structure->flows) {
        Result<std::vector<FlowLink>> flows
            = rep::flowsFromProto(structure->flows->first, trace, path, structure->flows->second);
        if (!flows) return Result<Trace>::failure(flows.error());
        const bool tracksWhole = select.trackKinds == (1u << kTrackKindCount) - 1 && !select.startsIn;
        if (tracksWhole) trace.flows = std::move(flows.value());
    }

    EventBatchDecoder decoder(trace, path);
    std::vector<uint32_t> slots;
    if (!select.everything()) {
        slots = keepSelectedTracks(trace, select);
        decoder.setTrackSlots(slots);
    }
    // With a start range and a footer, each lane keeps the run of batches reaching into it.
    std::optional<std::vector<std::vector<KeptRun>>> runs;
    if (select.startsIn && index.complete) {
        Result<std::vector<std::vector<KeptRun>>> found
            = runsStartingIn(trace, index, slots, *select.startsIn, path);
        if (!found) return Result<Trace>::failure(found.error());
        runs = std::move(found.value());
        decoder.setLaneStarts(trimToRuns(trace, *runs));
    }
    decoder.allocate();
    // The footer names each batch's track and place: batches of tracks left out, and outside a
    // lane's kept run, are not even decompressed.
    const auto leftOut = [&](const rep::FrameRef& frame) {
        if (frame.track == rep::kUnknownTrack) return false;
        const uint32_t slot = slotOf(slots, frame.track);
        if (slot == rep::kUnknownTrack) return true;
        if (!runs || slot >= runs->size() || frame.lane >= (*runs)[slot].size()) return false;
        const KeptRun& run = (*runs)[slot][frame.lane];
        return !(frame.firstIndex >= run.begin && uint64_t(frame.firstIndex) + frame.count <= run.end);
    };
    std::vector<const rep::FrameRef*> batches;
    for (const auto& frame : index.frames)
        if (frame.header.kind == ChunkKind::Events && !leftOut(frame)) batches.push_back(&frame);

    if (Status decoded = decodeEventBatches(file, batches, decoder, path, options); !decoded)
        return Result<Trace>::failure(decoded.error());
    if (select.counters)
        if (Status read
            = rep::readBatches(file, index, path, ChunkKind::CounterBatch, "a counter batch", options.threads,
                [&](const rep::Chunk& c, uint64_t offset) {
                    return counters.decode(c.counter_batch(), offset);
                });
            !read)
            return Result<Trace>::failure(read.error());
    const Result<uint64_t> countersLost = counters.finish(index.complete);
    if (!countersLost) return Result<Trace>::failure(countersLost.error());
    if (select.cpu)
        if (Status read = readCpuBatches(file, index, path, cpu, options); !read)
            return Result<Trace>::failure(read.error());
    const Result<uint64_t> cpuRowsLost = cpu.finish(index.complete);
    if (!cpuRowsLost) return Result<Trace>::failure(cpuRowsLost.error());

    if (index.complete) {
        if (Status complete = decoder.checkComplete(); !complete)
            return Result<Trace>::failure(complete.error());
    } else {
        keepWhatArrived(trace, decoder,
            {index.validBytes, file.size(), sawTracks, countersLost.value(), cpuRowsLost.value()});
    }
    addCpuUtilizationSeries(trace);
    if (options.buildIndexes) trace.buildIndexes(options.threads);
    // Part of a report still spans the whole report, where the file says what that is.
    if (!select.everything() && structure->storedSpan) trace.span = *structure->storedSpan;
    trace.storedFormat = {index.formatMajor, index.formatMinor};
    return trace;
}

} // namespace

Result<Trace> readReport(const std::string& path, const ReadOptions& options)
{
    try {
        return readReportUnguarded(path, options);
    } catch (const std::bad_alloc&) {
        return Result<Trace>::failure("Cannot open '" + path
            + "': there is not enough memory to load it; close other programs, or open it on a "
              "machine with more memory.");
    } catch (const std::length_error&) {
        return Result<Trace>::failure(rep::damagedReport(path, 0, "a size in it is impossibly large"));
    }
}

} // namespace sightline
