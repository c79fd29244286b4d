// Writes a Trace as a .rep file: preamble, header, string increments, entities, descriptors,
// track list, each lane's overview (model/derived/overview_tracks.h; large reports only), one event batch per
// (track, lane, slice of eventsPerChunk events), counter definitions and batches (when the trace has stored
// counters), the CPU profile's stacks and batches (when it has one), diagnostics, footer and trailer. Batches
// are encoded and compressed on all cores; frames are written in a fixed order, so equal traces give
// byte-identical files.
#include "model/common/parallel_for.h"
#include "model/derived/cpu_utilization_series.h"
#include "model/derived/overview_tracks.h"
#include "model/format/chunks/counter_chunks.h"
#include "model/format/chunks/cpu_chunks.h"
#include "model/format/chunks/proto_convert.h"
#include "model/format/chunks/structure_chunks.h"
#include "model/format/report_io.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

namespace sightline {
namespace {

using rep::ChunkKind;

struct BatchSpec
{
    uint32_t track, lane, first, count;
    Timestamp firstStart, lastStart; // of its first and last events
};

void encodeBatch(const Track& track, const BatchSpec& spec, rep::EventBatch& out)
{
    const EventColumns& ev = track.events;
    out.set_track(spec.track);
    out.set_lane(spec.lane);
    out.set_first_index(spec.first);
    out.set_count(spec.count);
    const uint32_t begin = spec.first, end = spec.first + spec.count;
    auto* start = out.mutable_start_delta();
    auto* duration = out.mutable_duration();
    auto* name = out.mutable_name();
    start->Reserve(int(spec.count));
    duration->Reserve(int(spec.count));
    name->Reserve(int(spec.count));
    Timestamp previous = 0;
    for (uint32_t i = begin; i < end; ++i) {
        start->AddAlreadyReserved(uint64_t(ev.start[i] - previous));
        previous = ev.start[i];
        duration->AddAlreadyReserved(uint64_t(ev.end[i] - ev.start[i]));
        name->AddAlreadyReserved(ev.name[i].value);
    }
    if (!ev.correlation.empty()) {
        auto* corr = out.mutable_correlation_delta();
        corr->Reserve(int(spec.count));
        int64_t prev = 0;
        for (uint32_t i = begin; i < end; ++i) {
            corr->AddAlreadyReserved(int64_t(ev.correlation[i].value) - prev);
            prev = ev.correlation[i].value;
        }
    }
    if (!ev.detail.empty()) out.mutable_detail()->Add(ev.detail.begin() + begin, ev.detail.begin() + end);
    if (!ev.value.empty()) out.mutable_value()->Add(ev.value.begin() + begin, ev.value.begin() + end);
}

class FrameWriter
{
public:
    FrameWriter(std::ofstream& out, int level)
        : m_out(out)
        , m_level(level)
    { }

    std::string compressChunk(const rep::Chunk& chunk, ChunkKind kind) const
    {
        const std::string raw = chunk.SerializeAsString();
        const std::string packed = rep::compress(raw, m_level);
        return rep::encodeFrameHeader({uint32_t(packed.size()), uint32_t(raw.size()), kind}) + packed;
    }

    void write(
        const std::string& frame, ChunkKind kind, rep::Footer& footer, const BatchSpec* batch = nullptr)
    {
        auto* entry = footer.add_chunks();
        entry->set_offset(m_offset);
        entry->set_kind(uint32_t(kind));
        if (batch) {
            entry->set_track(batch->track);
            entry->set_lane(batch->lane);
            entry->set_first_index(batch->first);
            entry->set_count(batch->count);
            entry->set_first_start(batch->firstStart);
            entry->set_last_start(batch->lastStart);
        }
        writeRaw(frame);
    }

    void writeRaw(const std::string& bytes)
    {
        m_out.write(bytes.data(), std::streamsize(bytes.size()));
        m_offset += bytes.size();
    }
    uint64_t offset() const { return m_offset; }

private:
    std::ofstream& m_out;
    int m_level;
    uint64_t m_offset = 0;
};

std::vector<BatchSpec> planBatches(const std::vector<Track>& tracks, uint32_t eventsPerChunk)
{
    std::vector<BatchSpec> batches;
    for (uint32_t t = 0; t < tracks.size(); ++t) {
        const Track& track = tracks[t];
        for (uint32_t l = 0; l < track.laneCount(); ++l) {
            const IndexRange lane = track.lane(l);
            for (uint32_t first = lane.begin; first < lane.end; first += eventsPerChunk) {
                const uint32_t count = std::min(eventsPerChunk, lane.end - first);
                batches.push_back(
                    {t, l, first, count, track.events.start[first], track.events.start[first + count - 1]});
            }
        }
    }
    return batches;
}

// Writes a report's chunks in order, each compressed into a frame listed in the footer.
class ChunkWriter
{
public:
    ChunkWriter(std::ofstream& file, int zstdLevel)
        : m_frames(file, zstdLevel)
    { }

