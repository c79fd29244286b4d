#include "views/common/stream_name.h"

#include <algorithm>

namespace sightline::views {

QString streamName(const Trace& trace, const TrackKey& key)
{
    const bool isDefault = std::any_of(trace.streams.begin(), trace.streams.end(), [&](const CudaStream& s) {
        return s.isDefault && s.pid == key.pid && s.device == key.device && s.context == key.context
            && s.stream == key.stream;
    });
    return isDefault ? QStringLiteral("Stream %1 (default)").arg(key.stream.value)
                     : QStringLiteral("Stream %1").arg(key.stream.value);
}

bool onStream(const TrackKey& key)
{
    return isGpuKind(key.kind) || (key.tid.value == 0 && key.stream.value != 0);
}

} // namespace sightline::views
