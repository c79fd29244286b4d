#include "views/pagedevents/paged_events_model.h"

#include "views/pagedevents/track_event_order.h"

#include <QThreadPool>

namespace sightline::views {

PagedEventsModel::PagedEventsModel(Trace structure, QObject* parent)
    : QAbstractTableModel(parent)
    , m_page(std::make_shared<EventPage>(std::move(structure)))
{ }

void PagedEventsModel::setRows(StoredRows rows)
{
    beginResetModel();
    // Giving back the previous listing's memory (800 MB for 200M rows) took 70 ms on a GPU
    // machine: it is let go on the thread pool, not here.
    if (m_rows) QThreadPool::globalInstance()->start([previous = std::move(m_rows)] {});
    m_rows = std::move(rows);
    Track& track = m_page->trace.tracks.front();
    track.events = {};
    track.laneBegin = {0, 0};
    m_pageFirst = 0;
    m_windowFirst = 0;
    endResetModel();
}

void PagedEventsModel::setWindowSize(size_t rows)
{
    beginResetModel();
    m_windowSize = std::max<size_t>(rows, 1);
    m_windowFirst = 0;
    endResetModel();
}

void PagedEventsModel::setWindowFirst(size_t position)
{
    const size_t last = listedCount() > m_windowSize ? listedCount() - m_windowSize : 0;
    position = std::min(position, last);
    if (position == m_windowFirst) return;
    beginResetModel();
    m_windowFirst = position;
    endResetModel();
}

void PagedEventsModel::setPage(const StoredRows& rows, size_t first, EventColumns events)
{
    if (rows != m_rows || first + events.size() > listedCount()) return;
    Track& track = m_page->trace.tracks.front();
    const size_t count = events.size();
    track.events = std::move(events);
    track.laneBegin = {0, uint32_t(count)};
    m_pageFirst = first;
    // The rows of the window the page covers.
    const size_t from = std::max(first, m_windowFirst);
    const size_t to = std::min(first + count, m_windowFirst + size_t(rowCount()));
    if (from < to)
        emit dataChanged(
            index(int(from - m_windowFirst), 0), index(int(to - 1 - m_windowFirst), kEventColumnCount - 1));
}

bool PagedEventsModel::pageHolds(size_t first, size_t last) const
{
    const size_t count = m_page->trace.tracks.front().size();
    return count > 0 && first >= m_pageFirst && last < m_pageFirst + count;
}

std::optional<EventRef> PagedEventsModel::pageEvent(int row) const
{
    if (row < 0 || row >= rowCount()) return std::nullopt;
    const size_t position = positionOf(row);
    if (!pageHolds(position, position)) return std::nullopt;
    return EventRef {TrackId(0), uint32_t(position - m_pageFirst)};
}

int PagedEventsModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || listedCount() <= m_windowFirst) return 0;
    return int(std::min(listedCount() - m_windowFirst, m_windowSize));
}

int PagedEventsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : kEventColumnCount;
}

QVariant PagedEventsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.column() >= kEventColumnCount) return {};
    const auto column = EventColumn(index.column());
    if (role == Qt::TextAlignmentRole) return columnHeaderData(column, role);
    const std::optional<EventRef> event = pageEvent(index.row());
    if (!event) return {};
    return cellData(m_page->cells, *event, column, role);
}

QVariant PagedEventsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= kEventColumnCount) return {};
    const auto column = EventColumn(section);
    if (role == Qt::ToolTipRole && !isTrackOrderColumn(column))
        return QStringLiteral("A track over the memory budget is listed by Start, Duration or End only.");
    return columnHeaderData(column, role);
}

void PagedEventsModel::sort(int column, Qt::SortOrder order)
{
    if (column >= 0 && column < kEventColumnCount) emit sortRequested(EventColumn(column), order);
}

} // namespace sightline::views
