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

} // namespace sightline
