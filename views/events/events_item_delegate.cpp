#include "views/events/events_item_delegate.h"

#include "views/events/event_columns.h"
#include "views/events/events_table_model.h"

#include <QApplication>
#include <QPainter>

namespace sightline::views {

int EventsItemDelegate::indentOf(const QModelIndex& index) const
{
    if (index.column() != int(EventColumn::Name)) return 0;
    const int depth = index.data(EventsTableModel::DepthRole).toInt();
    return (m_branchSpace ? kIndent : 0) + depth * kIndent;
}

bool EventsItemDelegate::hitsArrow(const QModelIndex& index, const QRect& cellRect, QPoint position) const
{
    if (index.column() != int(EventColumn::Name) || !m_branchSpace) return false;
    if (!index.data(EventsTableModel::ExpandableRole).toBool()) return false;
    return position.x() >= cellRect.left() && position.x() < cellRect.left() + kIndent;
}

void EventsItemDelegate::paint(
    QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    const int indent = indentOf(index);
    if (indent == 0) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem item = option;
    initStyleOption(&item, index);
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();

    // The background, selection and focus over the whole cell, then the text shifted right.
    const QString text = item.text;
    item.text.clear();
    style->drawControl(QStyle::CE_ItemViewItem, &item, painter, widget);

    if (index.data(EventsTableModel::ExpandableRole).toBool()) {
        QStyleOption branch;
        branch.rect = QRect(option.rect.left(), option.rect.top(), kIndent, option.rect.height());
        branch.palette = option.palette;
        branch.state = QStyle::State_Children | QStyle::State_Item | (option.state & QStyle::State_Enabled);
        if (index.data(EventsTableModel::ExpandedRole).toBool()) branch.state |= QStyle::State_Open;
        style->drawPrimitive(QStyle::PE_IndicatorBranch, &branch, painter, widget);
    }

    const QRect textRect = option.rect.adjusted(indent + 2, 0, -4, 0);
    const bool selected = option.state & QStyle::State_Selected;
    painter->save();
    painter->setFont(item.font);
    painter->setPen(option.palette.color(selected ? QPalette::HighlightedText : QPalette::Text));
    painter->drawText(textRect, int(Qt::AlignVCenter | Qt::AlignLeft),
        item.fontMetrics.elidedText(text, Qt::ElideRight, textRect.width()));
    painter->restore();
}

QSize EventsItemDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    size.rwidth() += indentOf(index);
    return size;
}

} // namespace sightline::views
