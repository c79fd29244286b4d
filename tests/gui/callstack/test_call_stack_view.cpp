// The Call Stacks view on a profile where hot_a is the leaf of 70% of the samples and hot_b of
// 30% (tests/unit/support/cpu_sample_trace.h): the tables' numbers, sorting, filtering, the
// scope, the selection it reports, and the flame graph's painting, tooltip and zoom.
#include "callstack_shots.h"
#include "model/stats/call_tree.h"
#include "unit/support/cpu_sample_trace.h"
#include "views/callstack/call_stack_view.h"
#include "views/callstack/call_tree_model.h"
#include "views/callstack/flame_graph.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QHeaderView>
#include <QHelpEvent>
#include <QImage>
#include <QLineEdit>
#include <QSet>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QToolTip>
#include <QTreeView>
#include <catch2/catch.hpp>

using namespace sightline;
using namespace sightline::views;
using sightline::test::colourCount;

namespace {

using Tab = CallStackView::Tab;
constexpr int kRounds = 100; // 1,000 samples

struct ShownView
{
    std::shared_ptr<const Trace> trace = std::make_shared<const Trace>(test::cpuSampleTrace(kRounds));
    CallStackView view;

    ShownView()
    {
        view.resize(900, 600);
        view.show();
        REQUIRE(QTest::qWaitForWindowExposed(&view));
        view.setTrace(trace);
        REQUIRE(waitForTrees());
    }

    bool waitForTrees()
    {
        return QTest::qWaitFor([this] { return !view.isBusy() && view.trees(); }, 30000);
    }

    QString cell(Tab tab, int row, int column, const QModelIndex& parent = {}) const
    {
        return view.treeView(tab)->model()->index(row, column, parent).data().toString();
    }
    QStringList column(Tab tab, int column, const QModelIndex& parent = {}) const
    {
        QStringList cells;
        const QAbstractItemModel* model = view.treeView(tab)->model();
        for (int r = 0; r < model->rowCount(parent); ++r)
            cells << model->index(r, column, parent).data().toString();
        return cells;
    }
};

QStringList names(std::initializer_list<const char*> list)
{
    QStringList out;
    for (const char* name : list)
        out << QString::fromLatin1(name);
    return out;
}

} // namespace

