#include "views/summary/summary_charts.h"

#include "model/text/kernel_names.h"
#include "views/summary/chart_data.h"
#include "views/summary/qcustomplot_compat.h"
#include "views/summary/report_facts.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>

namespace sightline::views {
namespace {

constexpr size_t kTopKernels = 10;
constexpr double kNameShare = 0.45; // of the top kernels plot's width, at most, for the names
constexpr int kHistogramBins = 40;
constexpr int kUtilizationColumns = 400;
constexpr int kNameRole = Qt::UserRole + 1;

QString fromStd(const std::string& s)
{
    return QString::fromStdString(s);
}

QString elided(QString text, int chars)
{
    if (text.size() > chars) text = text.left(chars - 1) + QStringLiteral("\u2026");
    return text;
}

// "[CUDA memcpy Host-to-Device]" -> "Host-to-Device", "[CUDA memset]" -> "Memset".
QString shortOperationName(const std::string& name)
{
    QString text = fromStd(name);
    text.remove(QLatin1Char('[')).remove(QLatin1Char(']'));
    text.remove(QStringLiteral("CUDA memcpy "))
        .replace(QStringLiteral("CUDA memset"), QStringLiteral("Memset"));
    return text.trimmed();
}

// "30,828 MB", "2.9 MB", "0.42 MB", "3.1 kB"
QString megabytesText(double megabytes)
{
    if (megabytes >= 10) return groupedNumber(qint64(std::llround(megabytes))) + QStringLiteral(" MB");
    if (megabytes >= 0.01)
        return QString::number(megabytes, 'f', megabytes >= 1 ? 1 : 2) + QStringLiteral(" MB");
    return QString::number(megabytes * 1e3, 'f', 1) + QStringLiteral(" kB");
}

QString millisecondsText(double ms)
{
    return QLocale(QLocale::English, QLocale::UnitedStates).toString(ms, 'f', ms < 10 ? 2 : 1)
        + QStringLiteral(" ms");
}

// Tick marks only outside the plot, so none shows inside a bar (where it reads as a minus
// sign before the bar's value label).
void keepTicksOutside(QCPAxis* axis)
{
    axis->setTickLength(0, 4);
    axis->setSubTicks(false);
}

// Ticks for counts: whole numbers, a step of one at least, sub-ticks only on whole numbers.
class CountTicker : public QCPAxisTicker
{
protected:
    double getTickStep(const QCPRange& range) override
    {
        return std::max(1.0, std::floor(QCPAxisTicker::getTickStep(range) + 1e-9));
    }
    int getSubTickCount(double tickStep) override
    {
        const int count = QCPAxisTicker::getSubTickCount(tickStep);
        const double subStep = tickStep / (count + 1);
        return subStep == std::floor(subStep) ? count : 0;
    }
};

QCPItemText* barLabel(QCustomPlot* plot, double x, double y, const QString& text, Qt::Alignment alignment)
{
    auto* label = new QCPItemText(plot);
    label->position->setCoords(x, y);
    label->setPositionAlignment(alignment);
    label->setText(text);
    label->setColor(plot->xAxis->tickLabelColor());
    label->setPadding(QMargins(4, 0, 4, 0));
    return label;
}

} // namespace

SummaryCharts::SummaryCharts(std::shared_ptr<const Trace> trace, QWidget* parent)
    : QWidget(parent)
    , m_trace(std::move(trace))
{
    m_topKernels = new ChartPanel(tr("Top kernels by total GPU time"), this);
    m_histogram = new ChartPanel(tr("Duration histogram"), this, ChartPanel::ControlsRow::OwnRow);
    m_utilization = new ChartPanel(tr("GPU utilization over time"), this);
    m_memoryVolume = new ChartPanel(tr("Memory transfer volume by kind"), this);

    m_names = new QComboBox(m_histogram);
    m_names->setMinimumContentsLength(28);
    m_names->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_names->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_logScale = new QCheckBox(tr("Log scale"), m_histogram);
    m_logScale->setChecked(true);
    m_logScale->setToolTip(tr("Bin durations evenly on a logarithmic axis"));
    m_histogram->controls()->addWidget(m_names);
    m_histogram->controls()->addWidget(m_logScale);
    connect(m_names, &QComboBox::currentIndexChanged, this, &SummaryCharts::drawHistogram);
    connect(m_topKernels->plot(), &QCustomPlot::beforeReplot, this, &SummaryCharts::fitTopKernelNames);
    connect(m_topKernels->plot(), &QCustomPlot::afterLayout, this, &SummaryCharts::fitTopKernelValues);

    // The utilization legend sits in a row of its own under the plot, off the data.
    QCustomPlot* utilization = m_utilization->plot();
    auto* legendRow = new QCPLayoutGrid;
    utilization->plotLayout()->addElement(1, 0, legendRow);
    utilization->axisRect()->insetLayout()->take(utilization->legend);
    legendRow->addElement(0, 0, utilization->legend);
    legendRow->setMargins(QMargins(0, 0, 0, 4));
    utilization->legend->setFillOrder(QCPLegend::foColumnsFirst);
    utilization->legend->setBorderPen(Qt::NoPen);
    utilization->plotLayout()->setRowStretchFactor(1, 0.001);
    connect(m_logScale, &QCheckBox::toggled, this, &SummaryCharts::drawHistogram);

    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(6, 6, 6, 6);
    grid->setSpacing(8);
    grid->addWidget(m_topKernels, 0, 0);
    grid->addWidget(m_histogram, 0, 1);
    grid->addWidget(m_utilization, 1, 0);
    grid->addWidget(m_memoryVolume, 1, 1);
}

const StatsReport* SummaryCharts::report(StatsReportId id) const
{
    for (const StatsReport& r : m_reports)
        if (r.id == id) return &r;
    return nullptr;
}

void SummaryCharts::setReports(const std::vector<StatsReport>& reports, std::optional<TimeRange> range)
{
    m_reports = reports;
    m_range = range;
    fillNameChoices();
    drawTopKernels();
    drawHistogram();
    drawUtilization();
    drawMemoryVolume();
}

void SummaryCharts::fillNameChoices()
{
    const QString previous = m_names->currentData(kNameRole).toString();
    const int previousKind = m_names->currentData().toInt();
    const QSignalBlocker block(m_names);
    m_names->clear();
    auto add = [&](StatsReportId id, TrackKind kind, const QString& prefix) {
        if (const StatsReport* r = report(id))
            for (const NamedTotal& row : topRows(*r, 50)) {
                const QString name = fromStd(row.name);
                const QString shown = kind == TrackKind::Kernels ? fromStd(kernelLabel(row.name)) : name;
                m_names->addItem(prefix + elided(shown, 48), int(kind));
                m_names->setItemData(m_names->count() - 1, name, kNameRole);
                m_names->setItemData(m_names->count() - 1, name, Qt::ToolTipRole);
            }
    };
    add(StatsReportId::CudaGpuKernSum, TrackKind::Kernels, tr("Kernel: "));
    add(StatsReportId::CudaApiSum, TrackKind::CudaApi, tr("CUDA API: "));
    add(StatsReportId::OsrtSum, TrackKind::OsRuntime, tr("OS runtime: "));
    for (int i = 0; i < m_names->count(); ++i)
        if (m_names->itemData(i).toInt() == previousKind
            && m_names->itemData(i, kNameRole).toString() == previous)
            m_names->setCurrentIndex(i);
}

bool SummaryCharts::setHistogramName(TrackKind kind, const QString& name)
{
    for (int i = 0; i < m_names->count(); ++i)
        if (m_names->itemData(i).toInt() == int(kind) && m_names->itemData(i, kNameRole).toString() == name) {
            m_names->setCurrentIndex(i);
            drawHistogram();
            return true;
        }
    return false;
}

void SummaryCharts::drawTopKernels()
{
    m_topKernels->clear();
    m_topKernelNames.clear();
    QCustomPlot* plot = m_topKernels->plot();
    const StatsReport* kernels = report(StatsReportId::CudaGpuKernSum);
    const std::vector<NamedTotal> top = kernels ? topRows(*kernels, kTopKernels) : std::vector<NamedTotal> {};
    if (top.empty()) {
        m_topKernels->showEmptyNote(
            m_range ? tr("No CUDA kernels start in the selection") : tr("No CUDA kernels"));
        plot->replot();
        return;
    }
    const double total = double(kernels->total());
    auto* bars = new QCPBars(plot->yAxis, plot->xAxis);
    bars->setWidth(0.7);
    bars->setPen(Qt::NoPen);
    bars->setBrush(chartColor(0));
    QVector<double> keys, values;
    const int n = int(top.size());
    double longest = 0;
    for (int i = 0; i < n; ++i) {
        const double key = n - i; // the largest at the top
        const double ms = double(top[size_t(i)].total) / 1e6;
        keys << key;
        values << ms;
        longest = std::max(longest, ms);
        m_topKernelNames.push_back(fromStd(kernelLabel(top[size_t(i)].name)));
        barLabel(plot, ms, key,
            QStringLiteral("%1  (%2%)")
                .arg(millisecondsText(ms))
                .arg(100.0 * double(top[size_t(i)].total) / total, 0, 'f', 1),
            Qt::AlignLeft | Qt::AlignVCenter);
    }
    bars->setData(keys, values, true);
    plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
    keepTicksOutside(plot->yAxis);
    plot->yAxis->grid()->setVisible(false);
    plot->yAxis->setRange(0.4, n + 0.6);
    plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    plot->xAxis->setLabel(tr("Total GPU time (ms)"));
    plot->xAxis->setRange(0, longest * 1.05);
    plot->replot();
}

void SummaryCharts::fitTopKernelNames()
{
    QCustomPlot* plot = m_topKernels->plot();
    const auto names = qSharedPointerDynamicCast<QCPAxisTickerText>(plot->yAxis->ticker());
    if (!names) return;
    const QFontMetrics metrics(plot->yAxis->tickLabelFont());
    const int room = std::max(8 * metrics.averageCharWidth(), int(plot->width() * kNameShare));
    names->clear();
    const int n = int(m_topKernelNames.size());
    for (int i = 0; i < n; ++i)
        names->addTick(n - i, metrics.elidedText(m_topKernelNames[size_t(i)], Qt::ElideRight, room));
}

void SummaryCharts::fitTopKernelValues()
{
    // A bar of `ms` ends at ms / range of the axis's width, and its label needs its own width
    // after that: the range grows until the widest need is met (labels too wide for the plot
    // whatever the range are left as they are).
    QCustomPlot* plot = m_topKernels->plot();
    const double width = plot->axisRect()->width();
    if (m_topKernelNames.empty() || width < 1) return;
    double range = 0;
    for (int i = 0; i < plot->itemCount(); ++i) {
        const auto* label = qobject_cast<QCPItemText*>(plot->item(i));
        if (!label || label->position->type() != QCPItemPosition::ptPlotCoords) continue;
        const double ms = label->position->coords().x();
        const double needed = QFontMetrics(label->font()).horizontalAdvance(label->text())
            + label->padding().left() + label->padding().right() + 4;
        range = std::max(range, ms * 1.05);
        if (needed < width * 0.9) range = std::max(range, ms * width / (width - needed));
    }
    if (range <= 0 || range == plot->xAxis->range().upper) return;
    plot->xAxis->setRange(0, range);
    plot->axisRect()->update(QCPLayoutElement::upPreparation); // the ticks of the new range
}

void SummaryCharts::drawHistogram()
{
    m_histogram->clear();
    QCustomPlot* plot = m_histogram->plot();
    const QString name = m_names->currentData(kNameRole).toString();
    if (name.isEmpty()) {
        m_histogram->showEmptyNote(tr("No kernels or calls to show"));
        plot->replot();
        return;
    }
    const bool logBins = m_logScale->isChecked();
    const Histogram h = durationHistogram(*m_trace, TrackKind(m_names->currentData().toInt()),
        name.toStdString(), m_range, kHistogramBins, logBins);
    auto* graph = plot->addGraph();
    QVector<double> x, y;
    double highest = 0;
    for (size_t b = 0; b < h.counts.size(); ++b) {
        x << h.edges[b] / 1e3;
        y << double(h.counts[b]);
        highest = std::max(highest, double(h.counts[b]));
    }
    x << h.edges.back() / 1e3;
    y << (h.counts.empty() ? 0.0 : double(h.counts.back()));
    graph->setData(x, y, true);
    graph->setLineStyle(QCPGraph::lsStepLeft);
    QColor fill = chartColor(1);
    graph->setPen(QPen(fill, 1.5));
    fill.setAlpha(110);
    graph->setBrush(fill);
    if (logBins) {
        plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
        QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
        ticker->setSubTickCount(8);
        plot->xAxis->setTicker(ticker);
        plot->xAxis->setNumberFormat(QStringLiteral("gb"));
    } else {
        plot->xAxis->setScaleType(QCPAxis::stLinear);
        plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        plot->xAxis->setNumberFormat(QStringLiteral("g"));
    }
    plot->xAxis->setLabel(logBins ? tr("Duration (\u00b5s, log scale)") : tr("Duration (\u00b5s)"));
    plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new CountTicker));
    plot->yAxis->setLabel(tr("Instances"));
    plot->xAxis->setRange(x.front(), x.back());
    plot->yAxis->setRange(0, std::max(1.0, highest * 1.15));
    if (h.total == 0) m_histogram->showEmptyNote(tr("No instances in the selection"));
    plot->replot();
}

