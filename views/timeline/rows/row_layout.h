// The vertical layout of the rows that are shown: the row tree flattened in display order
// (children below their expanded parent) with a top and a height in pixels. A lane-drawing
// row is one lane height per lane; every other row is one lane height. Rebuilt whenever a row
// is expanded or collapsed or the lane height changes (cheap: proportional to the rows).
// Invariant: rows are sorted by top and tile [0, totalHeight) without gaps.
#pragma once

#include "views/timeline/rows/row_tree.h"

#include <utility>
#include <vector>

namespace sightline::views {

struct VisibleRow
{
    int node = -1;
    int top = 0;
    int height = 0;
    uint32_t lanes = 1; // sub-rows drawn (1 unless the row draws a track's lanes)
    int bottom() const { return top + height; }
};

class RowLayout
{
public:
    void rebuild(const RowTree& tree, const Trace& trace, int laneHeight);

    const std::vector<VisibleRow>& rows() const { return m_rows; }
    int totalHeight() const { return m_rows.empty() ? 0 : m_rows.back().bottom(); }
    int laneHeight() const { return m_laneHeight; }

    // The index into rows() of the row at content coordinate y, or -1.
    int rowAt(int y) const;
    // The half-open index range of rows overlapping content coordinates [y0, y1).
    std::pair<size_t, size_t> rowsBetween(int y0, int y1) const;
    // The index into rows() of a node's row, or -1 when the node is not shown.
    int rowOfNode(int node) const;

private:
    std::vector<VisibleRow> m_rows;
    std::vector<int> m_rowOfNode;
    int m_laneHeight = 20;
};

} // namespace sightline::views
