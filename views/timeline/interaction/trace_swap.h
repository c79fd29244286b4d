// What a timeline keeps when its trace is replaced by another of the same report (its overview
// by its events, a range of them by another, a re-read): the rows the user opened or closed and
// the row at the top of the view, by what they show (RowKey), and the selected event, by its
// track's key, times and name. Row trees of two traces are built apart and their TrackIds
// differ; these keys do not. TimelineState::setTrace is the one user.
#pragma once

#include "views/timeline/rows/row_key.h"
#include "views/timeline/rows/row_layout.h"

#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace sightline::views {

struct ChosenRows
{
    std::map<RowKey, bool> expanded; // every group row's state
    // The rows shown from the top of the view down, each with how far the view starts below
    // its top: the first that the new tree also has keeps its place. Empty: the view is at
    // the top, and stays there.
    std::vector<std::pair<RowKey, int>> topRows;
};

ChosenRows chosenRows(const std::vector<RowKey>& keys, const RowTree& rows, const RowLayout& layout,
    int scrollY, int viewportHeight);
// Opens or closes the group rows of `rows` as they were chosen.
void applyExpansion(RowTree& rows, const std::vector<RowKey>& keys, const ChosenRows& chosen);
// The scroll position that shows the chosen top row where it was; none when no row matches.
std::optional<int> scrollOfTopRow(
    const std::vector<RowKey>& keys, const RowLayout& layout, const ChosenRows& chosen);

// The event of `to` that is `event` of `from`: on the track of the same key, with the same
// start, end and name; none when `to` does not hold it (a range that left it out).
std::optional<EventRef> sameEvent(const Trace& from, EventRef event, const Trace& to);

} // namespace sightline::views
