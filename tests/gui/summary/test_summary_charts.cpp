// The Analysis Summary's charts: their data checked against brute force (top kernels, the
// duration histogram, GPU utilization from the LOD summaries), the QCustomPlot widgets drawn
// from it, PNG export, and rendered frames of the whole summary for a look.
#include "events_test_support.h"
#include "model/stats/stats_engine.h"
#include "summary_test_support.h"
#include "test_paths.h"
#include "timeline_fixture.h"
#include "views/summary/chart_data.h"
#include "views/summary/stats_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QImage>
#include <QTabWidget>
#include <catch2/catch.hpp>
#include <map>

#ifdef SIGHTLINE_HAVE_QCUSTOMPLOT
#include "views/summary/qcustomplot_compat.h"
#include "views/summary/summary_charts.h"
#endif

using namespace sightline;
using namespace sightline::testing;
using namespace sightline::views;

TEST_CASE("the duration histogram counts every instance of the name, in increasing bins")
{
    const auto trace = generatedTrace();
    const StatsReport kernels = computeReport(*trace, StatsReportId::CudaGpuKernSum);
    REQUIRE_FALSE(kernels.rows.empty());
    const std::string& name = kernels.rows.front().name;
    for (bool logBins : {false, true}) {
        const Histogram h = durationHistogram(*trace, TrackKind::Kernels, name, std::nullopt, 30, logBins);
        REQUIRE(h.counts.size() == 30);
        REQUIRE(h.edges.size() == 31);
        int64_t sum = 0;
        for (int64_t c : h.counts)
            sum += c;
        CHECK(sum == kernels.rows.front().values.count);
        CHECK(h.total == kernels.rows.front().values.count);
        CHECK(h.minimum == kernels.rows.front().values.minimum);
        CHECK(h.maximum == kernels.rows.front().values.maximum);
        for (size_t e = 1; e < h.edges.size(); ++e)
            REQUIRE(h.edges[e] > h.edges[e - 1]);
        CHECK(h.edges.front() <= double(h.minimum) + 1e-6);
        CHECK(h.edges.back() >= double(h.maximum) - 1e-3);
    }
    // With a range, only instances starting in it.
    const TimeRange range = middleRange(*trace);
    const StatsReport ranged = computeReport(*trace, StatsReportId::CudaGpuKernSum, range);
    const StatsRow* row = ranged.find(name);
    const Histogram h = durationHistogram(*trace, TrackKind::Kernels, name, range, 10, true);
    CHECK(h.total == (row ? row->values.count : 0));
}

TEST_CASE("GPU utilization from the LOD summaries matches the busy time of the kernels")
{
    const auto trace = generatedTrace();
    const TimeRange window = trace->span;
    const int columns = 200;
    const auto series = gpuUtilization(*trace, window, columns);
    REQUIRE(series.size() == trace->gpus.size());
    for (const UtilizationSeries& s : series) {
        REQUIRE(s.busy.size() == size_t(columns));
        double busyTime = 0;
        for (double b : s.busy) {
            REQUIRE(b >= 0.0);
            REQUIRE(b <= 1.0);
            busyTime += b * double(window.duration()) / columns;
        }
        // Between the busiest stream's kernel time and the sum over streams of the device.
        double sum = 0, busiestStream = 0;
        for (const Track& t : trace->tracks)
            if (t.key.kind == TrackKind::Kernels && t.key.device == s.device) {
                double streamTime = 0;
                for (uint32_t i = 0; i < t.size(); ++i)
                    streamTime += double(t.duration(i));
                sum += streamTime;
                busiestStream = std::max(busiestStream, streamTime);
            }
        CHECK(busyTime <= sum * 1.01);
        CHECK(busyTime >= busiestStream * 0.99);
    }
}

#ifdef SIGHTLINE_HAVE_QCUSTOMPLOT

