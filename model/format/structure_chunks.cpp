#include "model/format/structure_chunks.h"

#include "model/format/proto_convert.h"

#include <limits>

namespace sightline::rep {

bool isBatch(ChunkKind kind)
{
    return kind == ChunkKind::Events || kind == ChunkKind::CounterBatch || kind == ChunkKind::CpuSampleBatch
        || kind == ChunkKind::ThreadStateBatch || kind == ChunkKind::EventStackBatch
        || kind == ChunkKind::Overview;
}

bool claimsFit(uint64_t events, uint64_t lanes, uint64_t tracks, uint64_t rawBytes)
{
    constexpr uint64_t kMinBytesPerEvent = 3;
    return events <= rawBytes / kMinBytesPerEvent && lanes <= events + tracks;
}

namespace {

// The track a descriptor describes, without events. None when its lanes claim more than the
// 32-bit event indexes hold.
std::optional<Track> trackFromDescriptor(const TrackDescriptor& d)
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

} // namespace

Result<std::vector<Track>> tracksFromChunk(const Tracks& chunk, const std::string& path, uint64_t offset)
{
    std::vector<Track> tracks;
    tracks.reserve(size_t(chunk.tracks_size()));
    for (const auto& d : chunk.tracks()) {
        std::optional<Track> track = trackFromDescriptor(d);
        if (!track)
            return Result<std::vector<Track>>::failure(
                damagedReport(path, offset, "a track claims more than 2^32 events"));
        tracks.push_back(std::move(*track));
    }
    return tracks;
}

namespace {

std::optional<TimeRange> spanIfStored(bool present, int64_t start, int64_t end, uint16_t formatMinor)
{
    if (formatMinor < 1 || !present || end < start) return std::nullopt;
    return TimeRange {start, end};
}

} // namespace

std::optional<TimeRange> storedSpan(const Tracks& tracks, uint16_t formatMinor)
{
    return spanIfStored(tracks.has_span(), tracks.span_start(), tracks.span_end(), formatMinor);
}

std::optional<TimeRange> storedSpan(const CounterTimelineInfo& t, uint16_t formatMinor)
{
    return spanIfStored(t.samples() > 0, t.first_start(), t.end(), formatMinor);
}

void toProto(const std::vector<FlowLink>& links, FlowLinks& out)
{
    for (const FlowLink& link : links) {
        out.add_from_track(link.from.track.value);
        out.add_from_index(link.from.index);
        out.add_to_track(link.to.track.value);
        out.add_to_index(link.to.index);
        out.add_name(link.name.value);
    }
}

Result<std::vector<FlowLink>> flowsFromProto(
    const FlowLinks& chunk, const Trace& trace, const std::string& path, uint64_t offset)
{
    using Links = Result<std::vector<FlowLink>>;
    const int count = chunk.from_track_size();
    if (chunk.from_index_size() != count || chunk.to_track_size() != count || chunk.to_index_size() != count
        || chunk.name_size() != count)
        return Links::failure(damagedReport(path, offset, "its flow columns differ in length"));
    const auto exists = [&](uint32_t track, uint32_t index) {
        return track < trace.tracks.size() && index < trace.tracks[track].laneBegin.back();
    };
    std::vector<FlowLink> links;
    links.reserve(size_t(count));
    for (int i = 0; i < count; ++i) {
        const FlowLink link {{TrackId(chunk.from_track(i)), chunk.from_index(i)},
            {TrackId(chunk.to_track(i)), chunk.to_index(i)}, StringId(chunk.name(i))};
        if (!exists(link.from.track.value, link.from.index) || !exists(link.to.track.value, link.to.index))
            return Links::failure(damagedReport(path, offset, "a flow links an event that does not exist"));
        if (link.name.value >= trace.strings.size())
            return Links::failure(damagedReport(path, offset, "a flow names a string that does not exist"));
        links.push_back(link);
    }
    return links;
}

void toProto(const std::vector<MemoryUsageEvent>& events, MemoryUsageEvents& out)
{
    Timestamp previous = 0;
    for (const MemoryUsageEvent& e : events) {
        out.add_time(e.time - previous);
        previous = e.time;
        out.add_pid(e.pid.value);
        out.add_device(e.device.value);
        out.add_context(e.context.value);
        out.add_address(e.address);
        out.add_bytes(e.bytes);
        out.add_kind_and_release(uint32_t(e.kind) * 2 + (e.release ? 1 : 0));
        out.add_correlation(e.correlation.value);
    }
}

Result<std::vector<MemoryUsageEvent>> memoryUsageFromProto(
    const MemoryUsageEvents& chunk, const std::string& path, uint64_t offset)
{
    using Events = Result<std::vector<MemoryUsageEvent>>;
    const int count = chunk.time_size();
    for (const int size : {chunk.pid_size(), chunk.device_size(), chunk.context_size(), chunk.address_size(),
             chunk.bytes_size(), chunk.kind_and_release_size(), chunk.correlation_size()})
        if (size != count)
            return Events::failure(damagedReport(path, offset, "its memory usage columns differ in length"));
    std::vector<MemoryUsageEvent> events(static_cast<size_t>(count));
    Timestamp time = 0;
    for (int i = 0; i < count; ++i) {
        const int64_t step = chunk.time(i);
        if (i > 0 && (step < 0 || step > std::numeric_limits<Timestamp>::max() - time))
            return Events::failure(damagedReport(path, offset, "its memory usage records go back in time"));
        time = i > 0 ? time + step : step;
        const uint32_t kindAndRelease = chunk.kind_and_release(i);
        if (kindAndRelease / 2 >= uint32_t(kMemoryKindCount))
            return Events::failure(
                damagedReport(path, offset, "a memory usage record has an unknown memory kind"));
        MemoryUsageEvent& e = events[size_t(i)];
        e.time = time;
        e.pid = Pid(chunk.pid(i));
        e.device = DeviceId(chunk.device(i));
        e.context = ContextId(chunk.context(i));
        e.address = chunk.address(i);
        e.bytes = chunk.bytes(i);
        e.kind = MemoryKind(kindAndRelease / 2);
        e.release = (kindAndRelease & 1) != 0;
        e.correlation = CorrelationId(chunk.correlation(i));
    }
    return events;
}

Result<StructureRead> readStructureChunks(std::span<const unsigned char> file, const FrameIndex& index,
    const std::string& path, Trace& trace, const std::function<Status(const Chunk&, const FrameRef&)>& visit)
{
    StructureRead read;
    std::string scratch;
    bool sawHeader = false;
    for (const FrameRef& frame : index.frames) {
        if (isBatch(frame.header.kind) || !frame.headerRead) continue;
        if (uint32_t(frame.header.kind) > kLastKnownChunkKind) {
            ++read.skippedChunks;
            continue;
        }
        Chunk chunk;
        if (!decompress(framePayload(file, frame), frame.header.rawSize, scratch)
            || !chunk.ParseFromString(scratch))
            return Result<StructureRead>::failure(
                damagedReport(path, frame.offset, "a chunk fails its checksum"));
        switch (frame.header.kind) {
        case ChunkKind::Header:
            if (chunk.header().format_major() > kFormatMajor)
                return Result<StructureRead>::failure(
                    "'" + path + "' uses a newer report format; update Sightline to open it.");
            trace.metadata = fromProto(chunk.header());
            sawHeader = true;
            break;
        case ChunkKind::Strings:
            if (chunk.strings().first_id() > trace.strings.size())
                return Result<StructureRead>::failure(
                    damagedReport(path, frame.offset, "a string table increment is out of order"));
            for (int i = int(trace.strings.size() - chunk.strings().first_id());
                 i < chunk.strings().values_size(); ++i)
                trace.strings.append(chunk.strings().values(i));
            break;
        case ChunkKind::Entities:
            fromProto(chunk.entities(), trace);
            break;
        case ChunkKind::Descriptors:
            fromProto(chunk.descriptors(), trace);
            break;
        case ChunkKind::Diagnostics:
            fromProto(chunk.diagnostics(), trace.diagnostics);
            break;
        case ChunkKind::Tracks:
        case ChunkKind::CounterDefinitions:
        case ChunkKind::CpuStacks:
        case ChunkKind::Flows:
        case ChunkKind::MemoryUsage:
        case ChunkKind::OverviewDescriptors:
            if (Status visited = visit(chunk, frame); !visited)
                return Result<StructureRead>::failure(visited.error());
            break;
        default:
            break;
        }
    }
    if (!sawHeader)
        return Result<StructureRead>::failure(
            "'" + path + "' is cut short before its header and holds no data; record it again.");
    return read;
}

} // namespace sightline::rep
