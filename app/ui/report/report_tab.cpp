#include "app/ui/report/report_tab.h"

#include "app/ui/common/diagnostics_banner.h"
#include "app/ui/report/loading_page.h"
#include "app/ui/report/overview_line.h"
#include "views/events/events_view.h"
#include "views/pagedevents/paged_events_view.h"
#include "views/summary/analysis_summary.h"
#include "views/timeline/widgets/timeline_view.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedLayout>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace sightline::ui {

ReportTab::ReportTab(QString path, QWidget* parent)
    : QWidget(parent)
    , m_document(new ReportDocument(std::move(path), this))
{
    m_pages = new QStackedLayout(this);
    m_loadingPage = new LoadingPage(this);
    connect(m_loadingPage, &LoadingPage::cancelRequested, this, &ReportTab::cancelLoad);
    m_pages->addWidget(m_loadingPage);
    ReportDocument* document = m_document;
    connect(document, &ReportDocument::loadStarted, this, [this] {
        m_loadingPage->start(displayName());
        m_pages->setCurrentWidget(m_loadingPage);
    });
    connect(document, &ReportDocument::progressed, m_loadingPage, &LoadingPage::setProgress);
    connect(document, &ReportDocument::traceShown, this, &ReportTab::onTraceShown);
    connect(document, &ReportDocument::lineChanged, this, &ReportTab::showLine);
    connect(document, &ReportDocument::trackOpened, this, &ReportTab::onTrackOpened);
    connect(document, &ReportDocument::overviewShown, this, &ReportTab::overviewShown);
    connect(document, &ReportDocument::loaded, this, [this](double seconds) {
        showReportPage();
        emit loaded(seconds);
    });
    connect(document, &ReportDocument::loadFailed, this, [this](const QString& error) {
        showReportPage();
        emit loadFailed(error);
    });
    connect(document, &ReportDocument::loadCancelled, this, [this] {
        showReportPage();
        emit loadCancelled();
    });
    // What a track's events from the file hold counts against the memory budget.
    document->setHeldBytes([this] { return m_trackEvents ? m_trackEvents->residentBytes() : 0; });
}

ReportTab::~ReportTab() = default;

const QString& ReportTab::path() const
{
    return m_document->path();
}

QString ReportTab::displayName() const
{
    return QFileInfo(path()).fileName();
}

void ReportTab::load()
{
    m_document->load();
}

void ReportTab::cancelLoad()
{
    m_document->cancel();
}

void ReportTab::showTrace(std::shared_ptr<const Trace> trace, std::optional<TimeRange> range)
{
    m_document->showTrace(std::move(trace), range);
}

void ReportTab::showOverview(const LoadOutcome& overview)
{
    m_document->showOverview(overview);
}

void ReportTab::showReportPage()
{
    if (m_reportPage) m_pages->setCurrentWidget(m_reportPage);
}

void ReportTab::onTraceShown(const std::shared_ptr<const Trace>& trace, bool overview)
{
    const ReportView view = m_reportPage ? currentView() : ReportView::Timeline;
    std::array<bool, kReportPaneCount> shown {};
    for (size_t p = 0; p < kReportPaneCount; ++p)
        shown[p] = isPaneShown(ReportPane(p));
    m_trace = overview ? nullptr : trace;
    if (!m_reportPage) {
        buildReportPage(trace);
    } else {
        dropPanes();
        m_timeline->setTrace(trace);
    }
    m_timeline->setPictureOnly(overview);
    delete m_banner;
    m_banner = new DiagnosticsBanner(trace->diagnostics, m_reportPage);
    m_column->insertWidget(m_column->indexOf(m_views), m_banner);
    showLine(m_document->line());
    pane(ReportPane::Events); // listed from the start; an overview's stand-ins are no events
    for (size_t p = 0; p < kReportPaneCount; ++p)
        setPaneShown(ReportPane(p), shown[p]);
    setCurrentView(view);
    m_pages->setCurrentWidget(m_reportPage);
    // The keys work at once, without a click on the timeline first; a tab loaded behind the
    // current one leaves the focus where it is.
    if (currentView() == ReportView::Timeline && isVisible()) m_timeline->setFocus(Qt::OtherFocusReason);
}

