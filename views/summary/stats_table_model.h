// One stats report (model/stats/stats_table.h) as a sortable table model: the nsys columns and
// typed cells of StatsTable, numbers shown with thousands separators and their decimals, names
// as text. Sorting reorders a small permutation of the report's rows (reports have one row per
// distinct name, so this is cheap on the GUI thread). Invariant: row r shows
// table().rows[order[r]]; the table itself is never modified.
#pragma once

#include "model/stats/stats_table.h"

#include <QAbstractTableModel>
#include <vector>

namespace sightline::views {

class StatsTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Role { SortValueRole = Qt::UserRole + 1 }; // the cell as a number (or text) for sorting and tests

    explicit StatsTableModel(QObject* parent = nullptr);

    void setTable(StatsTable table);
    const StatsTable& table() const { return m_table; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    // The report row shown at `row`.
    const std::vector<StatsCell>& rowCells(int row) const { return m_table.rows[m_order[size_t(row)]]; }
    // The group name shown at `row` (the Name, Operation or Range column).
    QString rowName(int row) const;
    int nameColumn() const { return m_table.columns.empty() ? -1 : int(m_table.columns.size()) - 1; }

private:
    StatsTable m_table;
    std::vector<size_t> m_order;
};

// A cell as the table shows it: "1,234,567", "12.3", or the text.
QString statsCellText(const StatsCell& cell, const StatsColumn& column);

} // namespace sightline::views
