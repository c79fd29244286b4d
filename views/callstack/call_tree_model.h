// The call trees of model/stats/call_tree.h as Qt item models: the top-down or bottom-up tree,
// or the flat table of functions, with the columns Function, Module, Self, Self %, Total and
// Total %. The model only reads the CallTrees it shares (the nodes' CSR layout gives parents and
// rows directly), so a tree of a million nodes costs nothing until it is expanded. Sorting and
// filtering go through CallTreeProxy: SortRole gives each cell as a number, FilterRole the
// function and module names.
#pragma once

#include "model/stats/call_tree.h"

#include <QAbstractItemModel>
#include <QSortFilterProxyModel>
#include <memory>

namespace sightline::views {

enum class CallTreeKind : uint8_t { TopDown, BottomUp, Flat };

class CallTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column {
        FunctionColumn,
        ModuleColumn,
        SelfColumn,
        SelfPercentColumn,
        TotalColumn,
        TotalPercentColumn
    };
    static constexpr int kColumnCount = 6;
    enum Role {
        SortRole = Qt::UserRole + 1, // the cell as a number (names as text)
        FilterRole, // "function module", what the filter matches
        FunctionRole, // the row's index into CallTrees::functions
    };

    CallTreeModel(CallTreeKind kind, QObject* parent = nullptr);

    // Shows `trees` (null: nothing) of `trace`; both must outlive the model's use of them.
    void setTrees(std::shared_ptr<const Trace> trace, std::shared_ptr<const CallTrees> trees);
    CallTreeKind kind() const { return m_kind; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const CallTree* tree() const;
    // The function and the numbers of the row at `index`.
    struct Row
    {
        uint32_t function;
        int64_t self;
        int64_t total;
    };
    Row rowAt(const QModelIndex& index) const;

    CallTreeKind m_kind;
    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const CallTrees> m_trees;
};

// A function's name and module, a sample count ("1,234") and a share ("12.3 %") as the view
// writes them.
QString functionText(const Trace& trace, const CallFunction& function);
QString moduleText(const Trace& trace, const CallFunction& function);
QString sampleCountText(int64_t count);
QString percentText(double percent);

// Sorts by SortRole and keeps the rows whose function or module contains the filter text (case
// insensitive), with their ancestors, so a match deep in a tree stays reachable.
class CallTreeProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit CallTreeProxy(QObject* parent = nullptr);
};

} // namespace sightline::views