    FrameWriter& frames() { return m_frames; }
    rep::Footer& footer() { return m_footer; }

    template <class Fill> void writeChunk(Fill fill, ChunkKind kind)
    {
        rep::Chunk chunk;
        fill(chunk);
        m_frames.write(m_frames.compressChunk(chunk, kind), kind, m_footer);
    }

    // Batches: encoded and compressed in parallel, written in plan order.
    template <class Encode, class FooterBatch>
    void writeBatches(size_t total, ChunkKind kind, Encode encode, FooterBatch footerBatch)
    {
        constexpr size_t kWindow = 64; // frames held in memory at once
        for (size_t base = 0; base < total; base += kWindow) {
            const size_t count = std::min(kWindow, total - base);
            std::vector<std::string> encoded(count);
            parallelFor(count, [&](size_t i) {
                rep::Chunk chunk;
                encode(base + i, chunk);
                encoded[i] = m_frames.compressChunk(chunk, kind);
            });
            for (size_t i = 0; i < count; ++i)
                m_frames.write(encoded[i], kind, m_footer, footerBatch(base + i));
        }
    }

    // Rows that no footer entry places (counters, the CPU profile).
    template <class Encode> void writeUnplacedBatches(size_t total, ChunkKind kind, Encode encode)
    {
        writeBatches(total, kind, encode, [](size_t) { return static_cast<const BatchSpec*>(nullptr); });
    }

