#include "model/core/track.h"

#include "model/common/huge_pages.h"

#include <algorithm>

namespace sightline {

size_t EventColumns::residentBytes() const
{
    return start.capacity() * sizeof(Timestamp) + end.capacity() * sizeof(Timestamp)
        + name.capacity() * sizeof(StringId) + correlation.capacity() * sizeof(CorrelationId)
        + detail.capacity() * sizeof(uint32_t) + value.capacity() * sizeof(int64_t);
}

void EventColumns::reserve(size_t n, TrackKind kind)
{
    start.reserve(n);
    end.reserve(n);
    name.reserve(n);
    if (hasCorrelation(kind)) correlation.reserve(n);
    if (hasDetail(kind)) detail.reserve(n);
    if (hasValue(kind)) value.reserve(n);
}

void EventColumns::resize(size_t n, TrackKind kind)
{
    resizeColumn(start, n);
    resizeColumn(end, n);
    resizeColumn(name, n);
    if (hasCorrelation(kind)) resizeColumn(correlation, n);
    if (hasDetail(kind)) resizeColumn(detail, n);
    if (hasValue(kind)) resizeColumn(value, n);
}

uint32_t Track::laneOf(uint32_t index) const
{
    auto it = std::upper_bound(laneBegin.begin(), laneBegin.end(), index);
    return uint32_t(it - laneBegin.begin()) - 1;
}

std::optional<TimeRange> trackSpan(const Track& track)
{
    std::optional<TimeRange> span;
    for (uint32_t l = 0; l < track.laneCount(); ++l) {
        const IndexRange lane = track.lane(l);
        if (!lane.empty()) widen(span, {track.events.start[lane.begin], track.events.end[lane.end - 1]});
    }
    return span;
}

void widen(std::optional<TimeRange>& into, TimeRange range)
{
    if (!into) {
        into = range;
        return;
    }
    into->start = std::min(into->start, range.start);
    into->end = std::max(into->end, range.end);
}

} // namespace sightline
