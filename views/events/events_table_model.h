// The Events View's table: a thin QAbstractTableModel over a list of event references, each
// cell formatted from the Trace's columns only when the view asks for it. The list arrives
// already filtered and sorted (event_query_runner.h); sorting through the model only asks for
// a new query (sortRequested), it never reorders millions of rows here.
//
// NVTX ranges expand in place: an expanded range row is followed by the events it contains
// (event_rows.h eventsInsideRange), one level deep, indented, outside the sort order. This was
// chosen over a tree model because QTreeView lays out every top-level row on each reset, which
// is too slow for millions of rows, while a flat table with a few inserted children stays
// O(log expansions) per row lookup. Invariant: display row r maps to exactly one event; the
// expansions are kept sorted by their parent's position.
#pragma once

#include "views/events/event_columns.h"

#include <QAbstractTableModel>
#include <memory>
#include <vector>

namespace sightline::views {

class EventsTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Role {
        TrackRole = Qt::UserRole + 1, // the row's TrackId value (int)
        IndexRole, // the row's event index in its track (int)
        DepthRole, // 0 for a listed event, 1 for an event shown inside an NVTX range
        ExpandableRole, // bool: an NVTX range that can show its events
        ExpandedRole, // bool
    };
    // At most this many contained events are shown under one expanded range.
    static constexpr size_t kMaxChildren = 5000;

    explicit EventsTableModel(std::shared_ptr<const EventCells> cells, QObject* parent = nullptr);

    // Replaces the listed events (in display order); expansions are collapsed.
    void setRows(std::shared_ptr<const std::vector<EventRef>> rows);
    const std::shared_ptr<const std::vector<EventRef>>& rows() const { return m_rows; }
    size_t listedCount() const { return m_rows ? m_rows->size() : 0; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    // Asks for a new query ordered by the column; the rows change when it finishes.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    EventRef eventAt(int row) const;
    int depthOf(int row) const;
    bool isExpandable(int row) const;
    bool isExpanded(int row) const;
    // Shows or hides the events inside the NVTX range at `row` (a listed row). Returns the
    // number of contained events when expanding (more than are shown past kMaxChildren).
    size_t setExpanded(int row, bool expanded);
    // The display row of a listed event or of a shown contained event, or -1.
    int rowOf(EventRef event) const;

signals:
    void sortRequested(sightline::EventColumn column, Qt::SortOrder order);

private:
    struct Expansion
    {
        uint32_t parent = 0; // position in m_rows
        std::vector<EventRef> children;
    };
    struct Located
    {
        size_t position = 0; // in m_rows
        int child = -1; // index into the expansion's children, or -1 for the listed row
        int expansion = -1; // index into m_expansions, or -1
    };
    Located locate(int row) const;
    int displayRowOfPosition(size_t position) const;
    void updateOffsets();

    std::shared_ptr<const EventCells> m_cells;
    std::shared_ptr<const std::vector<EventRef>> m_rows;
    std::vector<Expansion> m_expansions; // sorted by parent
    std::vector<size_t> m_parentRows; // display row of each expansion's parent
    size_t m_childRows = 0; // children shown in all
};

} // namespace sightline::views
