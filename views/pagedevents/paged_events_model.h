// The table of a track too large to hold in memory (paged_events_view.h): the listed events, in
// the order track_event_order.h computed (stored indexes), each cell formatted from a page of
// events read from the report around what the table shows. Rows outside the page show nothing
// until their page arrives (the view asks for it off the GUI thread). The page is held in a Trace
// of its own, the report's structure with this track holding the page's events, so the Events
// View's own cells (EventCells) format it: Events View and this table look alike.
//
// The model shows a window of the listing, at most windowSize() rows from windowFirst(): a
// QTableView keeps a few bytes and some work per row in its header on every reset, which for
// 200M rows is over a GB and seconds of the GUI thread, so the view moves the window along as
// the user scrolls instead (paged_events_view.h). "Position" below is a place in the listing,
// "row" a row of the model. Invariant: a page belongs to the listing it was read for; a page
// for an older listing is dropped.
#pragma once

#include "views/events/event_columns.h"

#include <QAbstractTableModel>
#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

namespace sightline::views {

using StoredRows = std::shared_ptr<const std::vector<uint32_t>>;

// The report's structure (TrackPager's OpenedTrack), its one track holding the page's events,
// and the cells over it. The view's workers share it to read names: EventNames reads only the
// strings and descriptor tables, which never change; only the track's events do, on the GUI
// thread.
struct EventPage
{
    explicit EventPage(Trace structure)
        : trace(std::move(structure))
        , cells(trace)
    { }
    Trace trace;
    EventCells cells;
};

class PagedEventsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    // `structure`: the report's structure with the listed track as its only track.
    explicit PagedEventsModel(Trace structure, QObject* parent = nullptr);

    // Replaces the listed events (stored indexes, in display order); the window goes to the
    // top and the page is let go.
    void setRows(StoredRows rows);
    const StoredRows& rows() const { return m_rows; }
    size_t listedCount() const { return m_rows ? m_rows->size() : 0; }

    static constexpr size_t kWindowSize = size_t(1) << 20;
    size_t windowSize() const { return m_windowSize; }
    void setWindowSize(size_t rows); // for tests; the window goes to the top
    size_t windowFirst() const { return m_windowFirst; }
    // Moves the window to start at `position` (or as near as the listing allows).
    void setWindowFirst(size_t position);
    size_t positionOf(int row) const { return m_windowFirst + size_t(std::max(row, 0)); }

    // The events of positions [first, first + events.size()) of `rows`, read from the report.
    // Ignored unless `rows` are the rows listed now.
    void setPage(const StoredRows& rows, size_t first, EventColumns events);
    // Whether positions [first, last] are all in the page.
    bool pageHolds(size_t first, size_t last) const;
    // The event shown at `row`, when it is in the page: the event's place in pageTrace().
    std::optional<EventRef> pageEvent(int row) const;
    const Trace& pageTrace() const { return m_page->trace; }
    const EventCells& cells() const { return m_page->cells; }
    std::shared_ptr<const EventPage> page() const { return m_page; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    // Asks for a new order by the column; the rows change when it is computed.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

signals:
    void sortRequested(sightline::EventColumn column, Qt::SortOrder order);

private:
    std::shared_ptr<EventPage> m_page;
    StoredRows m_rows;
    size_t m_windowSize = kWindowSize;
    size_t m_windowFirst = 0; // the position of row 0
    size_t m_pageFirst = 0; // the position of the page's first event
};

} // namespace sightline::views
