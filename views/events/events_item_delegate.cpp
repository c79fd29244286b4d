#include "views/events/events_item_delegate.h"

#include "views/events/event_columns.h"
#include "views/events/events_table_model.h"

#include <QApplication>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QTableView>
#include <QVBoxLayout>

namespace sightline::views {

EventsBar buildEventsBar(QWidget* owner)
{
    EventsBar bar;
    bar.title = new QLabel(owner);
    QFont bold = bar.title->font();
    bold.setBold(true);
    bar.title->setFont(bold);
    bar.filter = new QLineEdit(owner);
    bar.filter->setPlaceholderText(QObject::tr("Filter by name"));
    bar.filter->setClearButtonEnabled(true);
    bar.filter->setMinimumWidth(260);
    bar.filter->setMaximumWidth(420);
    bar.regex = new QCheckBox(QObject::tr("Regex"), owner);
    bar.regex->setToolTip(QObject::tr("Match names with a regular expression instead of a plain substring"));
    bar.layout = new QHBoxLayout;
    bar.layout->setContentsMargins(6, 4, 6, 2);
    bar.layout->addWidget(bar.title);
    bar.layout->addStretch(1);
    bar.layout->addWidget(bar.filter, 1);
    bar.layout->addWidget(bar.regex);
    return bar;
}

void layOutEventsPane(QWidget* owner, const EventsBar& bar, QWidget* table, QLabel* status,
    std::initializer_list<QWidget*> besideStatus)
{
    auto* statusBar = new QHBoxLayout;
    statusBar->setContentsMargins(6, 2, 6, 4);
    statusBar->addWidget(status, 1);
    for (QWidget* widget : besideStatus)
        statusBar->addWidget(widget);
    auto* layout = new QVBoxLayout(owner);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar.layout);
    layout->addWidget(table, 1);
    layout->addLayout(statusBar);
}

void setUpEventsTable(QTableView* table)
{
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table->setAlternatingRowColors(true);
    table->setShowGrid(false);
    table->setWordWrap(false);
    table->setTextElideMode(Qt::ElideRight);
    table->setSortingEnabled(false); // sorting is the owner's: a header click asks for an order
    table->setContextMenuPolicy(Qt::CustomContextMenu);
    table->verticalHeader()->hide();
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    QHeaderView* header = table->horizontalHeader();
    header->setSectionsClickable(true);
    header->setSortIndicatorShown(true);
    header->setHighlightSections(false);
    header->setSectionsMovable(true);
    header->setStretchLastSection(true);
    header->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    const int digit = table->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    for (int c = 0; c < kEventColumnCount; ++c) {
        const auto column = EventColumn(c);
        const int chars = column == EventColumn::Name                                       ? 48
            : column == EventColumn::Start || column == EventColumn::End                    ? 15
            : column == EventColumn::ThreadOrStream || column == EventColumn::DeviceContext ? 20
            : column == EventColumn::MemoryKinds                                            ? 18
                                                                                            : 12;
        header->resizeSection(
            c, std::max(chars * digit, header->fontMetrics().horizontalAdvance(columnTitle(column)) + 28));
    }
}

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
