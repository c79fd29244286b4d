// Nesting depth of ranges from containment alone, written independently of the model's layout
// code, for the importer tests: sort by start (the longer first on equal starts), keep a stack
// of enclosing ends (an instant counts as one nanosecond, as in model/core/time.h), and a
// range's depth is the number of ranges still open when it starts. `proper` is false when a
// range ends after the range enclosing it (the rows do not nest).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace sightline::test {

struct Range
{
    int64_t start = 0, end = 0;
};

struct Nesting
{
    std::vector<std::string> lines; // "start end depth", sorted
    bool proper = true;
};

inline Nesting nestingOf(std::vector<Range> ranges)
{
    std::stable_sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) {
        return a.start != b.start ? a.start < b.start : a.end > b.end;
    });
    Nesting result;
    std::vector<int64_t> open;
    for (const Range& r : ranges) {
        const int64_t end = std::max(r.end, r.start + 1);
        while (!open.empty() && open.back() <= r.start)
            open.pop_back();
        if (!open.empty() && end > open.back()) result.proper = false;
        result.lines.push_back(
            std::to_string(r.start) + " " + std::to_string(r.end) + " " + std::to_string(open.size()));
        open.push_back(end);
    }
    std::sort(result.lines.begin(), result.lines.end());
    return result;
}

} // namespace sightline::test
