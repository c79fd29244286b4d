#include "model/format/chunks/structure_chunks.h"

#include "model/format/chunks/proto_convert.h"

#include <algorithm>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream.h>
#include <google/protobuf/wire_format_lite.h>
#include <limits>

namespace sightline::rep {
namespace {

constexpr uint64_t kMinBytesPerEvent = 3;

} // namespace

bool isBatch(ChunkKind kind)
{
    return kind == ChunkKind::Events || kind == ChunkKind::CounterBatch || kind == ChunkKind::CpuSampleBatch
        || kind == ChunkKind::ThreadStateBatch || kind == ChunkKind::EventStackBatch
        || kind == ChunkKind::Overview;
}

bool claimsFit(uint64_t events, uint64_t lanes, uint64_t tracks, uint64_t rawBytes)
{
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

namespace {

// A FrameStream as protobuf's input, so that a chunk's wire format is walked without holding it.
class FrameInput final : public google::protobuf::io::ZeroCopyInputStream
{
public:
    explicit FrameInput(FrameStream& stream)
        : m_stream(stream)
    { }

    bool Next(const void** data, int* size) override
    {
        if (m_backedUp == 0) {
            m_piece = m_stream.next();
            if (m_piece.empty()) return false;
            m_backedUp = int(m_piece.size());
        }
        *data = m_piece.data() + m_piece.size() - size_t(m_backedUp);
        *size = m_backedUp;
        m_count += m_backedUp;
        m_backedUp = 0;
        return true;
    }
    void BackUp(int count) override
    {
        m_backedUp = count;
        m_count -= count;
    }
    bool Skip(int count) override
    {
        const void* data = nullptr;
        int size = 0;
        while (count > 0) {
            if (!Next(&data, &size)) return false;
            if (size > count) BackUp(size - count);
            count -= std::min(size, count);
        }
        return true;
    }
    int64_t ByteCount() const override { return m_count; }

private:
    FrameStream& m_stream;
    std::span<const char> m_piece;
    int m_backedUp = 0; // the end of m_piece not yet handed out again
    int64_t m_count = 0;
};

struct TrackListClaims
{
    uint64_t tracks = 0, lanes = 0;
};

// Counts the track descriptors and lane sizes of a Tracks chunk from its compressed bytes, a
// piece at a time, without decoding it; none when `stream` finds the bytes damaged.
std::optional<TrackListClaims> scanTrackList(FrameStream& stream)
{
    using google::protobuf::internal::WireFormatLite;
    FrameInput input(stream);
    google::protobuf::io::CodedInputStream coded(&input);
    TrackListClaims claims;
    bool failed = false;
    // Walks the fields up to the current limit: `take(number, wireType)` reads those it wants
    // (true); the others are skipped.
    const auto walk = [&](auto&& take) {
        for (uint32_t tag = coded.ReadTag(); tag != 0 && !failed; tag = coded.ReadTag())
            if (!take(WireFormatLite::GetTagFieldNumber(tag), WireFormatLite::GetTagWireType(tag))
                && !WireFormatLite::SkipField(&coded, tag))
                failed = true;
        failed = failed || !coded.ConsumedEntireMessage();
    };
    // A message in a length-delimited field, walked with `take`.
    const auto nested = [&](auto&& take) {
        uint32_t length = 0;
        if (!coded.ReadVarint32(&length) || length > uint32_t(INT32_MAX)) {
            failed = true;
            return true;
        }
        const auto limit = coded.PushLimit(int(length));
        walk(take);
        coded.PopLimit(limit);
        return true;
    };
    const auto laneSizes = [&](WireFormatLite::WireType type) {
        if (type == WireFormatLite::WIRETYPE_VARINT) {
            uint64_t value = 0;
            failed = !coded.ReadVarint64(&value);
            ++claims.lanes;
            return true;
        }
        uint32_t length = 0;
        if (type != WireFormatLite::WIRETYPE_LENGTH_DELIMITED || !coded.ReadVarint32(&length)) return false;
        for (uint64_t left = length; left > 0 && !failed;) { // packed: one value per last byte
            const void* data = nullptr;
            int size = 0;
            if (!coded.GetDirectBufferPointer(&data, &size)) {
                failed = true;
                break;
            }
            const auto* bytes = static_cast<const unsigned char*>(data);
            const int take = int(std::min<uint64_t>(left, uint64_t(size)));
            claims.lanes
                += uint64_t(std::count_if(bytes, bytes + take, [](unsigned char b) { return b < 0x80; }));
            coded.Skip(take);
            left -= uint64_t(take);
        }
        return true;
    };
    const auto descriptor = [&](int number, WireFormatLite::WireType type) {
        return number == TrackDescriptor::kLaneSizesFieldNumber && laneSizes(type);
    };
    const auto tracks = [&](int number, WireFormatLite::WireType type) {
        if (number != Tracks::kTracksFieldNumber || type != WireFormatLite::WIRETYPE_LENGTH_DELIMITED)
            return false;
        ++claims.tracks;
        return nested(descriptor);
    };
    const auto chunk = [&](int number, WireFormatLite::WireType type) {
        return number == Chunk::kTracksFieldNumber && type == WireFormatLite::WIRETYPE_LENGTH_DELIMITED
            && nested(tracks);
    };
    walk(chunk);
    if (failed || stream.damaged()) return std::nullopt;
    return claims;
}

// The most events the event batches of `index` can hold: what the footer lists of each batch
// whose header was left unread, what the raw bytes of each other can hold, and never more than
// the whole file's bytes can stand for.
uint64_t eventsHeld(const FrameIndex& index, uint64_t fileBytes)
{
    uint64_t events = 0;
    for (const FrameRef& frame : index.frames)
        if (frame.header.kind == ChunkKind::Events)
            events += frame.headerRead ? frame.header.rawSize / kMinBytesPerEvent : frame.count;
    return std::min(events, fileBytes * kMaxRawBytesPerCompressedByte / kMinBytesPerEvent);
}

// Before a track list is decompressed: it may claim no more lanes than the events can fill,
// one empty lane per track aside (the rule of claimsFit), which a few kilobytes of zstd could
// otherwise make hundreds of millions of.
Status checkTrackList(std::span<const unsigned char> file, const FrameIndex& index, const FrameRef& frame,
    const std::string& path)
{
    FrameStream stream(framePayload(file, frame));
    const std::optional<TrackListClaims> claims = scanTrackList(stream);
    if (!claims)
        return Status::failure(damagedReport(path, frame.offset,
            stream.tooLarge() ? "its track list needs more memory to decompress than any report's does"
                              : "a chunk fails its checksum"));
    const uint64_t events = eventsHeld(index, file.size());
    if (claims->lanes > events + claims->tracks)
        return Status::failure(damagedReport(path, frame.offset,
            "its track list claims " + std::to_string(claims->lanes) + " lanes in "
                + std::to_string(claims->tracks) + " tracks, more than its " + std::to_string(events)
                + " events can fill"));
    return {};
}

} // namespace

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
        if (frame.header.kind == ChunkKind::Tracks)
            if (Status fits = checkTrackList(file, index, frame, path); !fits)
                return Result<StructureRead>::failure(fits.error());
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
            if (!fromProto(chunk.descriptors(), trace))
                return Result<StructureRead>::failure(
                    damagedReport(path, frame.offset, "a descriptor table increment is out of order"));
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
