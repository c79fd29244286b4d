#include "views/timeline/interaction/correlated_events.h"

#include <algorithm>

namespace sightline::views {

std::optional<EventRef> launchingCall(const Trace& trace, EventRef gpuOperation)
{
    if (gpuOperation.track.value >= trace.tracks.size()) return std::nullopt;
    const Track& track = trace.track(gpuOperation.track);
    if (!isGpuKind(track.key.kind) || track.events.correlation.empty()) return std::nullopt;
    if (track.events.correlation[gpuOperation.index].value == 0) return std::nullopt;
    return trace.correlation.launchingCall(trace, gpuOperation);
}

bool flowRuns(const Trace& trace, EventRef from, EventRef to)
{
    const auto link = std::lower_bound(trace.flows.begin(), trace.flows.end(), std::pair(from, to),
        [](const FlowLink& l, const std::pair<EventRef, EventRef>& key) {
            return std::pair(l.from, l.to) < key;
        });
    return link != trace.flows.end() && link->from == from && link->to == to;
}

std::vector<EventRef> correlatedEvents(const Trace& trace, EventRef selected)
{
    std::vector<EventRef> related;
    if (selected.track.value >= trace.tracks.size()) return related;
    const Track& track = trace.track(selected.track);
    std::optional<EventRef> call;
    if (track.key.kind == TrackKind::CudaApi) {
        if (!track.events.correlation.empty() && track.events.correlation[selected.index].value != 0)
            call = selected;
    } else {
        call = launchingCall(trace, selected);
    }
    if (call) {
        related.push_back(*call);
        for (EventRef operation : trace.correlation.gpuOperations(trace, *call))
            related.push_back(operation);
    }
    for (EventRef partner : trace.flowPartners(selected))
        related.push_back(partner);
    std::sort(related.begin(), related.end());
    related.erase(std::unique(related.begin(), related.end()), related.end());
    std::erase(related, selected);
    return related;
}

} // namespace sightline::views