void ReportTab::buildReportPage(const std::shared_ptr<const Trace>& trace)
{
    m_reportPage = new QWidget(this);
    m_reportPage->setObjectName(QStringLiteral("reportPage"));
    m_viewSelector = new QComboBox(m_reportPage);
    m_viewSelector->setObjectName(QStringLiteral("reportViewSelector"));
    m_viewSelector->addItem(tr("Timeline View"));
    m_viewSelector->addItem(tr("Analysis Summary"));
    m_viewSelector->setToolTip(tr("Which view of the report to show"));
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 3, 4, 3);
    bar->addWidget(m_viewSelector);
    bar->addStretch(1);
    for (size_t p = 0; p < kReportPaneCount; ++p) {
        const PaneEntry& entry = entryOf(ReportPane(p));
        auto* button = new QToolButton(m_reportPage);
        button->setObjectName(QString::fromLatin1(entry.buttonName));
        button->setText(tr(entry.text));
        button->setToolTip(tr(entry.toolTip));
        button->setCheckable(true);
        connect(button, &QToolButton::toggled, this, [this, p](bool on) { setPaneShown(ReportPane(p), on); });
        m_panes[p].button = button;
        bar->addWidget(button);
    }
    m_timeline = new views::TimelineView(trace, m_reportPage);
    m_timeline->setObjectName(QStringLiteral("timeline"));
    connect(m_timeline, &views::TimelineView::visibleRangeChanged, m_document, &ReportDocument::viewMoved);
    connect(m_timeline, &views::TimelineView::showInEventsViewRequested, this, &ReportTab::showInEventsView);
    connect(m_timeline, &views::TimelineView::showCounterInEventsViewRequested, this,
        &ReportTab::showCounterInEventsView);
    m_timelineSplit = new QSplitter(Qt::Vertical, m_reportPage);
    m_timelineSplit->setObjectName(QStringLiteral("timelineSplit"));
    m_timelineSplit->setChildrenCollapsible(false);
    m_timelineSplit->addWidget(m_timeline);
    m_timelineSplit->setStretchFactor(0, 1);
    m_views = new QStackedWidget(m_reportPage);
    m_views->addWidget(m_timelineSplit);
    m_views->addWidget(new QWidget(m_views)); // the summary's place until it is built
    m_column = new QVBoxLayout(m_reportPage);
    m_column->setContentsMargins(0, 0, 0, 0);
    m_column->setSpacing(0);
    m_column->addLayout(bar);
    m_column->addWidget(m_views, 1);
    connect(m_viewSelector, &QComboBox::currentIndexChanged, this,
        [this](int index) { setCurrentView(ReportView(index)); });
    m_pages->addWidget(m_reportPage);
}

void ReportTab::showLine(const OverviewLine& line)
{
    if (!m_reportPage) return;
    // Only an overview or a range of the report says what it is.
    if (!m_document->showsOverview() && !m_document->loadedRange()) {
        delete m_line;
        m_line = nullptr;
        return;
    }
    if (!m_line) {
        if (line.sentence.isEmpty()) return; // the document's sentence follows the trace
        m_line = new OverviewLineBar(m_reportPage);
        connect(m_line, &OverviewLineBar::loadRangeRequested, this,
            [this] { m_document->loadRange(m_timeline->selection()); });
        connect(m_line, &OverviewLineBar::overviewRequested, this, [this] {
            // The whole report, which is what an overview is for (zoomed in, the view would read
            // its range again at once).
            m_document->backToOverview();
            m_timeline->zoomToAll();
        });
        connect(m_line, &OverviewLineBar::cancelRequested, this, &ReportTab::cancelLoad);
        m_column->insertWidget(1, m_line);
    }
    m_line->setLine(line);
}

