#include "views/summary/analysis_summary.h"

#include "model/stats/counter_stats.h"
#include "model/stats/stats_engine.h"
#include "model/text/time_text.h"
#include "views/common/severity_icon.h"
#include "views/summary/stats_panel.h"

#include <QButtonGroup>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QRegularExpression>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#ifdef SIGHTLINE_HAVE_QCUSTOMPLOT
#include "views/summary/summary_charts.h"
#endif

namespace sightline::views {
namespace {

QString timeText(Timestamp t)
{
    return QString::fromStdString(formatTimestamp(t, 1000));
}

} // namespace

AnalysisSummary::AnalysisSummary(std::shared_ptr<const Trace> trace, ReportFile file, QWidget* parent)
    : QWidget(parent)
    , m_trace(std::move(trace))
{
    m_facts = new QTreeWidget(this);
    m_facts->setColumnCount(2);
    m_facts->setHeaderLabels({tr("Report"), QString()});
    m_facts->setRootIsDecorated(true);
    m_facts->setAlternatingRowColors(true);
    m_facts->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_facts->setWordWrap(false);
    m_facts->header()->setStretchLastSection(true);
    fillFacts(file);

    m_stats = new StatsPanel(this);
    m_pages = new QTabWidget(this);
    m_pages->addTab(m_stats, tr("Statistics"));
#ifdef SIGHTLINE_HAVE_QCUSTOMPLOT
    m_charts = new SummaryCharts(m_trace, this);
    m_pages->addTab(m_charts, tr("Charts"));
#else
    auto* noCharts
        = new QLabel(tr("Charts need QCustomPlot for Qt 6: install libqcustomplot-dev and rebuild."), this);
    noCharts->setAlignment(Qt::AlignCenter);
    m_pages->addTab(noCharts, tr("Charts"));
#endif

    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->setSpacing(0);
    rightLayout->addWidget(buildScopeBar());
    rightLayout->addWidget(m_pages, 1);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_facts);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({470, 1130});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connect(m_stats, &StatsPanel::rowClicked, this,
        [this](StatsReportId id, const QString& name) { emit eventsRequested(requestFor(id, name)); });
    updateScopeBar();
    recompute();
}

AnalysisSummary::~AnalysisSummary() = default;

QWidget* AnalysisSummary::buildScopeBar()
{
    auto* bar = new QWidget(this);
    m_wholeTrace = new QToolButton(bar);
    m_wholeTrace->setText(tr("Whole trace"));
    m_selection = new QToolButton(bar);
    m_selection->setText(tr("Selection"));
    auto* group = new QButtonGroup(bar);
    for (QToolButton* button : {m_wholeTrace, m_selection}) {
        button->setCheckable(true);
        button->setAutoRaise(false);
        group->addButton(button);
    }
    m_wholeTrace->setChecked(true);
    m_wholeTrace->setToolTip(tr("Statistics and charts over the whole trace"));
    m_selection->setToolTip(
        tr("Statistics and charts over the timeline's selected range (events starting in it)"));
    connect(m_wholeTrace, &QToolButton::clicked, this, [this] { setScope(Scope::WholeTrace); });
    connect(m_selection, &QToolButton::clicked, this, [this] { setScope(Scope::Selection); });
    m_scopeText = new QLabel(bar);
    m_busy = new QProgressBar(bar);
    m_busy->setRange(0, 0);
    m_busy->setMaximumWidth(100);
    m_busy->setTextVisible(false);
    m_busy->hide();

    auto* layout = new QHBoxLayout(bar);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->addWidget(new QLabel(tr("Scope:"), bar));
    layout->addWidget(m_wholeTrace);
    layout->addWidget(m_selection);
    layout->addSpacing(8);
    layout->addWidget(m_scopeText, 1);
    layout->addWidget(m_busy);
    return bar;
}

void AnalysisSummary::fillFacts(const ReportFile& file)
{
    QFont bold = m_facts->font();
    bold.setBold(true);
    auto addFact = [](QTreeWidgetItem* parent, const Fact& fact, auto& self) -> void {
        auto* item = new QTreeWidgetItem(parent, {fact.label, fact.value});
        item->setToolTip(1, fact.value);
        for (const Fact& detail : fact.details)
            self(item, detail, self);
    };
    for (const FactSection& section : reportFacts(*m_trace, file)) {
        auto* top = new QTreeWidgetItem(m_facts, {section.title});
        top->setFont(0, bold);
        top->setFirstColumnSpanned(true);
        for (const Fact& fact : section.facts)
            addFact(top, fact, addFact);
    }
    auto* diagnostics = new QTreeWidgetItem(m_facts, {tr("Diagnostics")});
    diagnostics->setFont(0, bold);
    diagnostics->setFirstColumnSpanned(true);
    if (m_trace->diagnostics.empty()) {
        auto* none = new QTreeWidgetItem(
            diagnostics, {tr("None"), tr("no dropped records, truncation or warnings")});
        none->setIcon(0, style()->standardIcon(QStyle::SP_DialogApplyButton));
    }
    for (const Diagnostic& d : m_trace->diagnostics) {
        auto* item = new QTreeWidgetItem(diagnostics,
            {severityText(d.severity) + QStringLiteral(" (%1)").arg(QString::fromStdString(d.source)),
                QString::fromStdString(d.text)});
        item->setIcon(0, severityIcon(style(), d.severity));
        item->setToolTip(1, QString::fromStdString(d.text));
    }
    m_facts->expandAll();
    // GPU property lists stay folded under their GPU, so the page opens short.
    for (int i = 0; i < m_facts->topLevelItemCount(); ++i)
        for (int c = 0; c < m_facts->topLevelItem(i)->childCount(); ++c)
            m_facts->topLevelItem(i)->child(c)->setExpanded(
                m_facts->topLevelItem(i)->child(c)->childCount() <= 0);
    m_facts->resizeColumnToContents(0);
    m_facts->setCurrentIndex({});
}

