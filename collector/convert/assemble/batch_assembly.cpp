#include "collector/convert/assemble/batch_assembly.h"

#include "collector/convert/assemble/column_room.h"
#include "model/common/parallel_for.h"

#include <algorithm>
#include <unordered_map>

namespace sightline::collector {

namespace {

constexpr uint32_t kUnused = UINT32_MAX;

// Where one batch's kept events go. A key names a track within the process (see the kinds below).
struct BatchPlan
{
    std::vector<uint64_t> keys; // in order of first kept event
    std::vector<size_t> counts; // kept events per key
    std::vector<EventColumns*> columns; // per key: its track's columns
    std::vector<size_t> next; // per key: where the batch's next event goes in its track
    std::vector<uint32_t> firstUse; // per descriptor of the batch: its first kept event (or kUnused)
    std::vector<uint32_t> detail; // per descriptor of the batch: the builder's id
    size_t outside = 0; // events the capture windows leave out
};

// The slot of a key in a plan, remembering the last one (a thread's events come in runs).
class SlotFinder
{
public:
    explicit SlotFinder(BatchPlan& plan)
        : m_plan(plan)
    { }
    uint32_t slot(uint64_t key)
    {
        if (key == m_lastKey) return m_last;
        auto [it, added] = m_slots.try_emplace(key, uint32_t(m_plan.keys.size()));
        if (added) {
            m_plan.keys.push_back(key);
            m_plan.counts.push_back(0);
        }
        m_lastKey = key;
        return m_last = it->second;
    }

private:
    BatchPlan& m_plan;
    std::unordered_map<uint64_t, uint32_t> m_slots;
    uint64_t m_lastKey = ~uint64_t(0);
    uint32_t m_last = 0;
};

// NVTX rows: a track per thread and domain; attributes are the batch's descriptors.
struct NvtxKind
{
    using Batch = NvtxBatch;
    static constexpr TrackKind kTrackKind = TrackKind::Nvtx;
    static const std::vector<NvtxRow>& events(const NvtxBatch& b) { return b.rows; }
    static bool isEvent(const NvtxRow& r) { return r.state == NvtxRow::State::Event; }
    static TimeRange times(const NvtxRow& r) { return {r.start, r.end}; }
    static uint64_t key(const NvtxBatch& b, const NvtxRow& r)
    {
        return nvtxStackKey(r.tid, b.attributes[r.attributes].domain);
    }
    static TrackId track(TraceBuilder& builder, Pid pid, uint64_t key)
    {
        return builder.hostTrack(TrackKind::Nvtx, pid, Tid(uint32_t(key >> 32)), DomainId(uint32_t(key)));
    }
    static size_t descriptorCount(const NvtxBatch& b) { return b.attributes.size(); }
    static uint32_t descriptor(const NvtxRow& r) { return r.attributes; }
    static uint32_t descriptorId(TraceBuilder& builder, const NvtxBatch& b, uint32_t index)
    {
        return builder.nvtxAttributesId(b.attributes[index]);
    }
    static void write(
        EventColumns& ev, size_t at, const NvtxBatch& b, const BatchPlan& plan, const NvtxRow& r)
    {
        ev.start[at] = r.start;
        ev.end[at] = std::max(r.start, r.end);
        ev.name[at] = b.names[r.name];
        ev.detail[at] = plan.detail[r.attributes];
    }
};

// OS-runtime calls: a track per thread, no descriptors.
struct OsCallKind
{
    using Batch = std::vector<HostEvent<OsCall>>;
    static constexpr TrackKind kTrackKind = TrackKind::OsRuntime;
    static const Batch& events(const Batch& b) { return b; }
    static bool isEvent(const HostEvent<OsCall>&) { return true; }
    static TimeRange times(const HostEvent<OsCall>& e) { return {e.event.start, e.event.end}; }
    static uint64_t key(const Batch&, const HostEvent<OsCall>& e) { return e.tid.value; }
    static TrackId track(TraceBuilder& builder, Pid pid, uint64_t key)
    {
        return builder.hostTrack(TrackKind::OsRuntime, pid, Tid(uint32_t(key)));
    }
    static size_t descriptorCount(const Batch&) { return 0; }
    static uint32_t descriptor(const HostEvent<OsCall>&) { return kUnused; }
    static uint32_t descriptorId(TraceBuilder&, const Batch&, uint32_t) { return 0; }
    static void write(EventColumns& ev, size_t at, const Batch&, const BatchPlan&, const HostEvent<OsCall>& e)
    {
        ev.start[at] = e.event.start;
        ev.end[at] = std::max(e.event.start, e.event.end);
        ev.name[at] = e.event.name;
        ev.value[at] = e.event.returnValue;
    }
};

// Calls fn(key, event) for each event of the batch the windows keep; returns how many they drop.
template <class Kind, class Fn>
size_t forEachKept(const typename Kind::Batch& batch, const CaptureWindows& windows, Fn&& fn)
{
    size_t outside = 0;
    const auto& events = Kind::events(batch);
    for (size_t i = 0; i < events.size(); ++i) {
        const auto& e = events[i];
        if (!Kind::isEvent(e)) continue;
        const TimeRange t = Kind::times(e);
        if (!windows.keeps(t.start, t.end)) {
            ++outside;
            continue;
        }
        fn(i, e);
    }
    return outside;
}

template <class Kind>
size_t addBatches(const std::vector<typename Kind::Batch>& batches, Pid pid, const CaptureWindows& windows,
    TraceBuilder& builder)
{
    std::vector<BatchPlan> plans(batches.size());
    parallelFor(batches.size(), [&](size_t b) {
        const auto& batch = batches[b];
        BatchPlan& plan = plans[b];
        plan.firstUse.assign(Kind::descriptorCount(batch), kUnused);
        SlotFinder finder(plan);
        plan.outside = forEachKept<Kind>(batch, windows, [&](size_t i, const auto& e) {
            ++plan.counts[finder.slot(Kind::key(batch, e))];
            const uint32_t d = Kind::descriptor(e);
            if (d != kUnused && plan.firstUse[d] == kUnused) plan.firstUse[d] = uint32_t(i);
        });
    });

    // In batch order: descriptor ids as first met, tracks, and each batch's place in them.
    TrackGrowth growth;
    std::vector<std::vector<TrackId>> tracks(batches.size());
    size_t outside = 0;
    for (size_t b = 0; b < batches.size(); ++b) {
        BatchPlan& plan = plans[b];
        outside += plan.outside;
        std::vector<uint32_t> used;
        for (uint32_t d = 0; d < plan.firstUse.size(); ++d)
            if (plan.firstUse[d] != kUnused) used.push_back(d);
        std::sort(used.begin(), used.end(),
            [&plan](uint32_t a, uint32_t c) { return plan.firstUse[a] < plan.firstUse[c]; });
        plan.detail.assign(plan.firstUse.size(), 0);
        for (uint32_t d : used)
            plan.detail[d] = Kind::descriptorId(builder, batches[b], d);
        for (size_t slot = 0; slot < plan.keys.size(); ++slot) {
            tracks[b].push_back(Kind::track(builder, pid, plan.keys[slot]));
            plan.next.push_back(growth.claim(tracks[b].back(), plan.counts[slot]));
        }
    }
    growth.grow(builder, Kind::kTrackKind);
    for (size_t b = 0; b < batches.size(); ++b)
        growth.settle(builder, tracks[b], plans[b].next, plans[b].columns);

    parallelFor(batches.size(), [&](size_t b) {
        const auto& batch = batches[b];
        BatchPlan& plan = plans[b];
        plan.keys.clear();
        plan.counts.clear();
        SlotFinder finder(plan); // finds the slots again, in the same order
        forEachKept<Kind>(batch, windows, [&](size_t, const auto& e) {
            const uint32_t slot = finder.slot(Kind::key(batch, e));
            Kind::write(*plan.columns[slot], plan.next[slot]++, batch, plan, e);
        });
    });
    return outside;
}

} // namespace

size_t addNvtxBatches(const ProcessCapture& p, const CaptureWindows& windows, TraceBuilder& builder)
{
    return addBatches<NvtxKind>(p.nvtx, p.process.pid, windows, builder);
}

size_t addOsCallBatches(const ProcessCapture& p, const CaptureWindows& windows, TraceBuilder& builder)
{
    return addBatches<OsCallKind>(p.osCalls, p.process.pid, windows, builder);
}

} // namespace sightline::collector