TEST_CASE("the charts draw the top kernels, the histogram, utilization and memory volume, and export PNGs")
{
    const auto trace = generatedTrace();
    AnalysisSummary summary(trace, {QStringLiteral("generated.rep"), 4096});
    summary.resize(1600, 1000);
    summary.show();
    REQUIRE(waitForReports(summary));
    SummaryCharts* charts = summary.charts();
    REQUIRE(charts);

    // Top kernels: one bar per kernel, the report's totals in milliseconds, largest at the top.
    const StatsReport kernels = computeReport(*trace, StatsReportId::CudaGpuKernSum);
    QCustomPlot* top = charts->topKernels()->plot();
    REQUIRE(top->plottableCount() == 1);
    auto* bars = qobject_cast<QCPBars*>(top->plottable(0));
    REQUIRE(bars);
    const int n = std::min<int>(10, int(kernels.rows.size()));
    REQUIRE(bars->data()->size() == n);
    std::map<double, double> valueAtKey;
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
        valueAtKey[it->key] = it->value;
    for (int i = 0; i < n; ++i)
        CHECK(valueAtKey[double(n - i)] == Approx(double(kernels.rows[size_t(i)].values.total) / 1e6));

    // Memory volume: one bar per operation of the size report.
    const StatsReport sizes = computeReport(*trace, StatsReportId::CudaGpuMemSizeSum);
    CHECK(charts->memoryVolume()->plot()->plottableCount() == int(std::min<size_t>(12, sizes.rows.size())));
    // Utilization: one graph per GPU.
    CHECK(charts->utilization()->plot()->graphCount() == int(trace->gpus.size()));

    // The histogram follows the chosen name and the log scale box.
    REQUIRE(charts->setHistogramName(TrackKind::Kernels, QString::fromStdString(kernels.rows[2].name)));
    QCustomPlot* histogram = charts->histogram()->plot();
    REQUIRE(histogram->graphCount() == 1);
    double counted = 0;
    for (auto it = histogram->graph(0)->data()->constBegin();
         it + 1 != histogram->graph(0)->data()->constEnd(); ++it)
        counted += it->value;
    CHECK(counted == double(kernels.rows[2].values.count));
    CHECK(histogram->xAxis->scaleType() == QCPAxis::stLogarithmic);
    charts->logScale()->setChecked(false);
    CHECK(histogram->xAxis->scaleType() == QCPAxis::stLinear);

    const auto folder = test::scratchDir("summary_charts");
    REQUIRE(charts->exportAll(QString::fromStdString(folder.string())).isEmpty());
    const char* files[]
        = {"top-kernels.png", "duration-histogram.png", "gpu-utilization.png", "memory-volume.png"};
    for (size_t i = 0; i < 4; ++i) {
        const QImage image(QString::fromStdString((folder / files[i]).string()));
        const QCustomPlot* plot = charts->panels()[i]->plot();
        INFO(files[i]);
        CHECK(image.size() == plot->size()); // laid out as shown
        CHECK(image.width() >= 300);
    }
    CHECK_FALSE(charts->topKernels()->exportPng(QStringLiteral("/nonexistent-folder/x.png")).ok());
}

#endif

TEST_CASE("the Analysis Summary renders like a profiler summary page")
{
    const auto trace = generatedTrace();
    AnalysisSummary summary(trace, {QStringLiteral("/home/ml/llm-train/run1.rep"), 48213504});
    summary.resize(1600, 950);
    summary.show();
    summary.setSelectedRange(middleRange(*trace));
    REQUIRE(waitForReports(summary));
    const auto folder = test::scratchDir("summary_render");
    const QImage statistics = summary.grab().toImage();
    REQUIRE(statistics.save(QString::fromStdString((folder / "summary_statistics.png").string())));
    summary.pages()->setCurrentIndex(1);
    const QImage charts = summary.grab().toImage();
    REQUIRE(charts.save(QString::fromStdString((folder / "summary_charts.png").string())));
    CHECK(statistics != charts);
}
