#include "views/timeline/interaction/trace_swap.h"

namespace sightline::views {

ChosenRows chosenRows(const std::vector<RowKey>& keys, const RowTree& rows, const RowLayout& layout,
    int scrollY, int viewportHeight)
{
    ChosenRows chosen;
    for (size_t n = 0; n < rows.size(); ++n)
        if (rows.node(int(n)).isGroup()) chosen.expanded[keys[n]] = rows.node(int(n)).expanded;
    if (scrollY == 0) return chosen; // the top stays the top
    const auto [first, last] = layout.rowsBetween(scrollY, scrollY + viewportHeight);
    for (size_t r = first; r < last; ++r) {
        const VisibleRow& row = layout.rows()[r];
        chosen.topRows.emplace_back(keys[size_t(row.node)], scrollY - row.top);
    }
    return chosen;
}

void applyExpansion(RowTree& rows, const std::vector<RowKey>& keys, const ChosenRows& chosen)
{
    for (size_t n = 0; n < rows.size(); ++n) {
        if (!rows.node(int(n)).isGroup()) continue;
        const auto found = chosen.expanded.find(keys[n]);
        if (found != chosen.expanded.end()) rows.setExpanded(int(n), found->second);
    }
}

std::optional<int> scrollOfTopRow(
    const std::vector<RowKey>& keys, const RowLayout& layout, const ChosenRows& chosen)
{
    if (chosen.topRows.empty()) return std::nullopt;
    std::map<RowKey, int> topOf;
    for (const VisibleRow& row : layout.rows())
        topOf.emplace(keys[size_t(row.node)], row.top);
    for (const auto& [key, offset] : chosen.topRows)
        if (const auto found = topOf.find(key); found != topOf.end()) return found->second + offset;
    return std::nullopt;
}

std::optional<EventRef> sameEvent(const Trace& from, EventRef event, const Trace& to)
{
    if (event.track.value >= from.trackCount()) return std::nullopt;
    const Track& track = from.track(event.track);
    if (event.index >= track.size()) return std::nullopt;
    const Timestamp start = track.events.start[event.index];
    const Timestamp end = track.events.end[event.index];
    const std::string_view name = from.strings[track.events.name[event.index]];
    for (uint32_t t = 0; t < to.trackCount(); ++t) {
        const TrackId id(t);
        const Track& candidate = to.track(id);
        if (!(candidate.key == track.key)) continue;
        for (uint32_t lane = 0; lane < candidate.laneCount(); ++lane) {
            const IndexRange at = to.eventsStartingIn(id, lane, TimeRange {start, start + 1});
            for (uint32_t i = at.begin; i < at.end; ++i)
                if (candidate.events.end[i] == end && to.strings[candidate.events.name[i]] == name)
                    return EventRef {id, i};
        }
        return std::nullopt;
    }
    return std::nullopt;
}

} // namespace sightline::views