void SummaryCharts::drawUtilization()
{
    m_utilization->clear();
    QCustomPlot* plot = m_utilization->plot();
    const TimeRange window = m_range.value_or(m_trace->span);
    // With GPU metrics, how busy the SMs and tensor cores were; without, kernel busy time.
    if (drawMetricCurves(window)) return;
    const std::vector<UtilizationSeries> series = gpuUtilization(*m_trace, window, kUtilizationColumns);
    if (series.empty()) {
        m_utilization->showEmptyNote(tr("No CUDA kernels"));
        plot->replot();
        return;
    }
    const double step = double(window.duration()) / kUtilizationColumns;
    for (size_t s = 0; s < series.size(); ++s) {
        auto* graph = plot->addGraph();
        QVector<double> x, y;
        for (size_t c = 0; c < series[s].busy.size(); ++c) {
            x << (double(window.start) + double(c) * step) / 1e9;
            y << series[s].busy[c] * 100.0;
        }
        x << double(window.end) / 1e9;
        y << y.back();
        graph->setData(x, y, true);
        graph->setLineStyle(QCPGraph::lsStepLeft);
        QColor color = chartColor(int(s));
        graph->setPen(QPen(color, 1.2));
        color.setAlpha(series.size() == 1 ? 90 : 45);
        graph->setBrush(color);
        const Gpu* gpu = m_trace->findGpu(series[s].device);
        graph->setName(gpu ? QStringLiteral("GPU %1 (%2)").arg(series[s].device.value).arg(fromStd(gpu->name))
                           : QStringLiteral("GPU %1").arg(series[s].device.value));
    }
    plot->xAxis->setScaleType(QCPAxis::stLinear);
    plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    plot->xAxis->setLabel(tr("Time since start (s)"));
    plot->yAxis->setLabel(tr("Kernel busy (%)"));
    plot->xAxis->setRange(double(window.start) / 1e9, double(window.end) / 1e9);
    plot->yAxis->setRange(0, 105);
    plot->legend->setVisible(true);
    plot->replot();
}

