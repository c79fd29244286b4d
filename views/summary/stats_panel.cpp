#include "views/summary/stats_panel.h"

#include "model/stats/stats_engine.h"
#include "model/stats/stats_table.h"
#include "views/summary/stats_table_model.h"

#include <QHeaderView>
#include <QLabel>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace sightline::views {
namespace {

constexpr StatsReportId kTabOrder[] = {
    StatsReportId::CudaGpuKernSum,
    StatsReportId::CudaApiSum,
    StatsReportId::CudaGpuMemTimeSum,
    StatsReportId::CudaGpuMemSizeSum,
    StatsReportId::NvtxSum,
    StatsReportId::OsrtSum,
    StatsReportId::CpuSamplesSum,
    StatsReportId::CpuThreadSum,
};

QTableView* makeTable(StatsTableModel* model, QWidget* parent)
{
    auto* view = new QTableView(parent);
    view->setModel(model);
    view->setSortingEnabled(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setAlternatingRowColors(true);
    view->setShowGrid(false);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setHighlightSections(false);
    view->horizontalHeader()->setSortIndicator(
        -1, Qt::DescendingOrder); // the engine's order: total, largest first
    view->setToolTip(QObject::tr("Click a row to list its events in the Events View"));
    return view;
}

} // namespace

QString statsTabTitle(StatsReportId id)
{
    switch (id) {
    case StatsReportId::NvtxSum:
        return QObject::tr("NVTX Ranges");
    case StatsReportId::OsrtSum:
        return QObject::tr("OS Runtime");
    case StatsReportId::CudaApiSum:
        return QObject::tr("CUDA API");
    case StatsReportId::CudaGpuKernSum:
        return QObject::tr("GPU Kernels");
    case StatsReportId::CudaGpuMemTimeSum:
        return QObject::tr("GPU Memory Time");
    case StatsReportId::CudaGpuMemSizeSum:
        return QObject::tr("GPU Memory Size");
    case StatsReportId::CpuSamplesSum:
        return QObject::tr("CPU Samples");
    case StatsReportId::CpuThreadSum:
        return QObject::tr("CPU Time per Thread");
    }
    return {};
}

StatsPanel::StatsPanel(QWidget* parent)
    : QWidget(parent)
{
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    for (StatsReportId id : kTabOrder) {
        Page page {id};
        auto* tab = new QWidget(m_tabs);
        const StatsReportInfo& info = statsReportInfo(id);
        auto* title = new QLabel(QStringLiteral("<b>%1</b> &nbsp;<span style='color:gray'>%2</span>")
                                     .arg(QString::fromUtf8(info.title.data(), qsizetype(info.title.size())),
                                         QString::fromUtf8(info.name.data(), qsizetype(info.name.size()))),
            tab);
        page.model = new StatsTableModel(this);
        page.stack = new QStackedWidget(tab);
        page.view = makeTable(page.model, page.stack);
        page.empty = new QLabel(page.stack);
        page.empty->setAlignment(Qt::AlignCenter);
        page.empty->setForegroundRole(QPalette::PlaceholderText);
        page.stack->addWidget(page.view);
        page.stack->addWidget(page.empty);
        auto* layout = new QVBoxLayout(tab);
        layout->setContentsMargins(6, 6, 6, 6);
        layout->addWidget(title);
        layout->addWidget(page.stack, 1);
        m_tabs->addTab(tab, statsTabTitle(id));
        // The CPU reports' rows are functions and threads, not events to list.
        if (trackKindOf(id))
            connect(page.view, &QTableView::clicked, this,
                [this, id, model = page.model](const QModelIndex& index) {
                    if (index.isValid()) emit rowClicked(id, model->rowName(index.row()));
                });
        else
            page.view->setToolTip({});
        m_pages.push_back(page);
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);
}

const StatsPanel::Page* StatsPanel::page(StatsReportId id) const
{
    for (const Page& p : m_pages)
        if (p.id == id) return &p;
    return nullptr;
}

StatsTableModel* StatsPanel::model(StatsReportId id) const
{
    return page(id)->model;
}
QTableView* StatsPanel::view(StatsReportId id) const
{
    return page(id)->view;
}

void StatsPanel::showReport(StatsReportId id)
{
    for (size_t i = 0; i < m_pages.size(); ++i)
        if (m_pages[i].id == id) m_tabs->setCurrentIndex(int(i));
}

void StatsPanel::setReports(const std::vector<StatsReport>& reports, bool ranged)
{
    for (const StatsReport& report : reports) {
        const Page* p = page(report.id);
        if (!p) continue;
        StatsTable table = toTable(report);
        const QString dataKind = QString::fromStdString(table.dataKind);
        p->model->setTable(std::move(table));
        p->view->horizontalHeader()->setSortIndicator(-1, Qt::DescendingOrder);
        p->view->resizeColumnsToContents();
        p->empty->setText(ranged ? tr("No %1 data in the selection.").arg(dataKind)
                                 : tr("No %1 data in this report.").arg(dataKind));
        p->stack->setCurrentWidget(report.rows.empty() ? static_cast<QWidget*>(p->empty) : p->view);
        const int tab = int(p - m_pages.data());
        m_tabs->setTabText(
            tab, QStringLiteral("%1 (%2)").arg(statsTabTitle(report.id)).arg(report.rows.size()));
    }
}

void StatsPanel::setCounterTables(std::vector<StatsTable> tables)
{
    for (StatsTable& table : tables) {
        StatsTableModel* model = counterModel(table.name);
        if (!model) {
            auto* tab = new QWidget(m_tabs);
            auto* title = new QLabel(
                QStringLiteral("<b>%1</b> &nbsp;<span style='color:gray'>%2</span>")
                    .arg(QString::fromStdString(table.title), QString::fromStdString(table.name)),
                tab);
            model = new StatsTableModel(this);
            QTableView* view = makeTable(model, tab);
            view->setToolTip({});
            auto* layout = new QVBoxLayout(tab);
            layout->setContentsMargins(6, 6, 6, 6);
            layout->addWidget(title);
            layout->addWidget(view, 1);
            m_tabs->addTab(tab,
                table.name == "gpu_metrics_sum"              ? tr("GPU Metrics")
                    : table.name == "gpu_metrics_kern_sum"   ? tr("Metrics per Kernel")
                    : table.name == "cuda_gpu_mem_usage_sum" ? tr("GPU Memory Usage")
                                                             : QString::fromStdString(table.title));
            m_counterPages.emplace_back(table.name, model);
        }
        model->setTable(std::move(table));
    }
}

StatsTableModel* StatsPanel::counterModel(const std::string& name) const
{
    for (const auto& [pageName, model] : m_counterPages)
        if (pageName == name) return model;
    return nullptr;
}

} // namespace sightline::views
