#include "collector/convert/assemble/gpu_assembly.h"

#include "collector/convert/assemble/column_room.h"
#include "collector/convert/assemble/first_seen.h"
#include "model/common/parallel_for.h"

namespace sightline::collector {

namespace {

// Per kind of operation: the descriptor an event carries, its id in the builder, and the name
// and value add() stores.
template <class Event> struct GpuKind;

template <> struct GpuKind<KernelEvent>
{
    using Descriptor = KernelLaunch;
    static constexpr TrackKind kTrackKind = TrackKind::Kernels;
    static const Descriptor& descriptor(const KernelEvent& e) { return e.launch; }
    static uint32_t id(TraceBuilder& builder, const Descriptor& d) { return builder.kernelLaunchId(d); }
    static StringId name(const TraceBuilder&, const KernelEvent& e, uint32_t) { return e.name; }
    static void setValue(EventColumns&, size_t, const KernelEvent&) { }
};

// Memory operations and synchronisation are named after their operation.
template <class Event, TrackKind kKind, uint32_t (TraceBuilder::*kId)(const decltype(Event::op)&),
    StringId (TraceBuilder::*kName)(uint32_t) const>
struct OperationKind
{
    using Descriptor = decltype(Event::op);
    static constexpr TrackKind kTrackKind = kKind;
    static const Descriptor& descriptor(const Event& e) { return e.op; }
    static uint32_t id(TraceBuilder& builder, const Descriptor& d) { return (builder.*kId)(d); }
    static StringId name(const TraceBuilder& builder, const Event&, uint32_t id)
    {
        return (builder.*kName)(id);
    }
};

template <>
struct GpuKind<MemoryEvent>
    : OperationKind<MemoryEvent, TrackKind::Memory, &TraceBuilder::memoryOpId, &TraceBuilder::memoryOpName>
{
    static void setValue(EventColumns& ev, size_t at, const MemoryEvent& e)
    {
        ev.value[at] = int64_t(e.bytes);
    }
};

template <>
struct GpuKind<SyncEvent>
    : OperationKind<SyncEvent, TrackKind::Synchronization, &TraceBuilder::syncOpId, &TraceBuilder::syncOpName>
{
    static void setValue(EventColumns&, size_t, const SyncEvent&) { }
};

struct GpuRowKeyHash
{
    size_t operator()(const GpuRowKey& k) const noexcept
    {
        const uint64_t h
            = (uint64_t(k.device.value) << 40) ^ (uint64_t(k.context.value) << 20) ^ k.stream.value;
        return size_t(h * 0x9e3779b97f4a7c15ull);
    }
};

constexpr uint32_t kLeftOut = UINT32_MAX;

// Where one batch's kept events go.
template <class Event> struct GpuBatchPlan
{
    using Descriptor = typename GpuKind<Event>::Descriptor;
    struct Placed
    {
        uint32_t row = kLeftOut; // the batch's row slot (kLeftOut: not kept)
        uint32_t descriptor = 0; // the batch's descriptor slot
    };
    std::vector<Placed> placed; // per event of the batch
    std::vector<GpuRowKey> rows; // in order of first kept event
    std::vector<size_t> counts; // per row: kept events
    std::vector<Descriptor> descriptors; // in order of first kept event
    std::vector<uint32_t> ids; // per descriptor: the builder's id
    std::vector<size_t> next; // per row: where the batch's next event goes in its track
    std::vector<EventColumns*> columns; // per row: its track's columns
    size_t outside = 0;
};

template <class Event>
void planBatch(std::vector<GpuEvent<Event>>& batch, const GpuRowRule<Event>& rowOf, GpuBatchPlan<Event>& plan)
{
    using Kind = GpuKind<Event>;
    FirstSeen<GpuRowKey, GpuRowKeyHash> rows;
    FirstSeen<typename Kind::Descriptor, DescriptorHash> descriptors;
    plan.placed.resize(batch.size());
    for (size_t i = 0; i < batch.size(); ++i) {
        const std::optional<GpuRowKey> row = rowOf(batch[i]);
        if (!row) {
            ++plan.outside;
            continue;
        }
        auto& placed = plan.placed[i];
        placed.row = rows.index(*row);
        placed.descriptor = descriptors.index(Kind::descriptor(batch[i].event));
        if (placed.row == plan.counts.size()) plan.counts.push_back(0);
        ++plan.counts[placed.row];
    }
    plan.rows = rows.values();
    plan.descriptors = descriptors.values();
}

template <class Event>
void copyBatch(
    const std::vector<GpuEvent<Event>>& batch, GpuBatchPlan<Event>& plan, const TraceBuilder& builder)
{
    using Kind = GpuKind<Event>;
    for (size_t i = 0; i < batch.size(); ++i) {
        const auto& placed = plan.placed[i];
        if (placed.row == kLeftOut) continue;
        const Event& e = batch[i].event;
        EventColumns& ev = *plan.columns[placed.row];
        const size_t at = plan.next[placed.row]++;
        const uint32_t id = plan.ids[placed.descriptor];
        ev.start[at] = e.start;
        ev.end[at] = std::max(e.start, e.end);
        ev.name[at] = Kind::name(builder, e, id);
        ev.correlation[at] = e.correlation;
        ev.detail[at] = id;
        Kind::setValue(ev, at, e);
    }
}

template <class Event>
size_t addBatches(std::vector<std::vector<GpuEvent<Event>>>& batches, Pid pid, const GpuRowRule<Event>& rowOf,
    TraceBuilder& builder)
{
    using Kind = GpuKind<Event>;
    std::vector<GpuBatchPlan<Event>> plans(batches.size());
    parallelFor(batches.size(), [&](size_t b) { planBatch(batches[b], rowOf, plans[b]); });

    // In batch order: descriptor ids and tracks as first met, and each batch's place in them.
    TrackGrowth growth;
    std::vector<std::vector<TrackId>> tracks(batches.size());
    size_t outside = 0;
    for (size_t b = 0; b < batches.size(); ++b) {
        GpuBatchPlan<Event>& plan = plans[b];
        outside += plan.outside;
        for (const auto& descriptor : plan.descriptors)
            plan.ids.push_back(Kind::id(builder, descriptor));
        for (size_t slot = 0; slot < plan.rows.size(); ++slot) {
            const GpuRowKey& row = plan.rows[slot];
            tracks[b].push_back(builder.gpuTrack(Kind::kTrackKind, pid, row.device, row.context, row.stream));
            plan.next.push_back(growth.claim(tracks[b].back(), plan.counts[slot]));
        }
    }
    growth.grow(builder, Kind::kTrackKind);
    for (size_t b = 0; b < batches.size(); ++b)
        growth.settle(builder, tracks[b], plans[b].next, plans[b].columns);

    parallelFor(batches.size(), [&](size_t b) { copyBatch(batches[b], plans[b], builder); });
    return outside;
}

} // namespace

size_t addGpuBatches(std::vector<std::vector<GpuEvent<KernelEvent>>>& batches, Pid pid,
    const GpuRowRule<KernelEvent>& rowOf, TraceBuilder& builder)
{
    return addBatches(batches, pid, rowOf, builder);
}

size_t addGpuBatches(std::vector<std::vector<GpuEvent<MemoryEvent>>>& batches, Pid pid,
    const GpuRowRule<MemoryEvent>& rowOf, TraceBuilder& builder)
{
    return addBatches(batches, pid, rowOf, builder);
}

size_t addGpuBatches(std::vector<std::vector<GpuEvent<SyncEvent>>>& batches, Pid pid,
    const GpuRowRule<SyncEvent>& rowOf, TraceBuilder& builder)
{
    return addBatches(batches, pid, rowOf, builder);
}

} // namespace sightline::collector
