// The timing model behind the focused scenarios (scenario.h): one host thread of one process
// issuing CUDA runtime calls to the default stream of one sm_90 GPU, every time fixed:
//   cudaLaunchKernel takes 5 us and cudaMemcpyAsync from pinned memory 6 us of the thread;
//   GPU work starts 3 us after its call starts, or when the stream's previous work ends if
//   later; copies take 1.2 us plus their bytes at 24 GB/s (9 GB/s from or to pageable memory),
//   memsets 1 us plus their bytes at 2500 GB/s;
//   blocking calls (copies from or to pageable memory, cudaMemcpy, cudaMemset, synchronization)
//   return 5 us after the GPU work they wait for ends, and take at least 2 us;
//   after every call the thread works `hostGap` outside CUDA calls.
// Each call's GPU work carries its correlation id; planted ones are recorded as they are made.
#pragma once

#include "model/construct/trace_builder.h"
#include "scenario.h"

#include <algorithm>

namespace sightline::gen {

inline constexpr Duration kScenarioLaunchCall = 5000; // cudaLaunchKernel's length
inline constexpr Duration kScenarioLaunchLatency = 3000; // a call's start to its GPU work's, at the earliest

class ScenarioWriter
{
public:
    // Registers the process, its thread, the GPU, its context and stream in `builder`.
    ScenarioWriter(TraceBuilder& builder, std::vector<PlantedEvent>& planted, Duration hostGap);

    Timestamp now() const { return m_now; }
    Timestamp gpuBusyUntil() const { return m_busyUntil; }
    void setHostGap(Duration gap) { m_hostGap = gap; }
    // Host work outside CUDA calls until `t` (nothing when `t` has passed).
    void workUntil(Timestamp t) { m_now = std::max(m_now, t); }

    // Each records its GPU work as planted when `plant` is given; returns the kernel's span.
    TimeRange launch(const KernelLaunch& launch, Duration length, std::optional<Plant> plant);
    void copy(CopyKind kind, MemoryKind source, MemoryKind destination, uint64_t bytes, bool async,
        std::optional<Plant> plant);
    void memset(uint64_t bytes, std::optional<Plant> plant); // cudaMemset
    // cudaDeviceSynchronize or cudaStreamSynchronize; a planted one is recorded by its call.
    void synchronize(std::string_view api, std::optional<Plant> plant);

    // An NVTX push/pop range "step" around what is called in between.
    void beginStep() { m_stepStart = m_now; }
    void endStep();

private:
    CorrelationId nextCorrelation() { return CorrelationId(++m_lastCorrelation); }
    Timestamp gpuStart(Timestamp call) const;
    TimeRange addMemoryEvent(MemoryEvent event, Duration length, std::optional<Plant> plant);
    void addCall(std::string_view api, Timestamp start, Timestamp end, CorrelationId correlation);

    TraceBuilder& m_builder;
    std::vector<PlantedEvent>& m_planted;
    Duration m_hostGap;
    TrackId m_api, m_nvtx, m_kernels, m_memory, m_sync;
    StringId m_stepName;
    Timestamp m_now;
    Timestamp m_busyUntil = 0;
    Timestamp m_stepStart = 0;
    uint32_t m_lastCorrelation = 0;
};

} // namespace sightline::gen
