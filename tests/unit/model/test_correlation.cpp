#include "../support/random_trace.h"
#include "model/construct/trace_builder.h"

#include <catch2/catch.hpp>
#include <map>

using namespace sightline;

TEST_CASE("correlation finds the launching call and the GPU work both ways")
{
    test::RandomTraceOptions o;
    o.eventsPerTrack = 1000;
    const Trace trace = test::randomTrace(o);
    // Brute force: every event by correlation id.
    std::multimap<uint32_t, EventRef> api, gpu;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
        const Track& track = trace.tracks[t];
        if (!hasCorrelation(track.key.kind)) continue;
        for (uint32_t i = 0; i < track.size(); ++i)
            (track.key.kind == TrackKind::CudaApi ? api : gpu)
                .emplace(track.events.correlation[i].value, EventRef {TrackId(t), i});
    }
    REQUIRE(gpu.size() > 100);
    for (const auto& [corr, ref] : gpu) {
        const auto call = trace.correlation.launchingCall(trace, ref);
        REQUIRE(call.has_value());
        REQUIRE(trace.track(call->track).events.correlation[call->index].value == corr);
        REQUIRE(trace.track(call->track).events.start[call->index]
            <= trace.track(ref.track).events.start[ref.index]);
        const auto ops = trace.correlation.gpuOperations(trace, *call);
        REQUIRE(std::find(ops.begin(), ops.end(), ref) != ops.end());
        REQUIRE(ops.size() == gpu.count(corr));
    }
}

TEST_CASE("correlation works when ids are not sorted along a lane")
{
    TraceBuilder b;
    const TrackId api = b.hostTrack(TrackKind::CudaApi, Pid(1), Tid(1));
    const TrackId kern = b.gpuTrack(TrackKind::Kernels, Pid(1), DeviceId(0), ContextId(1), StreamId(7));
    const StringId launch = b.intern("cudaLaunchKernel"), k = b.intern("k");
    // Ids deliberately decreasing along time (e.g. merged from several sources).
    for (uint32_t i = 0; i < 50; ++i) {
        b.add(
            api, ApiCall {Timestamp(i) * 100, Timestamp(i) * 100 + 10, launch, CorrelationId(1000 - i), {}});
        b.add(kern,
            KernelEvent {Timestamp(i) * 100 + 20, Timestamp(i) * 100 + 50, k, CorrelationId(1000 - i), {}});
    }
    const Trace trace = b.build();
    for (uint32_t i = 0; i < 50; ++i) {
        const TrackId kernelTrack = trace.tracks[0].key.kind == TrackKind::Kernels ? TrackId(0) : TrackId(1);
        const auto call = trace.correlation.launchingCall(trace, {kernelTrack, i});
        REQUIRE(call);
        CHECK(trace.track(call->track).events.start[call->index] + 20
            == trace.track(kernelTrack).events.start[i]);
    }
    CHECK(trace.correlation.residentBytes() > 0);
}
