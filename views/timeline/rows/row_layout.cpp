#include "views/timeline/rows/row_layout.h"

#include <algorithm>

namespace sightline::views {

void RowLayout::rebuild(const RowTree& tree, const Trace& trace, int laneHeight)
{
    m_laneHeight = std::max(4, laneHeight);
    m_rows.clear();
    m_rowOfNode.assign(tree.size(), -1);
    int top = 0;
    auto visit = [&](auto& self, int index) -> void {
        const RowNode& node = tree.node(index);
        VisibleRow row;
        row.node = index;
        row.top = top;
        if (node.content() == RowContent::Lanes)
            row.lanes = std::max<uint32_t>(1, trace.track(node.tracks.front()).laneCount());
        else if (node.content() == RowContent::Counter)
            row.lanes = kCounterRowLanes;
        row.height = int(row.lanes) * m_laneHeight;
        top += row.height;
        m_rowOfNode[size_t(index)] = int(m_rows.size());
        m_rows.push_back(row);
        if (node.isGroup() && node.expanded)
            for (int child : node.children)
                self(self, child);
    };
    for (int root : tree.roots())
        visit(visit, root);
}

int RowLayout::rowAt(int y) const
{
    if (m_rows.empty() || y < 0 || y >= totalHeight()) return -1;
    auto it = std::upper_bound(
        m_rows.begin(), m_rows.end(), y, [](int value, const VisibleRow& row) { return value < row.top; });
    return int(it - m_rows.begin()) - 1;
}

std::pair<size_t, size_t> RowLayout::rowsBetween(int y0, int y1) const
{
    auto first = std::upper_bound(m_rows.begin(), m_rows.end(), y0,
        [](int value, const VisibleRow& row) { return value < row.bottom(); });
    auto last = std::lower_bound(
        first, m_rows.end(), y1, [](const VisibleRow& row, int value) { return row.top < value; });
    return {size_t(first - m_rows.begin()), size_t(last - m_rows.begin())};
}

int RowLayout::rowOfNode(int node) const
{
    return node >= 0 && size_t(node) < m_rowOfNode.size() ? m_rowOfNode[size_t(node)] : -1;
}

} // namespace sightline::views