views::AnalysisSummary* ReportTab::summary()
{
    if (m_summary || !m_trace) return m_summary;
    const QFileInfo file(path());
    m_summary = new views::AnalysisSummary(
        m_trace, views::ReportFile {path(), file.exists() ? file.size() : -1}, m_views);
    m_summary->setObjectName(QStringLiteral("analysisSummary"));
    // The summary's tables and charts want more room than a small window has; it scrolls
    // instead of imposing its minimum size on the window (and on the Timeline View).
    auto* scroller = new QScrollArea(m_views);
    scroller->setFrameShape(QFrame::NoFrame);
    scroller->setWidgetResizable(true);
    scroller->setWidget(m_summary);
    QWidget* standIn = m_views->widget(int(ReportView::Summary));
    m_views->insertWidget(int(ReportView::Summary), scroller);
    m_views->removeWidget(standIn);
    standIn->deleteLater();
    m_summary->setSelectedRange(m_timeline->selection());
    connect(m_timeline, &views::TimelineView::selectionChanged, m_summary,
        &views::AnalysisSummary::setSelectedRange);
    connect(m_summary, &views::AnalysisSummary::eventsRequested, this, &ReportTab::showEventsRequest);
    return m_summary;
}

ReportView ReportTab::currentView() const
{
    return m_views && m_views->currentIndex() == int(ReportView::Summary) ? ReportView::Summary
                                                                          : ReportView::Timeline;
}

void ReportTab::setCurrentView(ReportView view)
{
    if (!m_views) return;
    // Without the report's events (an overview) there is no summary to show.
    if (view == ReportView::Summary && !summary()) view = ReportView::Timeline;
    m_views->setCurrentIndex(int(view));
    updateViewBar();
}

void ReportTab::updateViewBar()
{
    const QSignalBlocker blockSelector(m_viewSelector);
    // An overview shows the timeline only: the other views need the report's events.
    const bool hasEvents = m_trace != nullptr;
    const bool onTimeline = currentView() == ReportView::Timeline;
    m_viewSelector->setEnabled(hasEvents);
    m_viewSelector->setCurrentIndex(int(currentView()));
    for (size_t p = 0; p < kReportPaneCount; ++p) {
        const QSignalBlocker blockButton(m_panes[p].button);
        m_panes[p].button->setEnabled(hasEvents);
        m_panes[p].button->setChecked(isPaneShown(ReportPane(p)));
        m_panes[p].button->setVisible(onTimeline);
    }
    callStacksButton()->setVisible(onTimeline && hasEvents && !m_trace->cpu.samples.empty());
}

void ReportTab::showOnTimeline(TimeRange range, std::optional<EventRef> event)
{
    if (!m_timeline) return;
    const Duration margin = std::max<Duration>(range.duration() / 10, 1);
    m_timeline->setVisibleRange({range.start - margin, range.end + margin});
    // Inside the range now, the event only needs its row revealed and scrolled to.
    m_timeline->selectEvent(event, true);
}

void ReportTab::showInEventsView(const std::vector<TrackId>& tracks)
{
    if (m_document->isOverBudget()) {
        showTrackEventsFromFile(tracks);
        return;
    }
    if (!eventsView()) return;
    eventsView()->showEvents(tracks, m_timeline->selection());
    setCurrentView(ReportView::Timeline);
    setEventsPaneShown(true);
}

void ReportTab::showCounterInEventsView(uint32_t series)
{
    if (!eventsView()) return;
    eventsView()->showCounter(series, m_timeline->selection());
    setCurrentView(ReportView::Timeline);
    setEventsPaneShown(true);
}

void ReportTab::showEventsRequest(const views::EventsRequest& request)
{
    if (!eventsView()) return;
    eventsView()->showRequest(request);
    setCurrentView(ReportView::Timeline);
    setEventsPaneShown(true);
}

} // namespace sightline::ui
