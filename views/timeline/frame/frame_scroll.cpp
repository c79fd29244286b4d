#include "views/timeline/frame/frame_scroll.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace sightline::views {

void FrameScroll::reset(const TimeScale& scale)
{
    m_valid = true;
    m_scale = scale;
    m_origin = double(scale.visible().start);
}

std::optional<PanStep> FrameScroll::panTo(const TimeScale& wanted, double devicePixelRatio) const
{
    if (!m_valid || wanted.width() != m_scale.width()
        || wanted.visible().duration() != m_scale.visible().duration())
        return std::nullopt;
    const double nsPerPixel = wanted.nanosecondsPerPixel();
    if (nsPerPixel < kMinNanosecondsPerPixel) return std::nullopt;
    const double pixels = (double(wanted.visible().start) - m_origin) / nsPerPixel;
    if (!(std::abs(pixels) < wanted.width() / 2)) return std::nullopt;
    const int shift = int(std::lround(pixels));
    const double deviceShift = shift * devicePixelRatio;
    if (deviceShift != std::round(deviceShift)) return std::nullopt; // fractional scaling
    PanStep step;
    step.shift = shift;
    step.origin = m_origin + shift * nsPerPixel;
    const Timestamp start = Timestamp(std::llround(step.origin));
    step.scale = TimeScale({start, start + wanted.visible().duration()}, wanted.width());
    return step;
}

void FrameScroll::commit(const PanStep& step)
{
    m_scale = step.scale;
    m_origin = step.origin;
}

std::vector<std::pair<int, int>> exposedColumns(int shift, int width)
{
    if (shift > 0) return {{0, 1}, {width - shift, width}};
    if (shift < 0) return {{0, -shift}};
    return {{0, 1}};
}

void shiftDrawList(DrawList& list, int shift, const TimeScale& scale, const Trace& trace)
{
    const double width = list.width;
    for (size_t l = 0; l < list.laneCount; ++l) {
        LaneDraw& lane = list.lanes[l];
        std::erase_if(lane.boxes, [&](DrawBox& box) {
            if (cutByEdge(box.x0, box.x1, width)) {
                const Track& track = trace.track(box.event.track);
                box.x0 = clipBoxX(scale.timeToX(track.events.start[box.event.index]), width);
                box.x1 = clipBoxX(scale.timeToX(track.events.end[box.event.index]), width);
            } else {
                box.x0 = clipBoxX(box.x0 - shift, width);
                box.x1 = clipBoxX(box.x1 - shift, width);
            }
            return box.x1 <= 0 || box.x0 >= width;
        });
        auto moved = [&](auto& span) {
            const int x0 = std::max(0, int(span.x) - shift);
            const int x1 = std::min(int(width), int(span.x) + int(span.width) - shift);
            if (x0 >= x1) return true;
            span.x = uint16_t(x0);
            span.width = uint16_t(x1 - x0);
            return false;
        };
        std::erase_if(lane.bars, moved);
        std::erase_if(lane.bands, moved);
    }
    list.scale = scale;
}

namespace {

// Drops what `spans` (bars or bands) has over columns [first, last), splitting those that
// cross `last`, and appends `added`, the freshly laid-out columns.
template <class Span>
void replaceColumns(std::vector<Span>& spans, const std::vector<Span>& added, int first, int last)
{
    std::vector<Span> split;
    std::erase_if(spans, [&](Span& span) {
        const int x0 = span.x, x1 = span.x + span.width;
        if (x1 <= first || x0 >= last) return false;
        if (x1 > last) {
            Span rest = span;
            rest.x = uint16_t(last);
            rest.width = uint16_t(x1 - last);
            split.push_back(rest);
        }
        if (x0 >= first) return true;
        span.width = uint16_t(first - x0);
        return false;
    });
    spans.insert(spans.end(), split.begin(), split.end());
    spans.insert(spans.end(), added.begin(), added.end());
}

} // namespace

void mergeColumns(DrawList& list, const DrawList& columns, int first, int last)
{
    std::vector<EventRef> fresh;
    for (size_t l = 0; l < list.laneCount && l < columns.laneCount; ++l) {
        LaneDraw& lane = list.lanes[l];
        const LaneDraw& added = columns.lanes[l];
        fresh.clear();
        for (const DrawBox& box : added.boxes)
            fresh.push_back(box.event);
        std::sort(fresh.begin(), fresh.end());
        // The new columns are laid out whole: what starts in them, or was laid out again,
        // comes from them alone.
        std::erase_if(lane.boxes, [&](const DrawBox& box) {
            const bool startsInside = box.x0 >= float(first) && box.x0 < float(last);
            return startsInside || std::binary_search(fresh.begin(), fresh.end(), box.event);
        });
        const size_t kept = lane.boxes.size();
        lane.boxes.insert(lane.boxes.end(), added.boxes.begin(), added.boxes.end());
        std::inplace_merge(
            lane.boxes.begin(), lane.boxes.begin() + ptrdiff_t(kept), lane.boxes.end(), drawnBefore);
        replaceColumns(lane.bars, added.bars, first, last);
        replaceColumns(lane.bands, added.bands, first, last);
    }
}

std::vector<std::vector<EventRef>> edgeBoxes(const DrawList& list)
{
    std::vector<std::vector<EventRef>> edges(list.laneCount);
    for (size_t l = 0; l < list.laneCount; ++l)
        for (const DrawBox& box : list.lanes[l].boxes)
            if (box.x0 < 0 || box.x1 > list.width) edges[l].push_back(box.event);
    return edges;
}

std::vector<LaneColumns> labelRepairs(const DrawList& list, const std::vector<std::vector<EventRef>>& before)
{
    std::vector<LaneColumns> repairs;
    for (size_t l = 0; l < list.laneCount && l < before.size(); ++l) {
        for (const DrawBox& box : list.lanes[l].boxes) {
            const bool onEdge = box.x0 < 0 || box.x1 > list.width;
            if (!onEdge && std::find(before[l].begin(), before[l].end(), box.event) == before[l].end())
                continue;
            const int x0 = std::max(0, int(std::floor(box.x0)));
            const int x1 = std::min(list.width, int(std::ceil(box.x1)));
            if (x0 < x1) repairs.push_back({l, x0, x1});
        }
    }
    return repairs;
}

void scrollImage(QImage& image, int shift)
{
    const int width = image.width();
    if (shift == 0 || std::abs(shift) >= width) return;
    const size_t moved = size_t(width - std::abs(shift)) * 4;
    for (int y = 0; y < image.height(); ++y) {
        auto* line = reinterpret_cast<uint32_t*>(image.scanLine(y));
        if (shift > 0)
            std::memmove(line, line + shift, moved);
        else
            std::memmove(line - shift, line, moved);
    }
}

} // namespace sightline::views
