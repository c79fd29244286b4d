// The Call Stacks pane of a report tab (app/ui/report/report_tab.cpp): offered only when the
// report has CPU samples, shown under the timeline, and scoped by the timeline's selection;
// and cpu_samples_sum on the Analysis Summary's CPU Samples tab.
#include "app/ui/report/report_tab.h"
#include "callstack_shots.h"
#include "unit/support/cpu_sample_trace.h"
#include "views/callstack/call_stack_view.h"
#include "views/summary/analysis_summary.h"
#include "views/summary/stats_panel.h"
#include "views/summary/stats_table_model.h"
#include "views/timeline/widgets/timeline_view.h"

#include <QTabWidget>
#include <QTest>
#include <QToolButton>
#include <QTreeView>
#include <catch2/catch.hpp>

using namespace sightline;

TEST_CASE("a report with CPU samples offers the Call Stacks pane, scoped by the timeline's selection")
{
    ui::ReportTab tab(QStringLiteral("cpu.rep"));
    tab.resize(1200, 800);
    tab.show();
    tab.showTrace(std::make_shared<const Trace>(test::cpuSampleTrace(10)));
    REQUIRE(tab.callStacksButton());
    CHECK(tab.callStacksButton()->isVisible());
    CHECK_FALSE(tab.isCallStacksPaneShown());

    tab.timeline()->setSelection(TimeRange {0, 45});
    QTest::mouseClick(tab.callStacksButton(), Qt::LeftButton);
    REQUIRE(tab.isCallStacksPaneShown());
    views::CallStackView* view = tab.callStacks();
    REQUIRE(view);
    CHECK(view->isVisible());
    CHECK(view->height() > 100);
    auto samplesShown = [view] {
        return QTest::qWaitFor([view] { return !view->isBusy() && view->trees(); }, 30000)
            ? view->trees()->samples
            : -1;
    };
    CHECK(samplesShown() == 6);

    tab.timeline()->setSelection(TimeRange {0, 200});
    CHECK(samplesShown() == 20);
    test::saveShot(test::shot(tab), "report-tab-pane.png");

    // Choosing hot_a in the pane marks its samples on the timeline.
    tab.timeline()->setVisibleRange({0, 1000});
    QTest::qWait(200);
    const QImage before = test::shot(*tab.timeline());
    view->showTab(views::CallStackView::Tab::Flat);
    QTreeView* flat = view->treeView(views::CallStackView::Tab::Flat);
    QTest::mouseClick(
        flat->viewport(), Qt::LeftButton, {}, flat->visualRect(flat->model()->index(0, 0)).center());
    QTest::qWait(200);
    const QImage after = test::shot(*tab.timeline());
    test::saveShot(after, "report-tab-highlight.png");
    CHECK(after != before);
    tab.timeline()->setSelection(std::nullopt);
    CHECK(samplesShown() == 100);

    // The Analysis Summary hides the pane's button; back in Timeline View it is there, checked.
    tab.setCurrentView(ui::ReportView::Summary);
    CHECK_FALSE(tab.callStacksButton()->isVisible());
    tab.setCurrentView(ui::ReportView::Timeline);
    CHECK(tab.callStacksButton()->isChecked());

    // A closed pane computes nothing; shown again, it catches up with the selection.
    QTest::mouseClick(tab.callStacksButton(), Qt::LeftButton);
    CHECK_FALSE(tab.isCallStacksPaneShown());
    tab.timeline()->setSelection(TimeRange {0, 45});
    CHECK_FALSE(view->isBusy());
    CHECK(view->trees()->samples == 100);
    QTest::mouseClick(tab.callStacksButton(), Qt::LeftButton);
    CHECK(samplesShown() == 6);
}

TEST_CASE("a report without CPU samples offers no Call Stacks pane")
{
    ui::ReportTab tab(QStringLiteral("gpu.rep"));
    tab.show();
    tab.showTrace(std::make_shared<const Trace>(TraceBuilder().build(1)));
    CHECK_FALSE(tab.callStacksButton()->isVisible());
    CHECK(tab.callStacks() == nullptr);
    tab.setCallStacksPaneShown(true);
    CHECK_FALSE(tab.isCallStacksPaneShown());
}

TEST_CASE("the Analysis Summary lists cpu_samples_sum on its CPU Samples tab")
{
    views::AnalysisSummary summary(std::make_shared<const Trace>(test::cpuSampleTrace(10)));
    summary.resize(1400, 900);
    summary.show();
    REQUIRE(QTest::qWaitFor([&] { return !summary.isBusy() && !summary.reports().empty(); }, 30000));
    QTabWidget* tabs = summary.stats()->tabs();
    QStringList titles;
    for (int t = 0; t < tabs->count(); ++t)
        titles << tabs->tabText(t);
    CHECK(titles.contains(QStringLiteral("CPU Samples (5)")));
    CHECK(titles.contains(QStringLiteral("CPU Time per Thread (0)")));
    const views::StatsTableModel* model = summary.stats()->model(StatsReportId::CpuSamplesSum);
    REQUIRE(model->rowCount() == 5);
    CHECK(model->index(0, 0).data().toString() == QStringLiteral("70.0"));
    CHECK(model->index(0, 4).data().toString() == QStringLiteral("hot_a"));
    CHECK(model->index(0, 5).data().toString() == QStringLiteral("libhot.so"));
}
