// What the rules share, computed once per analysis: the scope, the tracks sorted out by kind,
// each GPU's busy time as merged intervals, each API call's class, and per GPU the thread that
// launches its work. Rules read it; none of them walks the whole trace for these again.
#pragma once

#include "model/analysis/analysis.h"

#include <string_view>
#include <vector>

namespace sightline {

// What a CUDA API call does to its thread: launches work, waits for the GPU, copies or sets
// memory (cudaMemcpy and friends, which may also wait), or anything else.
enum class CallRole : uint8_t { Launch, Synchronization, Memory, Other };
CallRole roleOfCall(std::string_view name);
// Whether a copy or memset call returns before the GPU has done it ("...Async").
bool isAsyncApi(std::string_view name);
// NCCL and other collective communication kernels, by name.
bool isCommunicationKernel(std::string_view name);

struct Interval
{
    Timestamp start = 0;
    Timestamp end = 0;
    Duration duration() const { return end - start; }
};
using Intervals = std::vector<Interval>; // sorted, disjoint

// The parts of `intervals` inside `range`, summed.
Duration coveredTime(const Intervals& intervals, TimeRange range);
// The gaps between `intervals` inside `range` (its start to the first, between, last to its end).
Intervals gapsWithin(const Intervals& intervals, TimeRange range);

// One GPU's work over the scope.
struct GpuActivity
{
    DeviceId device;
    TimeRange active; // the first operation's start to the last one's end, within the scope
    Intervals compute; // non-communication kernels, merged
    Intervals communication; // communication kernels, merged
    Intervals memory; // copies and memsets, merged
    Intervals kernels; // compute and communication kernels, merged
    Intervals busy; // all of the above, merged
    size_t kernelCount = 0;
    size_t memoryOpCount = 0;
    TrackId launchingApiTrack; // the CUDA API track of the thread that launches most of its work
    bool hasLaunchingThread = false;
};

class AnalysisContext
{
public:
    AnalysisContext(const Trace& trace, const AnalysisOptions& options, const std::atomic<bool>* cancel);

    const Trace& trace;
    const AnalysisOptions& options;
    TimeRange scope; // the options' range, or the trace's span

    bool cancelled() const { return m_cancel && m_cancel->load(std::memory_order_relaxed); }
    const std::atomic<bool>* cancelRequest() const { return m_cancel; }
    std::string_view text(StringId id) const { return trace.strings[id]; }
    // Whether an event starting at `t` belongs to the scope (the stats engine's rule).
    bool inScope(Timestamp t) const { return t >= scope.start && t < scope.end; }

    const std::vector<TrackId>& tracksOf(TrackKind kind) const { return m_tracks[size_t(kind)]; }
    // Per GPU with work in the scope, busiest first.
    const std::vector<GpuActivity>& gpus() const { return m_gpus; }
    // The class of API call `index` of `track` (a CudaApi track).
    CallRole callRole(TrackId track, uint32_t index) const;
    // The launching API call of a GPU operation, when the trace has it.
    std::optional<EventRef> launchingCall(EventRef gpuOperation) const;
    // The outermost CUDA API calls of a thread (lane 0) overlapping `range`, by class, clipped.
    void hostTime(TrackId apiTrack, TimeRange range, Duration (&byClass)[4]) const;

private:
    void collectGpuActivity();

    const std::atomic<bool>* m_cancel;
    std::vector<std::vector<TrackId>> m_tracks;
    std::vector<CallRole> m_roleOfName; // by StringId, for the names API tracks use
    std::vector<GpuActivity> m_gpus;
};

} // namespace sightline
