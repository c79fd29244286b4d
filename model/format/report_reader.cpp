// Reads a .rep file into a Trace. Small chunks (header, strings, entities, descriptors,
// tracks, diagnostics) are decoded first, in file order; the track list gives every lane's
// size, so the columns are allocated once and the event batches are then decoded on all cores
// straight into their final place; counter batches and the CPU profile's batches follow the same
// way (counter_chunks.h, cpu_chunks.h), and the derived CPU utilization series are made last. A
// report cut short keeps each lane's, each counter timeline's and each CPU array's complete prefix.
#include "model/build/cpu_utilization_series.h"
#include "model/common/parallel_for.h"
#include "model/format/counter_chunks.h"
#include "model/format/cpu_chunks.h"
#include "model/format/event_batch_decoder.h"
#include "model/format/frame_index.h"
#include "model/format/mapped_file.h"
#include "model/format/proto_convert.h"
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

// The track a descriptor describes. Its lane sizes are checked against the file later
// (checkClaimedSizes); here they only must fit the 32-bit event indexes.
std::optional<Track> makeTrack(const rep::TrackDescriptor& d)
{
    Track t;
    t.key.kind = TrackKind(d.kind());
    t.key.pid = Pid(d.pid());
    t.key.tid = Tid(d.tid());
    t.key.domain = DomainId(d.domain());
    t.key.device = DeviceId(d.device());
    t.key.context = ContextId(d.context());
    t.key.stream = StreamId(d.stream());
    t.nested = d.nested();
    t.laneBegin.assign(1, 0);
    uint64_t total = 0;
    t.laneBegin.reserve(size_t(d.lane_sizes_size()) + 1);
    for (uint32_t size : d.lane_sizes()) {
        total += size;
        if (total > UINT32_MAX) return std::nullopt;
        t.laneBegin.push_back(uint32_t(total));
    }
    return t;
}

// Before anything is allocated for the events: the tracks may claim no more events than the
// event batches' bytes can hold (each event takes at least one byte in each of its start,
// duration and name columns), and no lane that holds none.
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
    constexpr uint64_t kMinBytesPerEvent = 3;
    if (events > batchBytes / kMinBytesPerEvent || lanes > events + trace.tracks.size())
        return Status::failure(rep::damagedReport(path, 0,
            "its track list claims " + std::to_string(events) + " events in " + std::to_string(lanes)
                + " lanes, more than its " + std::to_string(batchBytes) + " bytes of events can hold"));
    return {};
}

