#include "views/timeline/frame/label_spans.h"

#include <algorithm>
#include <iterator>
#include <map>

namespace sightline::views {
namespace {

// True when every box ends before the next one starts: each is then wholly visible.
bool disjointInOrder(std::span<const DrawBox> boxes)
{
    for (size_t b = 1; b < boxes.size(); ++b)
        if (boxes[b].x0 < boxes[b - 1].x1) return false;
    return true;
}

} // namespace

void visibleLabelSpans(
    std::span<const DrawBox> boxes, float width, float minWidth, std::vector<LabelSpan>& out)
{
    out.clear();
    auto onScreen = [&](size_t b) {
        return LabelSpan {b, std::max(boxes[b].x0, 0.0f), std::min(boxes[b].x1, width)};
    };
    if (disjointInOrder(boxes)) {
        for (size_t b = 0; b < boxes.size(); ++b)
            if (const LabelSpan span = onScreen(b); span.x1 - span.x0 >= minWidth) out.push_back(span);
        return;
    }
    // From the topmost box down: a box shows what the boxes painted after it leave uncovered.
    // `covered` holds those boxes' union as disjoint stretches, start -> end.
    std::map<float, float> covered;
    for (size_t b = boxes.size(); b-- > 0;) {
        const LabelSpan whole = onScreen(b);
        if (whole.x0 >= whole.x1) continue;
        LabelSpan widest {b, 0, 0};
        auto consider = [&](float x0, float x1) {
            if (x1 - x0 > widest.x1 - widest.x0) widest = {b, x0, x1};
        };
        float uncoveredFrom = whole.x0;
        float unionStart = whole.x0, unionEnd = whole.x1;
        auto it = covered.upper_bound(whole.x0);
        if (it != covered.begin() && std::prev(it)->second >= whole.x0) --it;
        while (it != covered.end() && it->first <= whole.x1) {
            consider(uncoveredFrom, it->first);
            uncoveredFrom = std::max(uncoveredFrom, it->second);
            unionStart = std::min(unionStart, it->first);
            unionEnd = std::max(unionEnd, it->second);
            it = covered.erase(it);
        }
        consider(uncoveredFrom, whole.x1);
        covered.emplace(unionStart, unionEnd);
        if (widest.x1 - widest.x0 >= minWidth && widest.x1 > widest.x0) out.push_back(widest);
    }
    std::reverse(out.begin(), out.end());
}

} // namespace sightline::views