std::optional<TimeRange> AnalysisSummary::activeRange() const
{
    return m_scope == Scope::Selection ? m_selected : std::nullopt;
}

void AnalysisSummary::setSelectedRange(std::optional<TimeRange> range)
{
    if (range && range->empty()) range.reset();
    if (range == m_selected) return;
    // Tables shown for a selection must follow it, back to the whole trace when it is cleared.
    const bool showedSelection = m_scope == Scope::Selection;
    m_selected = range;
    if (!m_selected && showedSelection) m_scope = Scope::WholeTrace;
    updateScopeBar();
    if (showedSelection) recompute();
}

void AnalysisSummary::setScope(Scope scope)
{
    if (scope == Scope::Selection && !m_selected) scope = Scope::WholeTrace;
    const bool changed = scope != m_scope;
    m_scope = scope;
    updateScopeBar();
    if (changed) recompute();
}

void AnalysisSummary::updateScopeBar()
{
    m_selection->setEnabled(m_selected.has_value());
    m_wholeTrace->setChecked(m_scope == Scope::WholeTrace);
    m_selection->setChecked(m_scope == Scope::Selection);
    const TimeRange shown = activeRange().value_or(m_trace->span);
    QString text = tr("%1 \u2013 %2 (%3)")
                       .arg(timeText(shown.start), timeText(shown.end),
                           QString::fromStdString(formatDuration(shown.duration())));
    if (m_scope == Scope::Selection)
        text += tr(", events starting in the selection");
    else if (!m_selected)
        text += tr(" \u00b7 drag across the timeline to select a range");
    m_scopeText->setText(text);
    m_busy->setVisible(isBusy());
}

namespace {

// What one computation of the summary gives: the nsys-style reports and the counter tables.
struct SummaryTables
{
    std::vector<StatsReport> reports;
    std::vector<StatsTable> counters;
};

} // namespace

void AnalysisSummary::recompute()
{
    const std::optional<TimeRange> range = activeRange();
    const bool wasBusy = isBusy();
    m_request.start(
        [trace = m_trace, range](const std::atomic<bool>&) {
            SummaryTables tables {computeAllReports(*trace, range), {}};
            if (!trace->counterSeries.empty())
                for (std::string_view name : counterReportNames())
                    tables.counters.push_back(*counterReport(name, *trace, range));
            return tables;
        },
        [this, range](SummaryTables tables, bool newest) {
            if (!newest) return;
            m_stats->setCounterTables(std::move(tables.counters));
            showReports(std::move(tables.reports), range);
        });
    updateScopeBar();
    if (!wasBusy) emit busyChanged(true);
}

void AnalysisSummary::showReports(std::vector<StatsReport> reports, std::optional<TimeRange> range)
{
    m_reports = std::move(reports);
    m_stats->setReports(m_reports, range.has_value());
#ifdef SIGHTLINE_HAVE_QCUSTOMPLOT
    m_charts->setReports(m_reports, range);
#endif
    updateScopeBar();
    emit busyChanged(false);
    emit reportsShown();
}

EventsRequest AnalysisSummary::requestFor(StatsReportId report, const QString& name) const
{
    const std::optional<TrackKind> kind = trackKindOf(report); // none for the CPU reports
    EventsRequest request;
    for (uint32_t t = 0; t < m_trace->tracks.size(); ++t)
        if (m_trace->tracks[t].key.kind == kind) request.source.tracks.push_back(TrackId(t));
    request.source.range = activeRange();
    request.source.rule = RangeRule::StartingInside;
    // nvtx_sum names a range of a named domain "domain:text"; its events are named "text".
    QString eventName = name;
    if (report == StatsReportId::NvtxSum)
        for (const NvtxDomain& domain : m_trace->domains) {
            const QString prefix = QString::fromStdString(domain.name) + QLatin1Char(':');
            if (!domain.name.empty() && eventName.startsWith(prefix)) {
                eventName = eventName.mid(prefix.size());
                break;
            }
        }
    request.filter = {QLatin1Char('^') + QRegularExpression::escape(eventName) + QLatin1Char('$'), true};
    const QString shortName
        = eventName.size() > 80 ? eventName.left(79) + QStringLiteral("\u2026") : eventName;
    request.title = tr("%1 \u00b7 %2").arg(statsTabTitle(report), shortName);
    return request;
}

} // namespace sightline::views
