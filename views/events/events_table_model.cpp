#include "views/events/events_table_model.h"

#include "model/events/event_rows.h"

#include <QBrush>
#include <QColor>
#include <algorithm>

namespace sightline::views {

EventsTableModel::EventsTableModel(std::shared_ptr<const EventCells> cells, QObject* parent)
    : QAbstractTableModel(parent)
    , m_cells(std::move(cells))
{ }

void EventsTableModel::setRows(std::shared_ptr<const std::vector<EventRef>> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    m_expansions.clear();
    updateOffsets();
    endResetModel();
}

int EventsTableModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid()) return 0;
    return int(listedCount() + m_childRows);
}

int EventsTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : kEventColumnCount;
}

void EventsTableModel::updateOffsets()
{
    m_parentRows.clear();
    m_childRows = 0;
    for (const Expansion& e : m_expansions) {
        m_parentRows.push_back(e.parent + m_childRows);
        m_childRows += e.children.size();
    }
}

EventsTableModel::Located EventsTableModel::locate(int row) const
{
    const auto after = std::upper_bound(m_parentRows.begin(), m_parentRows.end(), size_t(row));
    if (after == m_parentRows.begin()) return {size_t(row), -1, -1};
    const int e = int(after - m_parentRows.begin()) - 1;
    const Expansion& expansion = m_expansions[size_t(e)];
    const size_t parentRow = m_parentRows[size_t(e)];
    const size_t offset = size_t(row) - parentRow;
    if (offset == 0) return {expansion.parent, -1, e};
    if (offset <= expansion.children.size()) return {expansion.parent, int(offset - 1), e};
    return {size_t(row) - (parentRow - expansion.parent) - expansion.children.size(), -1, -1};
}

int EventsTableModel::displayRowOfPosition(size_t position) const
{
    const auto at = std::lower_bound(m_expansions.begin(), m_expansions.end(), position,
        [](const Expansion& e, size_t p) { return e.parent < p; });
    if (at == m_expansions.begin()) return int(position);
    const size_t before = size_t(at - m_expansions.begin()) - 1;
    const size_t shownBefore
        = m_parentRows[before] - m_expansions[before].parent + m_expansions[before].children.size();
    return int(position + shownBefore);
}

EventRef EventsTableModel::eventAt(int row) const
{
    const Located at = locate(row);
    if (at.child >= 0) return m_expansions[size_t(at.expansion)].children[size_t(at.child)];
    return (*m_rows)[at.position];
}

int EventsTableModel::depthOf(int row) const
{
    return locate(row).child >= 0 ? 1 : 0;
}

bool EventsTableModel::isExpandable(int row) const
{
    if (row < 0 || row >= rowCount() || depthOf(row) != 0) return false;
    const EventRef event = eventAt(row);
    if (counterSeriesOf(m_cells->trace(), event)) return false;
    const Track& track = m_cells->trace().track(event.track);
    return track.key.kind == TrackKind::Nvtx
        && track.events.end[event.index] > track.events.start[event.index];
}

bool EventsTableModel::isExpanded(int row) const
{
    if (row < 0 || row >= rowCount()) return false;
    const Located at = locate(row);
    return at.child < 0 && at.expansion >= 0;
}

size_t EventsTableModel::setExpanded(int row, bool expanded)
{
    if (!isExpandable(row) || isExpanded(row) == expanded) return 0;
    const Located at = locate(row);
    if (!expanded) {
        const auto e = m_expansions.begin() + at.expansion;
        beginRemoveRows({}, row + 1, row + int(e->children.size()));
        m_expansions.erase(e);
        updateOffsets();
        endRemoveRows();
        emit dataChanged(index(row, 0), index(row, 0));
        return 0;
    }
    ContainedEvents contained = eventsInsideRange(m_cells->trace(), eventAt(row), kMaxChildren);
    if (!contained.events.empty()) {
        const auto place = std::lower_bound(m_expansions.begin(), m_expansions.end(), at.position,
            [](const Expansion& e, size_t p) { return e.parent < p; });
        beginInsertRows({}, row + 1, row + int(contained.events.size()));
        m_expansions.insert(place, Expansion {uint32_t(at.position), std::move(contained.events)});
        updateOffsets();
        endInsertRows();
        emit dataChanged(index(row, 0), index(row, 0));
    }
    return contained.total;
}

int EventsTableModel::rowOf(EventRef event) const
{
    if (m_rows) {
        const auto it = std::find(m_rows->begin(), m_rows->end(), event);
        if (it != m_rows->end()) return displayRowOfPosition(size_t(it - m_rows->begin()));
    }
    for (size_t e = 0; e < m_expansions.size(); ++e) {
        const auto& children = m_expansions[e].children;
        const auto it = std::find(children.begin(), children.end(), event);
        if (it != children.end()) return int(m_parentRows[e] + 1 + size_t(it - children.begin()));
    }
    return -1;
}

QVariant EventsTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= kEventColumnCount) return {};
    const auto column = EventColumn(index.column());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
    case Qt::TextAlignmentRole:
        return cellData(*m_cells, eventAt(index.row()), column, role);
    case Qt::BackgroundRole:
        // Events shown inside an expanded NVTX range get a faint tint over the row colour.
        if (depthOf(index.row()) > 0) return QBrush(QColor(118, 185, 0, 34));
        return {};
    case TrackRole:
        return int(eventAt(index.row()).track.value);
    case IndexRole:
        return int(eventAt(index.row()).index);
    case DepthRole:
        return depthOf(index.row());
    case ExpandableRole:
        return isExpandable(index.row());
    case ExpandedRole:
        return isExpanded(index.row());
    default:
        return {};
    }
}

QVariant EventsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= kEventColumnCount) return {};
    return columnHeaderData(EventColumn(section), role);
}

void EventsTableModel::sort(int column, Qt::SortOrder order)
{
    if (column >= 0 && column < kEventColumnCount) emit sortRequested(EventColumn(column), order);
}

} // namespace sightline::views