bool SummaryCharts::drawMetricCurves(TimeRange window)
{
    const std::vector<MetricCurve> curves = gpuMetricCurves(*m_trace, window, kUtilizationColumns);
    if (curves.empty()) return false;
    QCustomPlot* plot = m_utilization->plot();
    const double step = double(window.duration()) / kUtilizationColumns;
    for (size_t s = 0; s < curves.size(); ++s) {
        auto* graph = plot->addGraph();
        QVector<double> x, y;
        for (size_t c = 0; c < curves[s].values.size(); ++c) {
            x << (double(window.start) + double(c) * step) / 1e9;
            y << curves[s].values[c]; // NaN leaves a gap
        }
        graph->setData(x, y, true);
        graph->setLineStyle(QCPGraph::lsStepLeft);
        QColor color = chartColor(int(s));
        graph->setPen(QPen(color, 1.2));
        color.setAlpha(curves.size() <= 2 ? 70 : 35);
        graph->setBrush(color);
        graph->setName(QStringLiteral("%1, GPU %2").arg(fromStd(curves[s].name)).arg(curves[s].device.value));
    }
    plot->xAxis->setScaleType(QCPAxis::stLinear);
    plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    plot->xAxis->setLabel(tr("Time since start (s)"));
    plot->yAxis->setLabel(tr("GPU metrics (%)"));
    plot->xAxis->setRange(double(window.start) / 1e9, double(window.end) / 1e9);
    plot->yAxis->setRange(0, 105);
    plot->legend->setVisible(true);
    plot->replot();
    return true;
}

