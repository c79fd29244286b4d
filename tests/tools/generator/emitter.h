// The generator's low level: one process's CUDA runtime/driver calls with the GPU work they
// correlate to, NVTX ranges and OS runtime calls, handed to a TraceBuilder with plausible
// timing. Invariants it keeps: every GPU operation starts after the API call carrying its
// correlation id starts; kernels and memory operations of one stream never overlap; push/pop
// ranges nest; and no call emits more events than the process's budget has left, so the
// generator can stop at any call and still land exactly on its target count.
#pragma once

#include "catalog.h"
#include "model/construct/trace_builder.h"
#include "random.h"

#include <optional>
#include <vector>

namespace sightline::gen {

constexpr TrackId kNoTrack {~0u};

// How many events a process may still emit. Once a request is refused, every later one is
// refused too, so the generated structure simply stops there.
struct EventBudget
{
    uint64_t limit = 0;
    uint64_t used = 0;
    bool exhausted = false;

    bool take(uint64_t n)
    {
        if (exhausted || used + n > limit) {
            exhausted = true;
            return false;
        }
        used += n;
        return true;
    }
    uint64_t left() const { return limit - used; }
};

// The catalog's names and launch configurations, interned into one trace.
struct InternedCatalog
{
    explicit InternedCatalog(TraceBuilder& builder);

    std::array<StringId, kKernelCount> kernelNames {};
    std::array<std::array<KernelLaunch, kKernelVariants>, kKernelCount> launches {};
    std::array<StringId, kApiCount> apiNames {};
    std::array<StringId, kOsFunctionCount> osNames {};
};

struct OpenRange
{
    Timestamp start = 0;
    StringId name;
    NvtxAttributes attributes;
    TrackId track = kNoTrack;
};

struct HostThread
{
    Tid tid;
    Timestamp now = 0;
    double hostGapNs = 6000; // typical host time between two calls (Python, the dispatcher)
    TrackId apiTrack = kNoTrack;
    TrackId osTrack = kNoTrack;
    std::vector<std::pair<DomainId, TrackId>> nvtxTracks;
    std::vector<OpenRange> pushed; // open push/pop ranges, innermost last
};

struct GpuStream
{
    DeviceId device;
    ContextId context;
    StreamId id;
    Timestamp busyUntil = 0; // end of the last kernel or memory operation
    Timestamp syncBusyUntil = 0; // end of the last synchronization event
    TrackId kernels = kNoTrack;
    TrackId memory = kNoTrack;
    TrackId sync = kNoTrack;
};

// A recorded CUDA event: completes when the work queued before it on its stream does.
struct CudaEvent
{
    uint32_t id = 0;
    GpuStream* stream = nullptr;
    Timestamp completes = 0;
};

struct CopyRequest
{
    CopyKind kind = CopyKind::HtoD;
    MemoryKind source = MemoryKind::Pinned;
    MemoryKind destination = MemoryKind::Device;
    uint64_t bytes = 0;
    Api api = Api::MemcpyAsync; // cudaMemcpy blocks whatever the memory kinds
    std::optional<DeviceId> peerSource; // peer copies: the device the data comes from
};

struct RangeStyle
{
    DomainId domain;
    StringId name;
    uint32_t color = 0; // 0: no colour
    uint32_t category = 0;
    PayloadType payloadType = PayloadType::None;
    uint64_t payload = 0;
};

class Emitter
{
public:
    Emitter(
        TraceBuilder& builder, const InternedCatalog& catalog, Pid pid, EventBudget& budget, Random& random);

    bool exhausted() const { return m_budget.exhausted; }
    bool charge(uint64_t events) { return m_budget.take(events); }
    Random& random() { return m_random; }

    // CUDA. Each returns false (and emits nothing) once the budget is spent.
    bool launchKernel(HostThread& thread, GpuStream& stream, Kernel kernel, uint32_t variant);
    bool copy(HostThread& thread, GpuStream& stream, const CopyRequest& request);
    bool memset(HostThread& thread, GpuStream& stream, uint64_t bytes, uint32_t value);
    bool synchronizeStream(HostThread& thread, GpuStream& stream);
    std::optional<CudaEvent> recordEvent(HostThread& thread, GpuStream& stream);
    bool waitEvent(HostThread& thread, GpuStream& stream, const CudaEvent& event);
    bool synchronizeEvent(HostThread& thread, const CudaEvent& event);
    bool queryEvent(HostThread& thread, const CudaEvent& event);
    // A call with no GPU work; a zero duration means the API's typical one.
    bool plainCall(HostThread& thread, Api api, Duration duration = 0, int32_t returnCode = 0);

    // OS runtime.
    bool osCall(HostThread& thread, OsFunction function, Duration duration, int64_t returnValue);
    // An OS call already paid for with charge(1).
    void recordOsCall(
        HostThread& thread, OsFunction function, Timestamp start, Timestamp end, int64_t returnValue);

    // NVTX. A refused push must not be popped; NvtxScope takes care of that.
    bool push(HostThread& thread, const RangeStyle& style);
    void pop(HostThread& thread);
    bool mark(HostThread& thread, const RangeStyle& style);
    std::optional<OpenRange> startRange(HostThread& thread, const RangeStyle& style);
    void endRange(const OpenRange& range, const HostThread& ender);

    // Host time passing between calls.
    void think(HostThread& thread) { thread.now += m_random.logNormal(thread.hostGapNs, 0.8); }
    // Spends what is left of the budget on small OS calls of `thread`.
    void padToLimit(HostThread& thread);

private:
    CorrelationId nextCorrelation() { return CorrelationId(++m_lastCorrelation); }
    bool wantsDriverCall(Api api);
    void addApiCall(HostThread& thread, Api api, Timestamp start, Timestamp end, CorrelationId correlation,
        int32_t returnCode, bool withDriver);
    void addSync(GpuStream& stream, SyncType type, uint32_t eventId, Timestamp start, Timestamp end,
        CorrelationId correlation);
    Timestamp gpuStart(const GpuStream& stream, Timestamp apiStart);
    TrackId gpuTrack(GpuStream& stream, TrackKind kind);
    TrackId nvtxTrack(HostThread& thread, DomainId domain);
    NvtxAttributes attributesOf(const RangeStyle& style, Tid tid) const;

    TraceBuilder& m_builder;
    const InternedCatalog& m_catalog;
    Pid m_pid;
    EventBudget& m_budget;
    Random& m_random;
    uint32_t m_lastCorrelation = 0;
    uint32_t m_lastEventId = 0;
};

// Pushes a range for the lifetime of the scope (if the budget allowed it).
class NvtxScope
{
public:
    NvtxScope(Emitter& emitter, HostThread& thread, const RangeStyle& style)
        : m_emitter(emitter)
        , m_thread(thread)
        , m_open(emitter.push(thread, style))
    { }
    ~NvtxScope()
    {
        if (m_open) m_emitter.pop(m_thread);
    }
    NvtxScope(const NvtxScope&) = delete;
    NvtxScope& operator=(const NvtxScope&) = delete;
    explicit operator bool() const { return m_open; }

private:
    Emitter& m_emitter;
    HostThread& m_thread;
    bool m_open;
};

} // namespace sightline::gen
