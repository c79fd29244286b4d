#include "views/summary/stats_table_model.h"

#include <QLocale>
#include <algorithm>
#include <numeric>

namespace sightline::views {
namespace {

const QLocale& englishLocale()
{
    static const QLocale locale(QLocale::English, QLocale::UnitedStates);
    return locale;
}

double numberOf(const StatsCell& cell)
{
    if (const auto* i = std::get_if<int64_t>(&cell)) return double(*i);
    if (const auto* d = std::get_if<double>(&cell)) return *d;
    return 0;
}

bool lessThan(const StatsCell& a, const StatsCell& b)
{
    const auto* ta = std::get_if<std::string>(&a);
    const auto* tb = std::get_if<std::string>(&b);
    if (ta && tb)
        return QString::fromStdString(*ta).compare(QString::fromStdString(*tb), Qt::CaseInsensitive) < 0;
    return numberOf(a) < numberOf(b);
}

} // namespace

QString statsCellText(const StatsCell& cell, const StatsColumn& column)
{
    if (const auto* i = std::get_if<int64_t>(&cell)) return englishLocale().toString(qlonglong(*i));
    if (const auto* d = std::get_if<double>(&cell)) return englishLocale().toString(*d, 'f', column.decimals);
    return QString::fromStdString(std::get<std::string>(cell));
}

StatsTableModel::StatsTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void StatsTableModel::setTable(StatsTable table)
{
    beginResetModel();
    m_table = std::move(table);
    m_order.resize(m_table.rows.size());
    std::iota(m_order.begin(), m_order.end(), size_t(0));
    endResetModel();
}

int StatsTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_order.size());
}

int StatsTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_table.columns.size());
}

QString StatsTableModel::rowName(int row) const
{
    const int column = nameColumn();
    if (row < 0 || row >= rowCount() || column < 0) return {};
    return statsCellText(rowCells(row)[size_t(column)], m_table.columns[size_t(column)]);
}

QVariant StatsTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
    const StatsColumn& column = m_table.columns[size_t(index.column())];
    const StatsCell& cell = rowCells(index.row())[size_t(index.column())];
    switch (role) {
    case Qt::DisplayRole:
        return statsCellText(cell, column);
    case Qt::ToolTipRole:
        return column.kind == CellKind::Text
            ? statsCellText(cell, column)
            : QStringLiteral("%1: %2").arg(
                QString::fromStdString(column.header), statsCellText(cell, column));
    case Qt::TextAlignmentRole:
        return int(Qt::AlignVCenter | (column.kind == CellKind::Text ? Qt::AlignLeft : Qt::AlignRight));
    case SortValueRole:
        if (column.kind == CellKind::Text) return QString::fromStdString(std::get<std::string>(cell));
        return numberOf(cell);
    default:
        return {};
    }
}

QVariant StatsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) return {};
    const StatsColumn& column = m_table.columns[size_t(section)];
    if (role == Qt::DisplayRole) return QString::fromStdString(column.header);
    if (role == Qt::TextAlignmentRole)
        return int(Qt::AlignVCenter | (column.kind == CellKind::Text ? Qt::AlignLeft : Qt::AlignRight));
    return {};
}

void StatsTableModel::sort(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= columnCount()) return;
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<size_t> shownBefore;
    for (const QModelIndex& index : before)
        shownBefore.push_back(m_order[size_t(index.row())]);
    std::stable_sort(m_order.begin(), m_order.end(), [&](size_t a, size_t b) {
        const StatsCell& ca = m_table.rows[a][size_t(column)];
        const StatsCell& cb = m_table.rows[b][size_t(column)];
        return order == Qt::AscendingOrder ? lessThan(ca, cb) : lessThan(cb, ca);
    });
    std::vector<int> rowOfReportRow(m_order.size());
    for (size_t r = 0; r < m_order.size(); ++r)
        rowOfReportRow[m_order[r]] = int(r);
    QModelIndexList after;
    for (qsizetype i = 0; i < before.size(); ++i)
        after << index(rowOfReportRow[shownBefore[size_t(i)]], before[i].column());
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

} // namespace sightline::views
