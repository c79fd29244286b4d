// The Call Stacks view: the CPU samples of a scope (a time range, a set of threads) as KDAB
// Hotspot shows them, on four tabs: Bottom-Up and Top-Down trees, the Flat table of functions
// (each sortable by every column, filtered by function or module name) and the Flame Graph.
// The call trees are computed off the GUI thread through LatestRequest, in two steps: the
// Bottom-Up and Flat tables first, then the top-down tree for the Top-Down tab and the flame
// graph, which on stacks of many distinct paths costs as much again. A new scope cancels what
// runs and the view stays live; each tab keeps showing the previous scope until its new trees
// arrive. A hidden view computes nothing until it is shown. Choosing a function (a
// table row, a flame graph frame) says which samples hold it, for the timeline to highlight.
#pragma once

#include "model/stats/call_tree.h"
#include "views/common/latest_request.h"

#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

class QLabel;
class QLineEdit;
class QTabWidget;
class QTreeView;

namespace sightline::views {

class CallTreeModel;
class CallTreeProxy;
class FlameGraph;
enum class CallTreeKind : uint8_t;

// A function chosen in the view and the samples that hold it: a sample does when its stack
// (CpuSample::stack) is in `stacks`, a sorted list (model/stats/call_tree.h, stacksWithFunction).
struct CallStackSelection
{
    QString function;
    QString module;
    std::shared_ptr<const std::vector<uint32_t>> stacks; // the function anywhere on the stack
    std::shared_ptr<const std::vector<uint32_t>> leafStacks; // the function as the leaf
};

class CallStackView : public QWidget
{
    Q_OBJECT
public:
    enum class Tab { BottomUp, TopDown, Flat, FlameGraph };

    explicit CallStackView(QWidget* parent = nullptr);
    ~CallStackView() override;

    // The trace whose samples to show (null: none); the scope becomes the whole trace.
    void setTrace(std::shared_ptr<const Trace> trace);
    // Only the samples in `range` (no value: all) of `threads` (no value: all).
    void setScope(std::optional<TimeRange> range, std::optional<std::vector<Tid>> threads = std::nullopt);

    bool isBusy() const { return m_request.isBusy() || m_topDownRequest.isBusy(); }
    // The trees the Bottom-Up and Flat tabs show; null before the first computation finishes.
    const CallTrees* trees() const { return m_trees.get(); }

    QTabWidget* tabs() const { return m_tabs; }
    QTreeView* treeView(Tab tab) const;
    FlameGraph* flameGraph() const { return m_flame; }
    QLineEdit* filterEdit() const { return m_filter; }
    void showTab(Tab tab);

signals:
    void functionSelected(const sightline::views::CallStackSelection& selection);
    // The Bottom-Up and Flat tables of the newest scope are shown; the top-down tree is next.
    void tablesShown();
    // All trees of the newest scope are shown.
    void treesShown();

protected:
    void showEvent(QShowEvent* event) override;

private:
    struct Table
    {
        CallTreeModel* model = nullptr;
        CallTreeProxy* proxy = nullptr;
        QTreeView* view = nullptr;
    };
    Table makeTable(CallTreeKind kind, int sortColumn);
    void recompute();
    void showTables(std::shared_ptr<const CallTrees> trees);
    void showTopDown(std::shared_ptr<const CallTrees> trees, std::shared_ptr<const CallTree> topDown);
    // `function` indexes the functions of `trees`, those of the tab it was chosen in.
    void selectFunction(const std::shared_ptr<const CallTrees>& trees, uint32_t function);
    void updateStatus();

    std::shared_ptr<const Trace> m_trace;
    std::optional<TimeRange> m_range;
    std::optional<std::vector<Tid>> m_threads;
    std::shared_ptr<const CallTrees> m_trees; // of the Bottom-Up and Flat tabs
    std::shared_ptr<const CallTrees> m_topDownTrees; // of the Top-Down tab and the flame graph
    bool m_stale = false; // the scope changed while hidden

    QTabWidget* m_tabs = nullptr;
    QLineEdit* m_filter = nullptr;
    QLabel* m_status = nullptr;
    std::vector<Table> m_tables; // Bottom-Up, Top-Down, Flat
    FlameGraph* m_flame = nullptr;
    LatestRequest m_request {this};
    LatestRequest m_topDownRequest {this};
};

} // namespace sightline::views
