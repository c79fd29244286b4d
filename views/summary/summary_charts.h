// The Analysis Summary's charts, drawn with QCustomPlot from chart_data.h: top kernels by total
// GPU time (bars), the duration histogram of a chosen kernel or call (log scale option), GPU
// utilization over time per device (busy fraction from the LOD summaries) and memory transfer
// volume by kind. They follow the summary's scope: redrawn from the same stats reports the
// tables show, over the same range. Each chart exports to PNG.
// The top kernels chart is refitted at every replot, so it holds at any size: names elided to
// a share of the width before the layout, then the time axis widened until each value label
// fits right of its bar. Category axes have no ticks reaching into the bars (where one reads
// as a minus sign); the histogram's count axis ticks whole numbers only.
#pragma once

#include "model/stats/stats_report.h"
#include "model/trace/trace.h"
#include "views/summary/chart_panel.h"

#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;

namespace sightline::views {

class SummaryCharts : public QWidget
{
    Q_OBJECT
public:
    explicit SummaryCharts(std::shared_ptr<const Trace> trace, QWidget* parent = nullptr);

    // Redraws every chart from `reports` (all six, catalog order), computed over `range`.
    void setReports(const std::vector<StatsReport>& reports, std::optional<TimeRange> range);

    ChartPanel* topKernels() const { return m_topKernels; }
    ChartPanel* histogram() const { return m_histogram; }
    ChartPanel* utilization() const { return m_utilization; }
    ChartPanel* memoryVolume() const { return m_memoryVolume; }
    std::vector<ChartPanel*> panels() const
    {
        return {m_topKernels, m_histogram, m_utilization, m_memoryVolume};
    }
    QComboBox* histogramNames() const { return m_names; }
    QCheckBox* logScale() const { return m_logScale; }

    // Chooses the histogram's name (a kernel, CUDA API or OS runtime call shown in the list).
    bool setHistogramName(TrackKind kind, const QString& name);
    // Writes every chart to `directory` as PNG; returns the error sentences (none on success).
    QStringList exportAll(const QString& directory) const;

private:
    void fillNameChoices();
    void drawTopKernels();
    void fitTopKernelNames();
    void fitTopKernelValues();
    void drawHistogram();
    void drawUtilization();
    bool drawMetricCurves(TimeRange window); // false when the trace has no GPU metrics
    void drawMemoryVolume();
    const StatsReport* report(StatsReportId id) const;

    std::shared_ptr<const Trace> m_trace;
    std::vector<StatsReport> m_reports;
    std::optional<TimeRange> m_range;
    std::vector<QString> m_topKernelNames; // full labels, the largest kernel's first
    ChartPanel* m_topKernels = nullptr;
    ChartPanel* m_histogram = nullptr;
    ChartPanel* m_utilization = nullptr;
    ChartPanel* m_memoryVolume = nullptr;
    QComboBox* m_names = nullptr;
    QCheckBox* m_logScale = nullptr;
};

} // namespace sightline::views
