#include "views/callstack/call_stack_view.h"

#include "model/text/time_text.h"
#include "views/callstack/call_tree_model.h"
#include "views/callstack/flame_graph.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QTabWidget>
#include <QTreeView>
#include <QVBoxLayout>

namespace sightline::views {
namespace {

constexpr int kHotPathDepth = 16; // how deep the top-down tree opens along its hottest path

} // namespace

CallStackView::CallStackView(QWidget* parent)
    : QWidget(parent)
{
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("callStackFilter"));
    m_filter->setPlaceholderText(tr("Filter by function or module"));
    m_filter->setClearButtonEnabled(true);
    m_status = new QLabel(this);
    m_status->setForegroundRole(QPalette::PlaceholderText);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 3, 4, 0);
    m_filter->setMaximumWidth(360);
    bar->addWidget(m_filter, 1);
    bar->addSpacing(8);
    bar->addWidget(m_status, 1);

    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_tables.push_back(makeTable(CallTreeKind::BottomUp, CallTreeModel::SelfColumn));
    m_tables.push_back(makeTable(CallTreeKind::TopDown, CallTreeModel::TotalColumn));
    m_tables.push_back(makeTable(CallTreeKind::Flat, CallTreeModel::SelfColumn));
    m_tabs->addTab(m_tables[0].view, tr("Bottom-Up"));
    m_tabs->addTab(m_tables[1].view, tr("Top-Down"));
    m_tabs->addTab(m_tables[2].view, tr("Flat"));
    m_flame = new FlameGraph;
    m_flame->setObjectName(QStringLiteral("flameGraph"));
    auto* flameScroller = new QScrollArea(m_tabs);
    flameScroller->setWidgetResizable(true);
    flameScroller->setFrameShape(QFrame::NoFrame);
    flameScroller->setWidget(m_flame);
    m_tabs->addTab(flameScroller, tr("Flame Graph"));

    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    column->addLayout(bar);
    column->addWidget(m_tabs, 1);

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& filter) {
        for (const Table& table : m_tables)
            table.proxy->setFilterFixedString(filter);
    });
    connect(m_flame, &FlameGraph::frameClicked, this,
        [this](uint32_t function) { selectFunction(m_topDownTrees, function); });
    updateStatus();
}

CallStackView::~CallStackView() = default;

CallStackView::Table CallStackView::makeTable(CallTreeKind kind, int sortColumn)
{
    Table table;
    table.model = new CallTreeModel(kind, this);
    table.proxy = new CallTreeProxy(this);
    table.proxy->setSourceModel(table.model);
    table.view = new QTreeView(m_tabs);
    table.view->setModel(table.proxy);
    table.view->setSortingEnabled(true);
    table.view->sortByColumn(sortColumn, Qt::DescendingOrder);
    table.view->setUniformRowHeights(true);
    table.view->setAlternatingRowColors(true);
    table.view->setSelectionBehavior(QAbstractItemView::SelectRows);
    table.view->setSelectionMode(QAbstractItemView::SingleSelection);
    table.view->setRootIsDecorated(kind != CallTreeKind::Flat);
    QHeaderView* header = table.view->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(CallTreeModel::FunctionColumn, QHeaderView::Stretch);
    header->setSectionResizeMode(CallTreeModel::ModuleColumn, QHeaderView::Interactive);
    header->resizeSection(CallTreeModel::ModuleColumn, 140);
    for (int c = CallTreeModel::SelfColumn; c < CallTreeModel::kColumnCount; ++c)
        header->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    connect(table.view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this, model = table.model](const QModelIndex& current) {
            if (current.isValid())
                selectFunction(model->trees(), current.data(CallTreeModel::FunctionRole).toUInt());
        });
    return table;
}

void CallStackView::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    m_range.reset();
    m_threads.reset();
    recompute();
}

void CallStackView::setScope(std::optional<TimeRange> range, std::optional<std::vector<Tid>> threads)
{
    m_range = range;
    m_threads = std::move(threads);
    recompute();
}

QTreeView* CallStackView::treeView(Tab tab) const
{
    return tab == Tab::FlameGraph ? nullptr : m_tables[size_t(tab)].view;
}

void CallStackView::showTab(Tab tab)
{
    m_tabs->setCurrentIndex(int(tab));
}

void CallStackView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale) recompute();
}

