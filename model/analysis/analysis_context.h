// What the rules share, computed once per analysis: the scope, the tracks sorted out by kind,
// each GPU's busy time as merged intervals, each API call's role, the launching call of every
// GPU operation (launch_table.h), and per GPU the thread that launches its work. Rules read
// it; none of them walks the whole trace for these again.
#pragma once

#include "model/analysis/analysis.h"
#include "model/analysis/intervals.h"
#include "model/analysis/launch_table.h"

#include <string_view>
#include <vector>

namespace sightline {

// What a CUDA API call does to its thread: launches work, waits for the GPU, copies or sets
// memory (cudaMemcpy and friends, which may also wait), or anything else.
enum class CallRole : uint8_t { Launch, Synchronization, Memory, Other };
inline constexpr size_t kCallRoleCount = 4;
CallRole roleOfCall(std::string_view name);
// Whether a copy or memset call returns before the GPU has done it ("...Async").
bool isAsyncApi(std::string_view name);
// NCCL and other collective communication kernels, by name.
bool isCommunicationKernel(std::string_view name);

// One GPU's work over the scope.
struct GpuActivity
{
    DeviceId device;
    TimeRange active; // the first operation's start to the last one's end, within the scope
    IntervalSet compute; // non-communication kernels
    Intervals communication; // communication kernels, merged
    Intervals memory; // copies and memsets, merged
    IntervalSet kernels; // compute and communication kernels
    IntervalSet busy; // all of the above
    size_t kernelCount = 0;
    size_t memoryOpCount = 0;
    TrackId launchingApiTrack; // the CUDA API track of the thread that launches most of its work
    bool hasLaunchingThread = false;
};

// A kernel in the scope with the call that launched it.
struct LaunchedKernel
{
    EventRef kernel;
    TimeRange kernelRange;
    TimeRange callRange;
    StringId shortName;
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
    // The role of API call `index` of `track` (a CudaApi track).
    CallRole callRole(TrackId track, uint32_t index) const;
    // The launching API call of a GPU operation, when the trace has it.
    std::optional<EventRef> launchingCall(EventRef gpuOperation) const;
    // Every kernel in the scope whose launching call the report has (built on first use).
    const std::vector<LaunchedKernel>& launchedKernels() const;
    // The outermost CUDA API calls of a thread (lane 0) overlapping `range`, by role, clipped.
    void hostTime(TrackId apiTrack, TimeRange range, Duration (&byRole)[kCallRoleCount]) const;
    // The same summed over `ranges` sorted by start (they may overlap), in one sweep.
    void hostTime(TrackId apiTrack, const Intervals& ranges, Duration (&byRole)[kCallRoleCount]) const;

private:
    void classifyCallNames();
    void collectGpuActivity();
    void chooseLaunchingThread(GpuActivity& gpu, uint32_t pid) const;

    const std::atomic<bool>* m_cancel;
    std::vector<std::vector<TrackId>> m_tracks;
    std::vector<CallRole> m_roleOfName; // by StringId, for the names API tracks use
    std::vector<GpuActivity> m_gpus;
    LaunchTable m_launches;
    mutable std::optional<std::vector<LaunchedKernel>> m_launchedKernels;
};

} // namespace sightline
