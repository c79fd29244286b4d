// The Analysis Summary of one report: what was recorded and where (report_facts.h), what went
// wrong (diagnostics), the six `nsys stats` tables and the charts, for the whole trace or the
// timeline's selected range (a visible "Whole trace" / "Selection" toggle). The stats are
// computed by model/stats/stats_engine.h off the GUI thread, the newest request winning, so the
// tables always equal `sightline stats [--range]` over the same range (events that START in it).
// The shell wires it:
//   TimelineView::selectionChanged -> setSelectedRange(range)
//   eventsRequested(request)       -> EventsView::showRequest(request), and show the Events View
#pragma once

#include "model/stats/stats_report.h"
#include "model/trace/trace.h"
#include "views/common/latest_request.h"
#include "views/events/events_request.h"
#include "views/summary/report_facts.h"

#include <QWidget>
#include <memory>
#include <optional>

class QLabel;
class QProgressBar;
class QTabWidget;
class QToolButton;
class QTreeWidget;

namespace sightline::views {

class StatsPanel;
class SummaryCharts;

class AnalysisSummary : public QWidget
{
    Q_OBJECT
public:
    enum class Scope : uint8_t { WholeTrace, Selection };

    AnalysisSummary(std::shared_ptr<const Trace> trace, ReportFile file = {}, QWidget* parent = nullptr);
    ~AnalysisSummary() override;

    const Trace& trace() const { return *m_trace; }
    Scope scope() const { return m_scope; }
    // The range the tables and charts cover: the selection in Selection scope, else none.
    std::optional<TimeRange> activeRange() const;
    bool isBusy() const { return m_request.isBusy(); }
    // The reports shown now (catalog order), for tests and exports.
    const std::vector<StatsReport>& reports() const { return m_reports; }

    StatsPanel* stats() const { return m_stats; }
    SummaryCharts* charts() const { return m_charts; } // null when built without QCustomPlot
    QTreeWidget* facts() const { return m_facts; }
    QTabWidget* pages() const { return m_pages; }
    QToolButton* wholeTraceButton() const { return m_wholeTrace; }
    QToolButton* selectionButton() const { return m_selection; }

    // The Events View request for a stats row: the events of the report's kind named `name`,
    // starting in the active range (as the stats engine counts them).
    EventsRequest requestFor(StatsReportId report, const QString& name) const;

public slots:
    // The timeline's selected range; no value when nothing is selected (Selection scope then
    // falls back to the whole trace).
    void setSelectedRange(std::optional<sightline::TimeRange> range);
    void setScope(sightline::views::AnalysisSummary::Scope scope);

signals:
    // A stats row was clicked: list its events (the shell shows the Events View).
    void eventsRequested(const sightline::views::EventsRequest& request);
    void busyChanged(bool busy);
    // The tables and charts show the reports for the active range.
    void reportsShown();

private:
    QWidget* buildScopeBar();
    void fillFacts(const ReportFile& file);
    void recompute();
    void showReports(std::vector<StatsReport> reports, std::optional<TimeRange> range);
    void updateScopeBar();

    std::shared_ptr<const Trace> m_trace;
    Scope m_scope = Scope::WholeTrace;
    std::optional<TimeRange> m_selected;
    std::vector<StatsReport> m_reports;
    LatestRequest m_request {this};

    QTreeWidget* m_facts = nullptr;
    QTabWidget* m_pages = nullptr;
    StatsPanel* m_stats = nullptr;
    SummaryCharts* m_charts = nullptr;
    QToolButton* m_wholeTrace = nullptr;
    QToolButton* m_selection = nullptr;
    QLabel* m_scopeText = nullptr;
    QProgressBar* m_busy = nullptr;
};

} // namespace sightline::views