void CallStackView::recompute()
{
    // A hidden view waits until it is shown: a pane closed under the timeline costs nothing.
    m_stale = !isVisible();
    m_topDownRequest.cancel();
    if (m_stale) {
        m_request.cancel();
        return;
    }
    if (!m_trace) {
        m_request.cancel();
        showTables(nullptr);
        showTopDown(nullptr, nullptr);
        return;
    }
    const CallScope scope {m_range, m_threads};
    // A cancelled computation gives no trees (null), so what the tabs show stays.
    m_request.start(
        [trace = m_trace, scope](const std::atomic<bool>& cancel) {
            CallTrees trees = computeCallTrees(*trace, scope, &cancel);
            return cancel ? nullptr : std::make_shared<const CallTrees>(std::move(trees));
        },
        [this](std::shared_ptr<const CallTrees> trees, bool newest) {
            if (!newest || !trees) return updateStatus();
            m_topDownRequest.start(
                [trees](const std::atomic<bool>& cancel) {
                    CallTree topDown = topDownTree(*trees, &cancel);
                    return cancel ? nullptr : std::make_shared<const CallTree>(std::move(topDown));
                },
                [this, trees](std::shared_ptr<const CallTree> topDown, bool newestTree) {
                    // A tree of trees that a newer scope replaced meanwhile is dropped too.
                    if (newestTree && topDown && trees == m_trees) showTopDown(trees, std::move(topDown));
                    updateStatus();
                });
            showTables(std::move(trees));
        });
    updateStatus();
}

void CallStackView::showTables(std::shared_ptr<const CallTrees> trees)
{
    m_trees = std::move(trees);
    m_tables[size_t(Tab::BottomUp)].model->setTrees(m_trace, m_trees);
    m_tables[size_t(Tab::Flat)].model->setTrees(m_trace, m_trees);
    updateStatus();
    emit tablesShown();
}

void CallStackView::showTopDown(
    std::shared_ptr<const CallTrees> trees, std::shared_ptr<const CallTree> topDown)
{
    m_topDownTrees = std::move(trees);
    const Table& table = m_tables[size_t(Tab::TopDown)];
    table.model->setTrees(m_trace, m_topDownTrees, topDown);
    m_flame->setTrees(m_trace, m_topDownTrees, topDown);

    // The top-down tree opens along its hottest path, as profilers do.
    QModelIndex hottest = table.proxy->index(0, 0);
    for (int depth = 0; table.proxy->hasChildren(hottest) && depth < kHotPathDepth; ++depth) {
        table.view->expand(hottest);
        hottest = table.proxy->index(0, 0, hottest);
    }
    updateStatus();
    emit treesShown();
}

void CallStackView::selectFunction(const std::shared_ptr<const CallTrees>& trees, uint32_t function)
{
    if (!trees || !m_trace || function >= trees->functions.size()) return;
    const CallFunction& chosen = trees->functions[function];
    // The flame graph numbers functions as its trees do, which differ only until the top-down
    // tree of a new scope arrives.
    m_flame->setHighlightedFunction(trees == m_topDownTrees ? std::optional(function) : std::nullopt);
    CallStackSelection selection;
    selection.function = functionText(*m_trace, chosen);
    selection.module = moduleText(*m_trace, chosen);
    selection.stacks
        = std::make_shared<const std::vector<uint32_t>>(stacksWithFunction(*m_trace, chosen, false));
    selection.leafStacks
        = std::make_shared<const std::vector<uint32_t>>(stacksWithFunction(*m_trace, chosen, true));
    emit functionSelected(selection);
}

void CallStackView::updateStatus()
{
    if (m_request.isBusy()) {
        m_status->setText(tr("Computing\u2026"));
        return;
    }
    if (!m_trees || !m_trace) {
        m_status->setText(tr("No CPU samples"));
        return;
    }
    QString status = tr("%1 samples").arg(sampleCountText(m_trees->samples));
    if (m_range) {
        // Decimals enough to tell a thousandth of the range.
        const Duration resolution = std::max<Duration>(m_range->duration() / 1000, 1);
        status += tr(" in %1 \u2013 %2 (%3)")
                      .arg(QString::fromStdString(formatTimestamp(m_range->start, resolution)),
                          QString::fromStdString(formatTimestamp(m_range->end, resolution)),
                          QString::fromStdString(formatDuration(m_range->duration())));
    } else {
        status += tr(" in the whole trace");
    }
    if (m_threads) status += tr(", %n thread(s)", nullptr, int(m_threads->size()));
    if (m_topDownRequest.isBusy()) status += tr("; making the top-down tree\u2026");
    m_status->setText(status);
}

} // namespace sightline::views
