#include "timeline_fixture.h"

#include "generate.h"

#include <map>
#include <mutex>

namespace sightline::testing {

std::shared_ptr<const Trace> generatedTrace(uint64_t events)
{
    static std::mutex mutex;
    static std::map<uint64_t, std::shared_ptr<const Trace>> cache;
    const std::lock_guard<std::mutex> lock(mutex);
    auto& slot = cache[events];
    if (!slot) {
        gen::GeneratorOptions options;
        options.events = events;
        options.seed = 1;
        slot = std::make_shared<const Trace>(gen::generateTrace(options));
    }
    return slot;
}

std::optional<EventRef> findEvent(
    const Trace& trace, TrackKind kind, const std::function<bool(const Track&, EventRef)>& accept)
{
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
        const Track& track = trace.tracks[t];
        if (track.key.kind != kind) continue;
        for (uint32_t i = 0; i < track.size(); ++i)
            if (!accept || accept(track, EventRef {TrackId(t), i})) return EventRef {TrackId(t), i};
    }
    return std::nullopt;
}

} // namespace sightline::testing
