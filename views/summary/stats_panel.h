// The `nsys stats` tables of the Analysis Summary and the CPU ones, one tab each (GPU kernels
// first, as users read them), each a sortable StatsTableModel over the stats engine's
// StatsTable. A report with no rows shows why ("No CUDA kernel data in the selection") instead
// of an empty grid. Clicking a row of an event report says which group was clicked, so the
// summary can list its events.
#pragma once

#include "model/stats/stats_report.h"
#include "model/stats/stats_table.h"

#include <QWidget>
#include <vector>

class QLabel;
class QStackedWidget;
class QTabWidget;
class QTableView;

namespace sightline::views {

class StatsTableModel;

class StatsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit StatsPanel(QWidget* parent = nullptr);

    // `reports` in any order; `ranged` words the empty notes for a selection.
    void setReports(const std::vector<StatsReport>& reports, bool ranged);
    // Tables of counter reports (GPU metrics), each on a tab of its own after the others,
    // added the first time a table of that name comes.
    void setCounterTables(std::vector<StatsTable> tables);
    StatsTableModel* counterModel(const std::string& name) const;

    StatsTableModel* model(StatsReportId id) const;
    QTableView* view(StatsReportId id) const;
    QTabWidget* tabs() const { return m_tabs; }
    void showReport(StatsReportId id);

signals:
    // A row of a table was clicked: `name` is its Name / Operation / Range cell.
    void rowClicked(sightline::StatsReportId report, const QString& name);

private:
    struct Page
    {
        StatsReportId id;
        StatsTableModel* model = nullptr;
        QTableView* view = nullptr;
        QStackedWidget* stack = nullptr;
        QLabel* empty = nullptr;
    };
    const Page* page(StatsReportId id) const;

    QTabWidget* m_tabs = nullptr;
    std::vector<Page> m_pages;
    std::vector<std::pair<std::string, StatsTableModel*>> m_counterPages; // by table name
};

// The tab title of a report: "GPU Kernels".
QString statsTabTitle(StatsReportId id);

} // namespace sightline::views
