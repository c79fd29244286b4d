#include "views/events/event_columns.h"

namespace sightline::views {
namespace {

int alignment(EventColumn column)
{
    return int(Qt::AlignVCenter | (columnSpec(column).numeric ? Qt::AlignRight : Qt::AlignLeft));
}

} // namespace

QString toQString(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

QString columnTitle(EventColumn column)
{
    return toQString(columnSpec(column).name);
}

Qt::SortOrder firstClickOrder(EventColumn column)
{
    return columnSpec(column).largestFirst ? Qt::DescendingOrder : Qt::AscendingOrder;
}

QVariant columnHeaderData(EventColumn column, int role)
{
    if (role == Qt::DisplayRole) return columnTitle(column);
    if (role == Qt::TextAlignmentRole) return alignment(column);
    if (role == Qt::ToolTipRole)
        return firstClickOrder(column) == Qt::DescendingOrder
            ? QStringLiteral("Click to sort, largest first; click again to reverse.")
            : QStringLiteral("Click to sort; click again to reverse.");
    return {};
}

QVariant cellData(const EventCells& cells, EventRef event, EventColumn column, int role)
{
    if (role == Qt::DisplayRole) return toQString(cells.display(event, column));
    if (role == Qt::ToolTipRole) return toQString(cells.tooltip(event, column));
    if (role == Qt::TextAlignmentRole) return alignment(column);
    return {};
}

} // namespace sightline::views