TEST_CASE("the bottom-up table opens on the hottest leaf function")
{
    ShownView s;
    CHECK(s.view.tabs()->tabText(0) == QStringLiteral("Bottom-Up"));
    CHECK(s.view.tabs()->tabText(3) == QStringLiteral("Flame Graph"));

    CHECK(s.cell(Tab::BottomUp, 0, CallTreeModel::FunctionColumn) == QStringLiteral("hot_a"));
    CHECK(s.cell(Tab::BottomUp, 0, CallTreeModel::ModuleColumn) == QStringLiteral("libhot.so"));
    CHECK(s.cell(Tab::BottomUp, 0, CallTreeModel::SelfColumn) == QStringLiteral("700"));
    CHECK(s.cell(Tab::BottomUp, 0, CallTreeModel::SelfPercentColumn) == QStringLiteral("70.0 %"));
    CHECK(s.cell(Tab::BottomUp, 0, CallTreeModel::TotalPercentColumn) == QStringLiteral("80.0 %"));
    CHECK(s.cell(Tab::BottomUp, 1, CallTreeModel::FunctionColumn) == QStringLiteral("hot_b"));
    CHECK(s.cell(Tab::BottomUp, 1, CallTreeModel::SelfPercentColumn) == QStringLiteral("30.0 %"));
    // hot_a's callers come when its row is expanded: rec (400 samples) before run (300).
    QTreeView* bottomUp = s.view.treeView(Tab::BottomUp);
    const QModelIndex hotA = bottomUp->model()->index(0, 0);
    CHECK(bottomUp->model()->hasChildren(hotA));
    CHECK(bottomUp->model()->rowCount(hotA) == 0);
    bottomUp->expand(hotA);
    REQUIRE(QTest::qWaitFor([&] { return bottomUp->model()->rowCount(hotA) > 0; }, 5000));
    CHECK(s.column(Tab::BottomUp, CallTreeModel::FunctionColumn, hotA)
        == QStringList {QStringLiteral("rec"), QStringLiteral("run")});
    const QModelIndex run = bottomUp->model()->index(1, 0, hotA);
    CHECK(bottomUp->model()->hasChildren(run));
    CHECK(bottomUp->model()->canFetchMore(run));
    // The models pass Qt's checks, which fetch every node of the bottom-up tree.
    for (Tab tab : {Tab::BottomUp, Tab::TopDown, Tab::Flat})
        QAbstractItemModelTester tester(
            s.view.treeView(tab)->model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    CHECK(
        s.column(Tab::BottomUp, CallTreeModel::FunctionColumn, run) == QStringList {QStringLiteral("main")});
    CHECK(s.column(Tab::BottomUp, CallTreeModel::SelfColumn, run) == QStringList {QStringLiteral("300")});

    // The top-down tree is opened along its hottest path: main > run > rec > rec > hot_a.
    QTreeView* topDown = s.view.treeView(Tab::TopDown);
    QStringList hottest;
    for (QModelIndex path = topDown->model()->index(0, 0); path.isValid();
         path = topDown->model()->index(0, 0, path)) {
        hottest << path.data().toString();
        if (!topDown->isExpanded(path)) break;
    }
    CHECK(hottest == names({"main", "run", "rec", "rec", "hot_a"}));
}

TEST_CASE("the bottom-up table shows before the top-down tree is made, which then follows it")
{
    CallStackView view;
    view.resize(900, 600);
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    struct Shown
    {
        int bottomUpRows;
        int topDownRows;
        bool busy;
    };
    std::vector<Shown> atTables, atTrees;
    auto rows = [&](Tab tab) { return view.treeView(tab)->model()->rowCount(); };
    QObject::connect(&view, &CallStackView::tablesShown, [&] {
        atTables.push_back({rows(Tab::BottomUp), rows(Tab::TopDown), view.isBusy()});
    });
    QObject::connect(&view, &CallStackView::treesShown, [&] {
        atTrees.push_back({rows(Tab::BottomUp), rows(Tab::TopDown), view.isBusy()});
    });
    const auto trace = std::make_shared<const Trace>(test::cpuSampleTrace(kRounds));
    view.setTrace(trace);
    REQUIRE(QTest::qWaitFor([&] { return !view.isBusy() && !atTrees.empty(); }, 30000));
    REQUIRE(atTables.size() == 1);
    // At the first step the leaf functions are listed (hot_a, hot_b) and the top-down tab is
    // still empty, while the view stays busy; the second step gives it its one root, main.
    CHECK(atTables[0].bottomUpRows == 2);
    CHECK(atTables[0].topDownRows == 0);
    CHECK(atTables[0].busy);
    REQUIRE(atTrees.size() == 1);
    CHECK(atTrees[0].topDownRows == 1);
    CHECK(view.treeView(Tab::TopDown)->model()->index(0, 0).data().toString() == QStringLiteral("main"));

    // A new scope: until its top-down tree arrives the tab keeps the old one rather than going
    // blank; a function chosen meanwhile in the new bottom-up table is that table's.
    QSignalSpy selected(&view, &CallStackView::functionSelected);
    QObject::connect(&view, &CallStackView::tablesShown, [&] {
        if (atTables.size() != 2) return;
        CHECK(rows(Tab::TopDown) == 1);
        view.treeView(Tab::BottomUp)->setCurrentIndex(view.treeView(Tab::BottomUp)->model()->index(0, 0));
    });
    view.setScope(std::nullopt, std::vector<Tid> {test::kCpuWorkerThread});
    REQUIRE(QTest::qWaitFor([&] { return !view.isBusy() && atTrees.size() == 2; }, 30000));
    REQUIRE(atTables.size() == 2);
    REQUIRE(selected.count() == 1);
    const auto selection = selected.at(0).at(0).value<CallStackSelection>();
    CHECK(selection.function == view.treeView(Tab::BottomUp)->model()->index(0, 0).data().toString());
    CHECK(view.trees()->samples == kRounds);
}

TEST_CASE("clicking a column header sorts the table by it")
{
    ShownView s;
    s.view.showTab(Tab::Flat);
    QTreeView* flat = s.view.treeView(Tab::Flat);
    CHECK(s.column(Tab::Flat, CallTreeModel::FunctionColumn)
        == names({"hot_a", "hot_b", "main", "run", "rec"}));

    QHeaderView* header = flat->header();
    auto clickHeader = [&](int column) {
        const QPoint at(
            header->sectionViewportPosition(column) + header->sectionSize(column) / 2, header->height() / 2);
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, at);
    };
    clickHeader(CallTreeModel::FunctionColumn);
    CHECK(header->sortIndicatorSection() == CallTreeModel::FunctionColumn);
    const QStringList byName = s.column(Tab::Flat, CallTreeModel::FunctionColumn);
    QStringList sorted = byName;
    std::sort(sorted.begin(), sorted.end());
    if (header->sortIndicatorOrder() == Qt::DescendingOrder) std::reverse(sorted.begin(), sorted.end());
    CHECK(byName == sorted);

    clickHeader(CallTreeModel::TotalColumn);
    if (header->sortIndicatorOrder() != Qt::DescendingOrder) clickHeader(CallTreeModel::TotalColumn);
    REQUIRE(header->sortIndicatorOrder() == Qt::DescendingOrder);
    CHECK(s.column(Tab::Flat, CallTreeModel::FunctionColumn)
        == names({"main", "run", "hot_a", "rec", "hot_b"}));
    CHECK(s.column(Tab::Flat, CallTreeModel::TotalColumn) == names({"1,000", "900", "800", "400", "300"}));
}

