// The row tree on the timeline's left: one label per shown row, indented by depth, with a
// disclosure triangle on group rows (click it, or double-click the name, to expand or
// collapse). It scrolls with the canvas (same TimelineState scroll position and row layout)
// and marks the rows that hold the selected event or its correlated events.
#pragma once

#include "views/timeline/interaction/timeline_state.h"

#include <QWidget>

namespace sightline::views {

class RowHeaderPane : public QWidget
{
    Q_OBJECT
public:
    explicit RowHeaderPane(TimelineState& state, QWidget* parent = nullptr);

    // Where a shown node's triangle and label are, in widget coordinates (empty when the
    // node is scrolled away, not shown, or has no triangle).
    QRect disclosureRect(int node) const;
    QRect labelRect(int node) const;
    QSize sizeHint() const override;

signals:
    void keyboardHelpRequested();
    // Context menu > Show in Events View on a row: its tracks and those of every row below it.
    void showInEventsViewRequested(const std::vector<sightline::TrackId>& tracks);
    // The same on a counter row (GPU metric, memory in use, CPU utilization): its series.
    void showCounterInEventsViewRequested(uint32_t series);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool event(QEvent* event) override;

private:
    int nodeAt(QPoint pos) const;
    QRect rowRect(int node) const;
    bool holdsHighlight(const RowNode& node) const;
    void expandSubtree(int node, bool expanded);

    TimelineState& m_state;
    std::vector<int> m_labelWidths; // by node, in the row's font; -1 until measured
};

} // namespace sightline::views
