// The Analysis Summary's chart axes and labels on the sample report and a generated one:
// duration axes start at zero (no negative tick inside a bar), count axes tick in whole
// numbers, and no label is cut short at the default size.
#include "model/import/open_trace.h"
#include "model/text/kernel_names.h"
#include "summary_test_support.h"
#include "test_paths.h"
#include "timeline_fixture.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QImage>
#include <QStyleOptionComboBox>
#include <QTabWidget>
#include <catch2/catch.hpp>

#ifdef SIGHTLINE_HAVE_QCUSTOMPLOT
#include "views/summary/qcustomplot_compat.h"
#include "views/summary/summary_charts.h"
#endif

using namespace sightline;
using namespace sightline::testing;
using namespace sightline::views;

#ifdef SIGHTLINE_HAVE_QCUSTOMPLOT

namespace {

std::shared_ptr<const Trace> sampleTrace()
{
    const auto path = std::filesystem::path(SIGHTLINE_SOURCE_DIR) / "resources/samples/sample.rep";
    Result<Trace> trace = openTrace(path.string());
    REQUIRE(trace);
    return std::make_shared<const Trace>(std::move(trace.value()));
}

// The summary of `trace` at the default size, its charts page shown and saved as `name`.png.
struct ShownCharts
{
    AnalysisSummary summary;
    ShownCharts(std::shared_ptr<const Trace> trace, const std::string& name)
        : summary(std::move(trace), {QStringLiteral("shown.rep"), 4096})
    {
        summary.resize(1600, 950);
        summary.show();
        REQUIRE(waitForReports(summary));
        summary.pages()->setCurrentIndex(1);
        const QImage image = summary.grab().toImage();
        REQUIRE(image.save(QString::fromStdString((test::scratchDir(name) / (name + ".png")).string())));
    }
    SummaryCharts& charts() { return *summary.charts(); }
};

// Every value label of the plot (a text at plot coordinates) lies wholly inside the axis rect,
// where nothing clips it; returns how many there are.
int checkLabelsInside(QCustomPlot* plot)
{
    plot->replot();
    const QRectF inside = QRectF(plot->axisRect()->rect()).adjusted(-1, -1, 1, 1);
    int labels = 0;
    for (int i = 0; i < plot->itemCount(); ++i) {
        const auto* label = qobject_cast<QCPItemText*>(plot->item(i));
        if (!label || label->position->type() != QCPItemPosition::ptPlotCoords) continue;
        INFO(label->text().toStdString());
        CHECK(inside.contains(label->topLeft->pixelPosition()));
        CHECK(inside.contains(label->bottomRight->pixelPosition()));
        ++labels;
    }
    return labels;
}

// The ticks of an axis as drawn: at least two, and at or above zero.
void checkTicksFromZero(QCPAxis* axis)
{
    CHECK(axis->range().lower >= 0);
    const QVector<double> ticks = axis->tickVector();
    CHECK(ticks.size() >= 2);
    for (double tick : ticks)
        CHECK(tick >= 0);
}

void checkCharts(ShownCharts& shown, bool namesFit)
{
    SummaryCharts& charts = shown.charts();
    QCustomPlot* top = charts.topKernels()->plot();
    QCustomPlot* memory = charts.memoryVolume()->plot();
    QCustomPlot* histogram = charts.histogram()->plot();

    // Top kernels: the time axis starts at zero; the name axis has no ticks among the bars.
    top->replot();
    checkTicksFromZero(top->xAxis);
    CHECK(top->yAxis->tickLengthIn() == 0);
    CHECK_FALSE(top->yAxis->subTicks());
    CHECK(memory->xAxis->tickLengthIn() == 0);
    CHECK_FALSE(memory->xAxis->subTicks());

    // Every value label shows whole, at the default size and a smaller one.
    const int bars = top->plottableCount() ? top->plottable(0)->interface1D()->dataCount() : 0;
    CHECK(bars > 0);
    CHECK(checkLabelsInside(top) == bars);
    CHECK(checkLabelsInside(memory) == memory->plottableCount());

    // Kernel names show in full where they fit (all of them on the sample report).
    const StatsReport* kernels = nullptr;
    for (const StatsReport& report : shown.summary.reports())
        if (report.id == StatsReportId::CudaGpuKernSum) kernels = &report;
    REQUIRE(kernels);
    const auto names = qSharedPointerDynamicCast<QCPAxisTickerText>(top->yAxis->ticker());
    REQUIRE(names);
    REQUIRE(names->ticks().size() == bars);
    for (int i = 0; i < bars; ++i) {
        const QString full = QString::fromStdString(kernelLabel(kernels->rows[size_t(i)].name));
        const QString shownName = names->ticks().value(double(bars - i));
        if (namesFit || full.size() <= 30)
            CHECK(shownName == full);
        else
            CHECK((shownName == full || shownName.endsWith(QChar(0x2026))));
    }

    // The histogram's choice shows the top kernel's name whole.
    QComboBox* choice = charts.histogramNames();
    choice->setCurrentIndex(0);
    QStyleOptionComboBox option;
    option.initFrom(choice);
    const QRect field
        = choice->style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, choice);
    CHECK(choice->fontMetrics().horizontalAdvance(choice->currentText()) <= field.width());

    // The histogram counts in whole numbers, for every name offered, on either scale.
    for (const bool log : {true, false}) {
        charts.logScale()->setChecked(log);
        for (int i = 0; i < std::min(charts.histogramNames()->count(), 12); ++i) {
            charts.histogramNames()->setCurrentIndex(i);
            histogram->replot();
            INFO(charts.histogramNames()->currentText().toStdString() << (log ? " (log)" : ""));
            checkTicksFromZero(histogram->yAxis);
            CHECK(histogram->xAxis->range().lower >= 0);
            for (double tick : histogram->yAxis->tickVector())
                CHECK(tick == std::round(tick));
            for (const QString& label : histogram->yAxis->tickVectorLabels())
                CHECK_FALSE(label.contains(QLatin1Char('.')));
        }
    }
    charts.logScale()->setChecked(true);
}

} // namespace

TEST_CASE("Chart axes start at zero, counts tick in whole numbers and labels show whole")
{
    ShownCharts sample(sampleTrace(), "sample_charts");
    checkCharts(sample, true);
    ShownCharts generated(generatedTrace(), "generated_charts");
    checkCharts(generated, false);
    // Smaller, the labels are fitted again.
    generated.summary.resize(1100, 800);
    QApplication::processEvents();
    CHECK(checkLabelsInside(generated.charts().topKernels()->plot()) > 0);
    CHECK(checkLabelsInside(generated.charts().memoryVolume()->plot()) > 0);
}

#endif
