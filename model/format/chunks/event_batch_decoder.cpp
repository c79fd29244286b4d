#include "model/format/chunks/event_batch_decoder.h"

#include "model/format/container.h"
#include "model/format/frame_index.h"

namespace sightline {

EventIdLimits eventIdLimits(const Trace& tables, TrackKind kind)
{
    EventIdLimits limits {tables.strings.size(), 0};
    switch (kind) {
    case TrackKind::CudaApi:
        limits.descriptors = tables.apiResults.size();
        break;
    case TrackKind::Kernels:
        limits.descriptors = tables.kernelLaunches.size();
        break;
    case TrackKind::Memory:
        limits.descriptors = tables.memoryOps.size();
        break;
    case TrackKind::Synchronization:
        limits.descriptors = tables.syncOps.size();
        break;
    case TrackKind::Nvtx:
        limits.descriptors = tables.nvtxAttributes.size();
        break;
    case TrackKind::OsRuntime:
        break;
    }
    return limits;
}

Status decodeEventColumns(const rep::EventBatch& b, TrackKind kind, const EventIdLimits& limits,
    EventColumns& out, size_t first, const std::string& path, uint64_t offset)
{
    const auto damaged
        = [&](const std::string& what) { return Status::failure(rep::damagedReport(path, offset, what)); };
    const uint64_t count = b.count();
    if (first + count > out.size()) return damaged("an event batch lies outside its lane");
    const auto expect = [&](int size, bool present) { return size_t(size) == (present ? count : 0); };
    if (!expect(b.start_delta_size(), true) || !expect(b.duration_size(), true)
        || !expect(b.name_size(), true) || !expect(b.correlation_delta_size(), hasCorrelation(kind))
        || !expect(b.detail_size(), hasDetail(kind)) || !expect(b.value_size(), hasValue(kind)))
        return damaged("an event batch has columns of the wrong length");

    const size_t strings = limits.strings;
    const size_t descriptors = limits.descriptors;
    constexpr uint64_t kMaxTime = uint64_t(1) << 62;
    uint64_t t = 0;
    Timestamp previousEnd = INT64_MIN;
    for (uint32_t k = 0; k < count; ++k) {
        const uint64_t duration = b.duration(int(k));
        t += b.start_delta(int(k));
        if (t >= kMaxTime || duration >= kMaxTime) return damaged("an event has an impossible time");
        const Timestamp start = Timestamp(t), end = Timestamp(t + duration);
        if (start < previousEnd) return damaged("events of one lane overlap");
        previousEnd = effectiveEnd(start, end);
        const uint32_t name = b.name(int(k));
        if (name >= strings) return damaged("an event names a string that does not exist");
        const size_t i = first + k;
        out.start[i] = start;
        out.end[i] = end;
        out.name[i] = StringId(name);
    }
    if (hasCorrelation(kind)) {
        int64_t c = 0;
        for (uint32_t k = 0; k < count; ++k) {
            c += b.correlation_delta(int(k));
            out.correlation[first + k] = CorrelationId(uint32_t(c));
        }
    }
    if (hasDetail(kind)) {
        for (uint32_t k = 0; k < count; ++k) {
            const uint32_t d = b.detail(int(k));
            if (d >= descriptors) return damaged("an event names a descriptor that does not exist");
            out.detail[first + k] = d;
        }
    }
    if (hasValue(kind))
        for (uint32_t k = 0; k < count; ++k)
            out.value[first + k] = b.value(int(k));
    return {};
}

EventBatchDecoder::EventBatchDecoder(Trace& trace, std::string path)
    : m_trace(trace)
    , m_path(std::move(path))
{ }

void EventBatchDecoder::allocate()
{
    m_received.clear();
    for (Track& track : m_trace.tracks) {
        track.events.resize(track.laneBegin.back(), track.key.kind);
        m_received.emplace_back(new std::atomic<uint32_t>[track.laneCount()]);
        for (uint32_t l = 0; l < track.laneCount(); ++l)
            m_received.back()[l] = 0;
    }
}

Status EventBatchDecoder::damaged(uint64_t offset, const std::string& what) const
{
    return Status::failure(rep::damagedReport(m_path, offset, what));
}

Status EventBatchDecoder::decode(const rep::EventBatch& b, uint64_t offset)
{
    const size_t storedTracks = m_slots.empty() ? m_trace.tracks.size() : m_slots.size();
    if (b.track() >= storedTracks) return damaged(offset, "an event batch names a track that does not exist");
    const uint32_t slot = m_slots.empty() ? b.track() : m_slots[b.track()];
    if (slot == rep::kUnknownTrack) return {}; // a track this reader leaves out
    Track& track = m_trace.tracks[slot];
    if (b.lane() >= track.laneCount())
        return damaged(offset, "an event batch names a lane that does not exist");
    const IndexRange lane = track.lane(b.lane());
    const uint64_t count = b.count();
    uint64_t first = b.first_index();
    if (!m_storedBegin.empty()) { // the lane holds a run of its stored events from storedBegin on
        const uint32_t storedBegin = m_storedBegin[slot][b.lane()];
        if (first < storedBegin) return damaged(offset, "an event batch lies outside its lane");
        first = first - storedBegin + lane.begin;
    }
    if (first < lane.begin || first + count > lane.end)
        return damaged(offset, "an event batch lies outside its lane");
    if (Status decoded = decodeEventColumns(
            b, track.key.kind, eventIdLimits(m_trace, track.key.kind), track.events, first, m_path, offset);
        !decoded)
        return decoded;
    m_received[slot][b.lane()] += uint32_t(count);
    return {};
}

Status EventBatchDecoder::checkComplete() const
{
    for (size_t t = 0; t < m_trace.tracks.size(); ++t)
        for (uint32_t l = 0; l < m_trace.tracks[t].laneCount(); ++l)
            if (m_received[t][l] != m_trace.tracks[t].lane(l).size())
                return Status::failure("'" + m_path
                    + "' is damaged: its index lists events that are missing from the file; "
                      "the report cannot be opened, record or export it again.");
    return {};
}

size_t EventBatchDecoder::receivedEvents() const
{
    size_t n = 0;
    for (size_t t = 0; t < m_trace.tracks.size(); ++t)
        for (uint32_t l = 0; l < m_trace.tracks[t].laneCount(); ++l)
            n += m_received[t][l];
    return n;
}

std::vector<std::vector<uint32_t>> EventBatchDecoder::receivedPerLane() const
{
    std::vector<std::vector<uint32_t>> out(m_trace.tracks.size());
    for (size_t t = 0; t < m_trace.tracks.size(); ++t)
        for (uint32_t l = 0; l < m_trace.tracks[t].laneCount(); ++l)
            out[t].push_back(m_received[t][l]);
    return out;
}

} // namespace sightline
