// The call trees of model/stats/call_tree.h as Qt item models: the top-down or bottom-up tree,
// or the flat table of functions, with the columns Function, Module, Self, Self %, Total and
// Total %. The model reads the CallTrees it shares (the nodes' CSR layout gives parents and
// rows directly), so a tree of a million nodes costs nothing until it is expanded. The
// bottom-up tree grows as it is read: a node's callers are fetched when the view expands it
// (canFetchMore/fetchMore), so until then the node has children but no rows. Sorting and
// filtering go through CallTreeProxy: SortRole gives each cell as a number, FilterRole the
// function and module names, and callersMatch finds matches among callers not fetched yet.
#pragma once

#include "model/stats/call_tree.h"

#include <QAbstractItemModel>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <memory>
#include <vector>

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

    // Shows `trees` (null: nothing) of `trace`. The top-down model shows `topDown`, the
    // top-down tree of `trees`, and nothing without it; the others ignore it.
    void setTrees(std::shared_ptr<const Trace> trace, std::shared_ptr<const CallTrees> trees,
        std::shared_ptr<const CallTree> topDown = nullptr);
    CallTreeKind kind() const { return m_kind; }
    // The trees shown (null: none); FunctionRole indexes their functions.
    const std::shared_ptr<const CallTrees>& trees() const { return m_trees; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Whether a bottom-up node's callers, fetched or not, hold a function whose FilterRole text
    // `filter` matches (false in the other trees, whose rows are all there).
    bool callersMatch(const QModelIndex& index, const QRegularExpression& filter) const;

private:
    const CallTree* topDown() const;
    const BottomUpTree* bottomUp() const;
    // The node `index` stands for, in either tree.
    const CallNode& nodeAt(const QModelIndex& index) const;
    bool fetched(uint32_t node) const { return node < m_fetched.size() && m_fetched[node]; }
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
    std::shared_ptr<const CallTrees> m_trees; // the top-down model: set only with m_topDown
    std::shared_ptr<const CallTree> m_topDown;
    std::vector<bool> m_fetched; // per bottom-up node: its children are rows
    // What callersMatch last marked: the filter and the stack nodes at or below a match.
    mutable QRegularExpression m_markedFilter;
    mutable std::vector<char> m_markedStacks;
};

// A function's name and module, both as the filter matches them, a sample count ("1,234") and a share ("12.3
// %") as the view writes them.
QString functionText(const Trace& trace, const CallFunction& function);
QString moduleText(const Trace& trace, const CallFunction& function);
QString filterText(const Trace& trace, const CallFunction& function);
QString sampleCountText(int64_t count);
QString percentText(double percent);

// Sorts by SortRole and keeps the rows whose function or module contains the filter text (case
// insensitive), with their ancestors, so a match deep in a tree stays reachable.
class CallTreeProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit CallTreeProxy(QObject* parent = nullptr);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
};

} // namespace sightline::views