void SummaryCharts::drawMemoryVolume()
{
    m_memoryVolume->clear();
    QCustomPlot* plot = m_memoryVolume->plot();
    const StatsReport* sizes = report(StatsReportId::CudaGpuMemSizeSum);
    const std::vector<NamedTotal> rows = sizes ? topRows(*sizes, 12) : std::vector<NamedTotal> {};
    if (rows.empty()) {
        m_memoryVolume->showEmptyNote(
            m_range ? tr("No memory operations start in the selection") : tr("No memory operations"));
        plot->replot();
        return;
    }
    QSharedPointer<QCPAxisTickerText> names(new QCPAxisTickerText);
    double highest = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
        const double key = double(i + 1);
        const double megabytes = double(rows[i].total) / 1e6;
        auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setWidth(0.6);
        bars->setPen(Qt::NoPen);
        bars->setBrush(chartColor(int(i) + 1));
        bars->addData(key, megabytes);
        names->addTick(key, shortOperationName(rows[i].name));
        highest = std::max(highest, megabytes);
        barLabel(plot, key, megabytes, megabytesText(megabytes), Qt::AlignHCenter | Qt::AlignBottom);
    }
    plot->xAxis->setScaleType(QCPAxis::stLinear);
    plot->xAxis->setTicker(names);
    keepTicksOutside(plot->xAxis);
    plot->xAxis->grid()->setVisible(false);
    plot->xAxis->setRange(0.4, double(rows.size()) + 0.6);
    plot->yAxis->setLabel(tr("Bytes moved (MB)"));
    plot->yAxis->setRange(0, highest * 1.2);
    plot->replot();
}

QStringList SummaryCharts::exportAll(const QString& directory) const
{
    QStringList errors;
    const char* files[]
        = {"top-kernels.png", "duration-histogram.png", "gpu-utilization.png", "memory-volume.png"};
    const auto all = panels();
    for (size_t i = 0; i < all.size(); ++i)
        if (const Status written = all[i]->exportPng(QDir(directory).filePath(QString::fromLatin1(files[i])));
            !written)
            errors << QString::fromStdString(written.error());
    return errors;
}

} // namespace sightline::views