    // Event batches of `tracks` (the trace's, or the overview's stand-ins).
    void writeEventBatches(const std::vector<Track>& tracks, ChunkKind kind, uint32_t eventsPerChunk)
    {
        const auto batches = planBatches(tracks, eventsPerChunk);
        writeBatches(
            batches.size(), kind,
            [&](size_t i, rep::Chunk& chunk) {
                encodeBatch(tracks[batches[i].track], batches[i],
                    kind == ChunkKind::Overview ? *chunk.mutable_overview() : *chunk.mutable_events());
            },
            [&](size_t i) { return &batches[i]; });
    }

private:
    FrameWriter m_frames;
    rep::Footer m_footer;
};

void writeStrings(ChunkWriter& out, const StringTable& strings)
{
    constexpr uint32_t kStringsPerChunk = 1u << 16;
    for (uint32_t first = 0; first < strings.size(); first += kStringsPerChunk) {
        out.writeChunk(
            [&](rep::Chunk& c) {
                auto* chunk = c.mutable_strings();
                chunk->set_first_id(first);
                const uint32_t last = std::min<uint32_t>(first + kStringsPerChunk, uint32_t(strings.size()));
                for (uint32_t i = first; i < last; ++i)
                    chunk->add_values(std::string(strings[StringId(i)]));
            },
            ChunkKind::Strings);
    }
}

void writeTrackList(ChunkWriter& out, const Trace& trace)
{
    out.writeChunk(
        [&](rep::Chunk& c) {
            auto* tracks = c.mutable_tracks();
            for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
                const Track& track = trace.tracks[t];
                auto* d = tracks->add_tracks();
                d->set_id(t);
                d->set_kind(uint32_t(track.key.kind));
                d->set_pid(track.key.pid.value);
                d->set_tid(track.key.tid.value);
                d->set_domain(track.key.domain.value);
                d->set_device(track.key.device.value);
                d->set_context(track.key.context.value);
                d->set_stream(track.key.stream.value);
                d->set_nested(track.nested);
                for (uint32_t l = 0; l < track.laneCount(); ++l)
                    d->add_lane_sizes(track.lane(l).size());
            }
            if (const std::optional<TimeRange> span = trace.dataSpan()) {
                tracks->set_has_span(true);
                tracks->set_span_start(span->start);
                tracks->set_span_end(span->end);
            }
        },
        ChunkKind::Tracks);
}

// Stored counter series, when there are any (reports without them stay as before).
void writeCounters(ChunkWriter& out, const Trace& trace, uint32_t perChunk)
{
    if (storedCounterTimelineCount(trace) == 0) return;
    out.writeChunk(
        [&](rep::Chunk& c) { rep::encodeCounterDefinitions(trace, *c.mutable_counter_definitions()); },
        ChunkKind::CounterDefinitions);
    const auto counterBatches = rep::planCounterBatches(trace, perChunk);
    out.writeUnplacedBatches(
        counterBatches.size(), ChunkKind::CounterBatch, [&](size_t i, rep::Chunk& chunk) {
            rep::encodeCounterBatch(trace, counterBatches[i], *chunk.mutable_counter_batch());
        });
}

// The CPU profile, when there is one (reports without it stay as before).
void writeCpuProfile(ChunkWriter& out, const CpuProfile& cpu, uint32_t perChunk)
{
    if (!rep::hasCpuProfile(cpu)) return;
    for (uint32_t i = 0; i < rep::cpuStackChunkCount(cpu, perChunk); ++i)
        out.writeChunk(
            [&](rep::Chunk& c) { rep::encodeCpuStacks(cpu, i, perChunk, *c.mutable_cpu_stacks()); },
            ChunkKind::CpuStacks);
    auto writeRows = [&](size_t rows, ChunkKind kind, auto encode) {
        const auto slices = rep::planCpuRowBatches(rows, perChunk);
        out.writeUnplacedBatches(
            slices.size(), kind, [&](size_t i, rep::Chunk& chunk) { encode(slices[i], chunk); });
    };
    writeRows(cpu.samples.size(), ChunkKind::CpuSampleBatch, [&](const auto& slice, rep::Chunk& chunk) {
        rep::encodeCpuSampleBatch(cpu, slice, *chunk.mutable_cpu_samples());
    });
    writeRows(cpu.states.size(), ChunkKind::ThreadStateBatch, [&](const auto& slice, rep::Chunk& chunk) {
        rep::encodeThreadStateBatch(cpu, slice, *chunk.mutable_thread_states());
    });
    writeRows(cpu.eventStacks.size(), ChunkKind::EventStackBatch, [&](const auto& slice, rep::Chunk& chunk) {
        rep::encodeEventStackBatch(cpu, slice, *chunk.mutable_event_stacks());
    });
}

// Every chunk of the report, in the order a reader expects them.
void writeChunks(ChunkWriter& out, const Trace& trace, const WriteOptions& options)
{
    const uint32_t perChunk = std::max(1u, options.eventsPerChunk);
    out.writeChunk(
        [&](rep::Chunk& c) { rep::toProto(trace.metadata, *c.mutable_header()); }, ChunkKind::Header);
    writeStrings(out, trace.strings);
    out.writeChunk([&](rep::Chunk& c) { rep::toProto(trace, *c.mutable_entities()); }, ChunkKind::Entities);
    out.writeChunk(
        [&](rep::Chunk& c) { rep::toProto(trace, *c.mutable_descriptors()); }, ChunkKind::Descriptors);
    writeTrackList(out, trace);

    // The overview, right after the track list: a viewer paints it from the file's first bytes.
    const Overview overview
        = trace.eventCount() >= options.overviewFromEvents ? buildOverview(trace) : Overview {};
    if (!overview.tracks.empty())
        out.writeChunk(
            [&](rep::Chunk& c) { rep::toProto(overview.descriptors, *c.mutable_overview_descriptors()); },
            ChunkKind::OverviewDescriptors);
    out.writeEventBatches(overview.tracks, ChunkKind::Overview, perChunk);
    out.writeEventBatches(trace.tracks, ChunkKind::Events, perChunk);
    writeCounters(out, trace, perChunk);
    writeCpuProfile(out, trace.cpu, perChunk);

    // Flow links, only when there are any (reports without them stay byte for byte as before).
    if (!trace.flows.empty())
        out.writeChunk(
            [&](rep::Chunk& c) { rep::toProto(trace.flows, *c.mutable_flows()); }, ChunkKind::Flows);
    // GPU memory usage records, likewise only when there are any.
    if (!trace.memoryUsage.empty())
        out.writeChunk([&](rep::Chunk& c) { rep::toProto(trace.memoryUsage, *c.mutable_memory_usage()); },
            ChunkKind::MemoryUsage);
    out.writeChunk([&](rep::Chunk& c) { rep::toProto(trace.diagnostics, *c.mutable_diagnostics()); },
        ChunkKind::Diagnostics);
}

} // namespace

Status writeReport(const Trace& trace, const std::string& path, const WriteOptions& options)
{
    const std::string temporary = path + ".tmp";
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (!file)
        return Status::failure("Cannot write the report '" + path
            + "': the folder is missing or not writable; choose another output path.");
    ChunkWriter out(file, options.zstdLevel);
    out.frames().writeRaw(rep::encodePreamble());
    writeChunks(out, trace, options);
    rep::Footer& footer = out.footer();
    footer.set_event_count(trace.eventCount());
    const uint64_t footerOffset = out.frames().offset();
    rep::Chunk footerChunk;
    *footerChunk.mutable_footer() = footer;
    out.frames().writeRaw(out.frames().compressChunk(footerChunk, ChunkKind::Footer));
    out.frames().writeRaw(rep::encodeTrailer(footerOffset));
    file.close();
    if (!file) {
        std::filesystem::remove(temporary);
        return Status::failure(
            "Cannot write the report '" + path + "': the disk may be full; free some space and try again.");
    }
    std::error_code ec;
    std::filesystem::rename(temporary, path, ec);
    if (ec) return Status::failure("Cannot write the report '" + path + "': " + ec.message() + ".");
    return {};
}

} // namespace sightline