TEST_CASE("the filter keeps functions and modules that match, with their callers")
{
    ShownView s;
    QTest::keyClicks(s.view.filterEdit(), QStringLiteral("LIBM"));
    CHECK(s.column(Tab::Flat, CallTreeModel::FunctionColumn) == QStringList {QStringLiteral("hot_b")});
    CHECK(s.column(Tab::BottomUp, CallTreeModel::FunctionColumn) == QStringList {QStringLiteral("hot_b")});
    // In the top-down tree hot_b lies under main, which stays to lead there.
    CHECK(s.column(Tab::TopDown, CallTreeModel::FunctionColumn) == QStringList {QStringLiteral("main")});

    s.view.filterEdit()->clear();
    QTest::keyClicks(s.view.filterEdit(), QStringLiteral("rec"));
    CHECK(s.column(Tab::Flat, CallTreeModel::FunctionColumn) == QStringList {QStringLiteral("rec")});
    // rec is never a leaf: it shows as a caller of hot_a, found before hot_a's callers are fetched.
    QAbstractItemModel* bottomUp = s.view.treeView(Tab::BottomUp)->model();
    CHECK(s.column(Tab::BottomUp, CallTreeModel::FunctionColumn) == QStringList {QStringLiteral("hot_a")});
    const QModelIndex hotA = bottomUp->index(0, 0);
    REQUIRE(bottomUp->canFetchMore(hotA));
    bottomUp->fetchMore(hotA);
    CHECK(
        s.column(Tab::BottomUp, CallTreeModel::FunctionColumn, hotA) == QStringList {QStringLiteral("rec")});
    // A name among the callers of no leaf leaves the table empty.
    s.view.filterEdit()->clear();
    QTest::keyClicks(s.view.filterEdit(), QStringLiteral("no_such_function"));
    CHECK(bottomUp->rowCount() == 0);

    s.view.filterEdit()->clear();
    CHECK(s.view.treeView(Tab::Flat)->model()->rowCount() == 5);
}

TEST_CASE("a scope of time and threads recomputes the trees")
{
    ShownView s;
    s.view.setScope(TimeRange {0, 45});
    REQUIRE(s.waitForTrees());
    CHECK(s.view.trees()->samples == 6);
    CHECK(s.cell(Tab::BottomUp, 0, CallTreeModel::SelfColumn) == QStringLiteral("5"));

    s.view.setScope(std::nullopt, std::vector<Tid> {test::kCpuWorkerThread});
    REQUIRE(s.waitForTrees());
    CHECK(s.view.trees()->samples == kRounds);
    CHECK(s.cell(Tab::BottomUp, 0, CallTreeModel::FunctionColumn) == QStringLiteral("hot_b"));
    CHECK(s.cell(Tab::BottomUp, 0, CallTreeModel::SelfPercentColumn) == QStringLiteral("100.0 %"));

    // Scopes in quick succession: only the newest shows.
    for (Timestamp end = 100; end <= 1000; end += 100)
        s.view.setScope(TimeRange {0, end});
    REQUIRE(s.waitForTrees());
    CHECK(s.view.trees()->samples == 100);
}

TEST_CASE("choosing a function reports the stacks of its samples")
{
    ShownView s;
    QSignalSpy spy(&s.view, &CallStackView::functionSelected);
    s.view.showTab(Tab::Flat);
    QTreeView* flat = s.view.treeView(Tab::Flat);
    const QModelIndex hotA = flat->model()->index(0, 0);
    QTest::mouseClick(flat->viewport(), Qt::LeftButton, {}, flat->visualRect(hotA).center());
    REQUIRE(spy.count() == 1);
    const auto selection = spy.at(0).at(0).value<CallStackSelection>();
    CHECK(selection.function == QStringLiteral("hot_a"));
    CHECK(selection.module == QStringLiteral("libhot.so"));
    REQUIRE(selection.stacks);
    REQUIRE(selection.leafStacks);
    int64_t anywhere = 0, leaf = 0;
    for (const CpuSample& sample : s.trace->cpu.samples) {
        anywhere += std::binary_search(selection.stacks->begin(), selection.stacks->end(), sample.stack);
        leaf += std::binary_search(selection.leafStacks->begin(), selection.leafStacks->end(), sample.stack);
    }
    CHECK(anywhere == 8 * kRounds);
    CHECK(leaf == 7 * kRounds);
}

