// Correlation: the CUDA API call that launched a GPU operation, and the GPU operations an API
// call launched. CUPTI correlation ids are unique per process and grow with time, so inside a
// lane of an API or GPU track they are almost always sorted; such lanes are searched in place
// (no memory at all). A lane that is not sorted gets a permutation sorted by correlation id.
#pragma once

#include "model/core/track.h"

#include <optional>
#include <unordered_map>
#include <vector>

namespace sightline {

struct Trace;

class CorrelationIndex
{
public:
    void build(const Trace& trace);

    // The API call (runtime or driver) with the same correlation id in the same process.
    // When both a runtime and a driver call carry it, the outermost (runtime) call wins.
    std::optional<EventRef> launchingCall(const Trace& trace, EventRef gpuOperation) const;
    // The API call of process `pid` with correlation id `id` (the outermost, as above); none for
    // id 0. What made a GPU memory usage record (model/core/memory_usage.h).
    std::optional<EventRef> apiCall(const Trace& trace, Pid pid, CorrelationId id) const;
    // The GPU operations (kernels, memory, synchronization) with the API call's correlation id.
    std::vector<EventRef> gpuOperations(const Trace& trace, EventRef apiCall) const;
    // Every event of the given tracks carrying `id`, in track order.
    void findAll(const Trace& trace, const std::vector<TrackId>& tracks, CorrelationId id,
        std::vector<EventRef>& out) const;

    size_t residentBytes() const;

private:
    struct LaneOrder
    {
        TrackId track;
        uint32_t lane = 0;
        std::vector<uint32_t> byCorrelation; // empty when the lane is already sorted
    };
    const LaneOrder* unsortedLane(TrackId track, uint32_t lane) const;

    std::unordered_map<uint32_t, std::vector<TrackId>> m_apiTracksByPid;
    std::unordered_map<uint32_t, std::vector<TrackId>> m_gpuTracksByPid;
    std::vector<LaneOrder> m_unsorted; // sorted by (track, lane)
};

} // namespace sightline