bool isBatch(ChunkKind kind)
{
    return kind == ChunkKind::Events || kind == ChunkKind::CounterBatch || kind == ChunkKind::CpuSampleBatch
        || kind == ChunkKind::ThreadStateBatch || kind == ChunkKind::EventStackBatch;
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

// Decodes the non-batch chunks. Chunks of kinds newer than this build are counted in `skipped`.
Status readStructure(std::span<const unsigned char> file, const rep::FrameIndex& index,
    const std::string& path, Trace& trace, BatchDecoders decoders, bool& sawTracks, size_t& skipped)
{
    std::string scratch;
    bool sawHeader = false;
    const uint64_t counterBatchBytes = rawBytesOf(index, ChunkKind::CounterBatch);
    const rep::CpuBatchBytes cpuBatchBytes {rawBytesOf(index, ChunkKind::CpuSampleBatch),
        rawBytesOf(index, ChunkKind::ThreadStateBatch), rawBytesOf(index, ChunkKind::EventStackBatch)};
    for (const auto& frame : index.frames) {
        if (isBatch(frame.header.kind)) continue;
        if (uint32_t(frame.header.kind) > rep::kLastKnownChunkKind) {
            ++skipped;
            continue;
        }
        rep::Chunk chunk;
        if (!decodeChunk(file, frame, chunk, scratch))
            return Status::failure(rep::damagedReport(path, frame.offset, "a chunk fails its checksum"));
        switch (frame.header.kind) {
        case ChunkKind::Header:
            if (chunk.header().format_major() > rep::kFormatMajor)
                return Status::failure(
                    "'" + path + "' uses a newer report format; update Sightline to open it.");
            trace.metadata = rep::fromProto(chunk.header());
            sawHeader = true;
            break;
        case ChunkKind::Strings:
            if (chunk.strings().first_id() > trace.strings.size())
                return Status::failure(
                    rep::damagedReport(path, frame.offset, "a string table increment is out of order"));
            for (int i = int(trace.strings.size() - chunk.strings().first_id());
                 i < chunk.strings().values_size(); ++i)
                trace.strings.append(chunk.strings().values(i));
            break;
        case ChunkKind::Entities:
            rep::fromProto(chunk.entities(), trace);
            break;
        case ChunkKind::Descriptors:
            rep::fromProto(chunk.descriptors(), trace);
            break;
        case ChunkKind::Tracks:
            for (const auto& d : chunk.tracks().tracks()) {
                std::optional<Track> track = makeTrack(d);
                if (!track)
                    return Status::failure(
                        rep::damagedReport(path, frame.offset, "a track claims more than 2^32 events"));
                trace.tracks.push_back(std::move(*track));
            }
            sawTracks = true;
            break;
        case ChunkKind::Diagnostics:
            rep::fromProto(chunk.diagnostics(), trace.diagnostics);
            break;
        case ChunkKind::CounterDefinitions:
            if (Status defined = decoders.counters.define(
                    chunk.counter_definitions(), counterBatchBytes, index.complete, frame.offset);
                !defined)
                return defined;
            break;
        case ChunkKind::CpuStacks:
            if (Status added
                = decoders.cpu.addStacks(chunk.cpu_stacks(), cpuBatchBytes, index.complete, frame.offset);
                !added)
                return added;
            break;
        default:
            break;
        }
    }
    if (!sawHeader)
        return Status::failure(
            "'" + path + "' is cut short before its header and holds no data; record it again.");
    return {};
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

// Decodes the batches of one kind other than events on all cores, with `decode(chunk, offset)`;
// `what` names the batch in the sentence for one that fails its checksum.
template <class Decode>
Status readBatches(std::span<const unsigned char> file, const rep::FrameIndex& index, const std::string& path,
    ChunkKind kind, const std::string& what, const ReadOptions& options, Decode decode)
{
    std::vector<const rep::FrameRef*> batches;
    for (const auto& frame : index.frames)
        if (frame.header.kind == kind) batches.push_back(&frame);
    std::mutex errorMutex;
    std::string firstError;
    parallelFor(
        batches.size(),
        [&, scratch = std::string(), chunk = rep::Chunk()](size_t i) mutable {
            const rep::FrameRef& frame = *batches[i];
            const Status decoded
                = !decodeChunk(file, frame, chunk, scratch) || uint32_t(chunk.body_case()) != uint32_t(kind)
                ? Status::failure(rep::damagedReport(path, frame.offset, what + " fails its checksum"))
                : decode(chunk, frame.offset);
            if (decoded) return true;
            std::lock_guard lock(errorMutex);
            if (firstError.empty()) firstError = decoded.error();
            return false;
        },
        options.threads);
    return firstError.empty() ? Status() : Status::failure(firstError);
}

// Decodes the CPU profile's three kinds of batches on all cores.
Status readCpuBatches(std::span<const unsigned char> file, const rep::FrameIndex& index,
    const std::string& path, rep::CpuDecoder& cpu, const ReadOptions& options)
{
    Status read = readBatches(file, index, path, ChunkKind::CpuSampleBatch, "a CPU sample batch", options,
        [&](const rep::Chunk& c, uint64_t offset) { return cpu.decode(c.cpu_samples(), offset); });
    if (read)
        read = readBatches(file, index, path, ChunkKind::ThreadStateBatch, "a thread state batch", options,
            [&](const rep::Chunk& c, uint64_t offset) { return cpu.decode(c.thread_states(), offset); });
    if (read)
        read = readBatches(file, index, path, ChunkKind::EventStackBatch, "an event stack batch", options,
            [&](const rep::Chunk& c, uint64_t offset) { return cpu.decode(c.event_stacks(), offset); });
    return read;
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
    bool sawTracks = false;
    size_t skipped = 0;
    rep::CounterDecoder counters(trace, path);
    rep::CpuDecoder cpu(trace, path);
    if (Status read = readStructure(file, index, path, trace, {counters, cpu}, sawTracks, skipped); !read)
        return Result<Trace>::failure(read.error());
    if (skipped > 0)
        trace.diagnostics.push_back({Severity::Warning, "reader",
            std::to_string(skipped)
                + " chunk(s) of a kind this Sightline does not know were skipped: the report was written by "
                  "a "
                  "newer version; update Sightline to see everything in it."});
    if (index.complete && !sawTracks)
        return Result<Trace>::failure(rep::damagedReport(path, 0, "the track list is missing"));
    if (index.complete)
        if (Status sane = checkClaimedSizes(trace, index, path); !sane)
            return Result<Trace>::failure(sane.error());

    EventBatchDecoder decoder(trace, path);
    decoder.allocate();
    std::vector<const rep::FrameRef*> batches;
    uint64_t batchBytes = 0;
    for (const auto& frame : index.frames)
        if (frame.header.kind == ChunkKind::Events) {
            batches.push_back(&frame);
            batchBytes += frame.header.compressedSize;
        }

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
        return Result<Trace>::failure("Loading '" + path + "' was cancelled.");
    if (!firstError.empty()) return Result<Trace>::failure(firstError);
    const Status batchesRead
        = readBatches(file, index, path, ChunkKind::CounterBatch, "a counter batch", options,
            [&](const rep::Chunk& c, uint64_t offset) { return counters.decode(c.counter_batch(), offset); });
    if (!batchesRead) return Result<Trace>::failure(batchesRead.error());
    const Result<uint64_t> countersLost = counters.finish(index.complete);
    if (!countersLost) return Result<Trace>::failure(countersLost.error());
    if (Status read = readCpuBatches(file, index, path, cpu, options); !read)
        return Result<Trace>::failure(read.error());
    const Result<uint64_t> cpuRowsLost = cpu.finish(index.complete);
    if (!cpuRowsLost) return Result<Trace>::failure(cpuRowsLost.error());

    if (index.complete) {
        if (Status complete = decoder.checkComplete(); !complete)
            return Result<Trace>::failure(complete.error());
    } else {
        const size_t kept = decoder.receivedEvents();
        const size_t lost = keepReceivedPrefixes(trace, decoder.receivedPerLane());
        trace.diagnostics.push_back({Severity::Warning, "reader",
            "The report was cut short after " + std::to_string(index.validBytes) + " of "
                + std::to_string(file.size()) + " bytes: " + std::to_string(kept) + " events were recovered"
                + (sawTracks ? " and " + std::to_string(lost) + " events after the cut are lost"
                             : "; the track list and all events after it are lost")
                + (countersLost.value() > 0 ? "; " + std::to_string(countersLost.value())
                            + " counter samples after it are lost too"
                                            : "")
                + (cpuRowsLost.value() > 0 ? "; " + std::to_string(cpuRowsLost.value())
                            + " CPU samples, thread states and event stacks after it are lost too"
                                           : "")
                + "."});
    }
    addCpuUtilizationSeries(trace);
    if (options.buildIndexes) trace.buildIndexes(options.threads);
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
