#include "random_trace.h"

#include "model/construct/trace_builder.h"

#include <cmath>
#include <string>

namespace sightline::test {

uint64_t Rng::next()
{
    uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

namespace {

// Properly nested ranges: a random forest laid out left to right.
template <class Emit>
void nestedRanges(Rng& rng, Timestamp begin, Timestamp end, int depth, uint32_t& budget, Emit emit)
{
    Timestamp t = begin;
    while (budget > 0 && t < end) {
        const Timestamp gap = Timestamp(rng.below(50));
        const Timestamp room = std::min<Timestamp>((end - t) / 3, depth == 0 ? 4000 : end - t);
        const Timestamp length = Timestamp(rng.below(uint64_t(std::max<Timestamp>(1, room))));
        const Timestamp s = t + gap;
        if (s + length > end) break;
        --budget;
        emit(s, s + length, depth);
        if (length > 20 && depth < 6 && rng.chance(50))
            nestedRanges(rng, s, s + length, depth + 1, budget, emit);
        t = s + length;
    }
}

} // namespace

CounterTimeline randomTimeline(Rng& rng, uint32_t samples, Timestamp start)
{
    CounterTimeline timeline;
    Timestamp t = start;
    for (uint32_t i = 0; i < samples; ++i) {
        timeline.starts.push_back(t);
        t += 1 + Timestamp(rng.chance(2) ? rng.below(100000) : rng.below(200));
    }
    timeline.end = t;
    return timeline;
}

std::vector<double> randomCounterValues(Rng& rng, size_t samples)
{
    std::vector<double> values(samples);
    for (size_t i = 0; i < samples; ++i) {
        if (rng.chance(3)) {
            const size_t run = std::min<size_t>(samples - i, 1 + rng.below(80));
            for (size_t j = 0; j < run; ++j)
                values[i + j] = std::nan("");
            i += run - 1;
            continue;
        }
        values[i] = double(rng.below(10001)) / 100.0;
    }
    return values;
}

namespace {

// Each launch's work: a kernel, a memory operation or a synchronization on one of `streams`
// streams over two GPUs, after its call and after the stream's previous work.
void addGpuWork(TraceBuilder& b, Rng& rng, uint32_t streams, Pid pid, const std::vector<StringId>& names,
    const std::vector<std::pair<Timestamp, uint32_t>>& launches)
{
    const ContextId ctx(1);
    std::vector<Timestamp> streamFree(streams, 0);
    for (const auto& [apiStart, corr] : launches) {
        const uint32_t s = uint32_t(rng.below(streams));
        const DeviceId dev(s % 2);
        const Timestamp start = std::max(streamFree[s], apiStart + Timestamp(rng.below(30)));
        const Timestamp end = start + Timestamp(rng.below(200));
        streamFree[s] = effectiveEnd(start, end);
        const StreamId stream(7 + s);
        switch (rng.below(3)) {
        case 0: {
            KernelLaunch k;
            k.shortName = names[rng.below(4)];
            k.grid = {uint32_t(1 + rng.below(64)), 1, 1};
            k.block = {128, uint32_t(1 + rng.below(4)), 1};
            k.registersPerThread = uint32_t(rng.below(255));
            k.dynamicSharedMemory = uint32_t(rng.below(4096));
            b.add(b.gpuTrack(TrackKind::Kernels, pid, dev, ctx, stream),
                KernelEvent {start, end, names[rng.below(6)], CorrelationId(corr), k});
            break;
        }
        case 1: {
            MemoryOp op;
            op.kind = rng.chance(20) ? MemoryOpKind::Memset : MemoryOpKind::Memcpy;
            op.copyKind = CopyKind(1 + rng.below(2));
            op.srcKind = MemoryKind(rng.below(2));
            op.dstKind = MemoryKind::Device;
            b.add(b.gpuTrack(TrackKind::Memory, pid, dev, ctx, stream),
                MemoryEvent {start, end, CorrelationId(corr), op, 1 + rng.below(1u << 30)});
            break;
        }
        default:
            b.add(b.gpuTrack(TrackKind::Synchronization, pid, dev, ctx, stream),
                SyncEvent {start, end, CorrelationId(corr),
                    SyncOp {SyncType(1 + rng.below(4)), uint32_t(rng.below(5))}});
        }
    }
}

} // namespace

Trace randomTrace(const RandomTraceOptions& o)
{
    Rng rng(o.seed);
    TraceBuilder b;
    b.metadata().toolVersion = "test";
    b.metadata().hostname = "host-" + std::to_string(o.seed);
    const Pid pid(100);
    b.addProcess({pid, "python", {"python", "train.py"}});
    std::vector<StringId> names;
    for (int i = 0; i < 12; ++i)
        names.push_back(b.intern("name_" + std::to_string(i)));
    const DomainId domain = b.addDomain("custom");
    const Timestamp horizon = Timestamp(o.eventsPerTrack) * 400;

    uint32_t correlation = 1;
    std::vector<std::pair<Timestamp, uint32_t>> launches;
    for (uint32_t th = 0; th < o.threads; ++th) {
        const Tid tid(1000 + th);
        b.addThread({pid, tid, "worker " + std::to_string(th)});
        const TrackId api = b.hostTrack(TrackKind::CudaApi, pid, tid);
        uint32_t budget = o.eventsPerTrack;
        nestedRanges(rng, 0, horizon, 0, budget, [&](Timestamp s, Timestamp e, int depth) {
            ApiCall call {s, e, names[rng.below(names.size())], CorrelationId(correlation++),
                {depth ? ApiClass::Driver : ApiClass::Runtime, int32_t(rng.below(3))}};
            b.add(api, call);
            if (depth == 0) launches.push_back({s, call.correlation.value});
        });
        const TrackId nvtx = b.hostTrack(TrackKind::Nvtx, pid, tid);
        budget = o.eventsPerTrack;
        nestedRanges(rng, 0, horizon, 0, budget, [&](Timestamp s, Timestamp e, int) {
            NvtxAttributes a;
            a.color = uint32_t(0xff000000u | rng.below(0xffffff));
            a.hasColor = true;
            a.endThread = tid;
            b.add(nvtx, NvtxEvent {s, rng.chance(5) ? s : e, names[rng.below(names.size())], a});
        });
        // Freely overlapping start/end ranges, with duplicates and instants.
        const TrackId startEnd = b.hostTrack(TrackKind::Nvtx, pid, tid, domain);
        for (uint32_t i = 0; i < o.eventsPerTrack / 4; ++i) {
            const Timestamp s = Timestamp(rng.below(uint64_t(horizon)));
            const Timestamp e = rng.chance(10) ? s : s + Timestamp(rng.below(uint64_t(horizon / 20)));
            NvtxAttributes a;
            a.style = NvtxStyle::StartEnd;
            a.domain = domain;
            a.endThread = Tid(1000 + uint32_t(rng.below(o.threads)));
            a.payloadType = PayloadType::Int64;
            a.payload = rng.below(1000);
            b.add(startEnd, NvtxEvent {s, e, names[rng.below(names.size())], a});
            if (rng.chance(5)) b.add(startEnd, NvtxEvent {s, e, names[0], a});
        }
        const TrackId os = b.hostTrack(TrackKind::OsRuntime, pid, tid);
        budget = o.eventsPerTrack / 2;
        nestedRanges(rng, 0, horizon, 0, budget, [&](Timestamp s, Timestamp e, int) {
            b.add(os, OsCall {s, e, names[rng.below(names.size())], int64_t(rng.below(200)) - 100});
        });
    }
    b.hostTrack(TrackKind::OsRuntime, pid, Tid(999)); // a row with no events

    addGpuWork(b, rng, o.streams, pid, names, launches);
    b.addGpu(
        {DeviceId(0), "NVIDIA H200", "GPU-0", "0000:19:00.0", 9, 0, 132, 141ull << 30, 1980000, 2619000});
    b.addDiagnostic({Severity::Warning, "test", "a diagnostic"});
    const uint32_t metrics
        = b.addCounterTimeline(randomTimeline(rng, o.counterSamples, Timestamp(rng.below(1000))));
    for (const char* name : {"SMs Active", "Tensor Active"}) {
        CounterSeries series;
        series.device = DeviceId(0);
        series.timeline = metrics;
        series.name = name;
        series.unit = "%";
        series.description = std::string(name) + " of the test";
        series.resolution = 0.01;
        series.values = randomCounterValues(rng, o.counterSamples);
        b.addCounterSeries(std::move(series));
    }
    CounterSeries memory;
    memory.source = CounterSource::GpuMemory;
    memory.device = DeviceId(0);
    memory.timeline = b.addCounterTimeline({{Timestamp(rng.below(5000))}, Timestamp(5000 + rng.below(5000))});
    memory.name = "Memory";
    memory.unit = "B";
    memory.values = {double(rng.below(1ull << 40))};
    b.addCounterSeries(std::move(memory));
    return b.build();
}

} // namespace sightline::test