TEST_CASE("the flame graph paints frames by module, names them on hover and zooms on click")
{
    ShownView s;
    s.view.showTab(Tab::FlameGraph);
    FlameGraph* flame = s.view.flameGraph();
    REQUIRE(QTest::qWaitForWindowExposed(flame));
    QApplication::processEvents(); // the scroll area lays the newly shown tab out
    const QImage image = flame->grab().toImage();
    REQUIRE(!image.isNull());
    // The top bar, and the modules app, libhot.so and libm.so.6, each in its own colour.
    CHECK(colourCount(image) >= 5);
    const int row = flame->fontMetrics().height() + 6;
    // Row 1 is main across the whole width; row 2 starts with run (90%) then hot_a (10%).
    const QColor mainColour = image.pixelColor(flame->width() / 2, row + row / 2 + 2);
    const QColor hotAColour = image.pixelColor(flame->width() * 95 / 100, 2 * row + 2);
    CHECK(mainColour != hotAColour);

    const QString tip = flame->toolTipAt(QPoint(flame->width() / 2, row + row / 2));
    CHECK(tip.contains(QStringLiteral("main")));
    CHECK(tip.contains(QStringLiteral("1,000 samples (100.0 %)")));
    CHECK(flame->toolTipAt(QPoint(flame->width() * 95 / 100, 2 * row + row / 2))
              .contains(QStringLiteral("hot_a")));
    CHECK(flame->toolTipAt(QPoint(5, row / 2)).contains(QStringLiteral("All samples")));
    CHECK(flame->toolTipAt(QPoint(5, flame->height() - 2)).isEmpty());
    // A real hover shows the same text.
    const QPoint hover(flame->width() / 2, row + row / 2);
    QHelpEvent help(QEvent::ToolTip, hover, flame->mapToGlobal(hover));
    QApplication::sendEvent(flame, &help);
    CHECK(QToolTip::text().contains(QStringLiteral("main")));
    QToolTip::hideText();

    // Clicking hot_a (at 95% of row 2) zooms into it and selects it; Escape zooms out.
    QSignalSpy selected(&s.view, &CallStackView::functionSelected);
    const QPoint hotA(flame->width() * 95 / 100, 2 * row + row / 2);
    QTest::mouseClick(flame, Qt::LeftButton, {}, hotA);
    REQUIRE(flame->zoomNode() != kNoCallNode);
    CHECK(selected.count() == 1);
    CHECK(selected.at(0).at(0).value<CallStackSelection>().function == QStringLiteral("hot_a"));
    // Zoomed in, hot_a fills row 2 and its callee hot_b row 3.
    CHECK(flame->toolTipAt(QPoint(5, 2 * row + row / 2)).contains(QStringLiteral("hot_a")));
    CHECK(flame->toolTipAt(QPoint(flame->width() - 5, 3 * row + row / 2)).contains(QStringLiteral("hot_b")));
    QTest::keyClick(flame, Qt::Key_Escape);
    CHECK(flame->zoomNode() == kNoCallNode);
    // Clicking the top bar zooms out too.
    QTest::mouseClick(flame, Qt::LeftButton, {}, hotA);
    REQUIRE(flame->zoomNode() != kNoCallNode);
    QTest::mouseClick(flame, Qt::LeftButton, {}, QPoint(5, row / 2));
    CHECK(flame->zoomNode() == kNoCallNode);
}

TEST_CASE("a trace without samples shows empty tables and an empty flame graph")
{
    CallStackView view;
    view.resize(600, 400);
    view.show();
    view.setTrace(std::make_shared<const Trace>(TraceBuilder().build(1)));
    REQUIRE(QTest::qWaitFor([&] { return !view.isBusy() && view.trees(); }, 30000));
    CHECK(view.trees()->samples == 0);
    for (Tab tab : {Tab::BottomUp, Tab::TopDown, Tab::Flat})
        CHECK(view.treeView(tab)->model()->rowCount() == 0);
    view.setTrace(nullptr);
    CHECK(view.trees() == nullptr);
    CHECK(view.flameGraph()->toolTipAt(QPoint(5, 5)).isEmpty());
}
