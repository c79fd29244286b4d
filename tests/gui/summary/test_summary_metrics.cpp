// GPU metrics in the Analysis Summary: the counter tables (gpu_metrics_sum, gpu_metrics_kern_sum)
// on tabs of their own, equal to what `sightline stats` computes, and the utilization chart
// drawn from SMs Active and Tensor Active.
#include "generate.h"
#include "model/stats/counter_stats.h"
#include "summary_test_support.h"
#include "test_paths.h"
#include "views/summary/stats_panel.h"

#include <QTabWidget>
#include <catch2/catch.hpp>

#ifdef SIGHTLINE_HAVE_QCUSTOMPLOT
#include "views/summary/qcustomplot_compat.h"
#include "views/summary/summary_charts.h"
#endif

using namespace sightline;
using namespace sightline::testing;
using namespace sightline::views;

TEST_CASE("the Analysis Summary shows the GPU metrics tables and charts SMs Active")
{
    gen::GeneratorOptions options;
    options.events = 30000;
    options.gpuMetricsHz = 10000;
    const auto trace = std::make_shared<const Trace>(gen::generateTrace(options));
    AnalysisSummary summary(trace, {});
    summary.resize(1400, 800);
    summary.show();
    REQUIRE(waitForReports(summary));
    for (std::string_view name : counterReportNames()) {
        const StatsTableModel* model = summary.stats()->counterModel(std::string(name));
        REQUIRE(model);
        CHECK(sameCells(*model, *counterReport(name, *trace, std::nullopt)));
    }
    CHECK(summary.stats()->counterModel("gpu_metrics_sum")->rowCount() == 10);
    CHECK(summary.stats()->counterModel("gpu_metrics_kern_sum")->rowCount() > 0);
    bool tabShown = false;
    for (int i = 0; i < summary.stats()->tabs()->count(); ++i)
        tabShown = tabShown || summary.stats()->tabs()->tabText(i) == QStringLiteral("GPU Metrics");
    CHECK(tabShown);
#ifdef SIGHTLINE_HAVE_QCUSTOMPLOT
    QCustomPlot* plot = summary.charts()->utilization()->plot();
    CHECK(plot->graphCount() == 4); // SMs Active and Tensor Active of two GPUs
    CHECK(plot->yAxis->label().contains(QStringLiteral("GPU metrics")));
    const auto folder = test::scratchDir("summary_metrics");
    summary.stats()->tabs()->setCurrentIndex(summary.stats()->tabs()->count() - 3);
    REQUIRE(summary.grab().toImage().save(QString::fromStdString((folder / "metrics_table.png").string())));
    summary.pages()->setCurrentIndex(1);
    REQUIRE(summary.grab().toImage().save(QString::fromStdString((folder / "metrics_chart.png").string())));
#endif
}
