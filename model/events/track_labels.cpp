#include "model/events/track_labels.h"

#include <algorithm>

namespace sightline {

std::string streamName(const Trace& trace, const TrackKey& key)
{
    const bool isDefault = std::any_of(trace.streams.begin(), trace.streams.end(), [&](const CudaStream& s) {
        return s.isDefault && s.pid == key.pid && s.device == key.device && s.context == key.context
            && s.stream == key.stream;
    });
    return "Stream " + std::to_string(key.stream.value) + (isDefault ? " (default)" : "");
}

std::string threadName(const Trace& trace, const TrackKey& key)
{
    const Thread* thread = trace.findThread(key.tid);
    if (thread && !thread->name.empty()) return thread->name + " [" + std::to_string(key.tid.value) + "]";
    return "Thread " + std::to_string(key.tid.value);
}

bool onStream(const TrackKey& key)
{
    return isGpuKind(key.kind) || (key.tid.value == 0 && key.stream.value != 0);
}

} // namespace sightline
