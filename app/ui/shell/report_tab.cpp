#include "app/ui/shell/report_tab.h"

#include "app/ui/common/diagnostics_banner.h"
#include "app/ui/common/memory_budget.h"
#include "model/format/paging/track_pager.h"
#include "views/callstack/call_stack_view.h"
#include "views/events/events_view.h"
#include "views/expert/expert_view.h"
#include "views/pagedevents/paged_events_view.h"
#include "views/summary/analysis_summary.h"
#include "views/timeline/interaction/navigation.h"
#include "views/timeline/widgets/timeline_view.h"

#include <QComboBox>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedLayout>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace sightline::ui {

namespace {
constexpr int kProgressSteps = 1000; // the bar counts permille: file sizes overflow an int
constexpr int kTrackEventsPercent = 38; // a track's events from the file: the Events View's share
} // namespace

struct ReportTab::PaneEntry
{
    const char* buttonName;
    const char* text;
    const char* toolTip;
    int percent; // the pane's first share of the tab's height
    QWidget* (ReportTab::*make)(); // null where the trace shown has no such pane
};

// The panes under the timeline, in ReportPane's order, which is their order there.
const ReportTab::PaneEntry& ReportTab::entryOf(ReportPane pane)
{
    static const std::array<PaneEntry, kReportPaneCount> table {{
        {"expertPaneButton", QT_TR_NOOP("Expert"),
            QT_TR_NOOP(
                "Show or hide the Expert view: what limits the program in the timeline's selection, and "
                "what to do"),
            30, &ReportTab::makeExpertPane},
        {"eventsPaneButton", QT_TR_NOOP("Events View"),
            QT_TR_NOOP("Show or hide the Events View under the timeline"), 38, &ReportTab::makeEventsPane},
        {"callStacksPaneButton", QT_TR_NOOP("Call Stacks"),
            QT_TR_NOOP("Show or hide the call stacks of the CPU samples in the timeline's selection"), 38,
            &ReportTab::makeCallStacksPane},
    }};
    return table[size_t(pane)];
}

ReportTab::ReportTab(QString path, QWidget* parent)
    : QWidget(parent)
    , m_document(new ReportDocument(std::move(path), this))
{
    m_pages = new QStackedLayout(this);
    m_loadingPage = buildLoadingPage();
    m_pages->addWidget(m_loadingPage);
    ReportDocument* document = m_document;
    connect(document, &ReportDocument::loadStarted, this, [this] {
        m_loadingLabel->setText(tr("Loading %1…").arg(displayName()));
        m_progress->setValue(0);
        m_progress->setFormat(tr("Opening…"));
        m_pages->setCurrentWidget(m_loadingPage);
    });
    connect(document, &ReportDocument::progressed, this, &ReportTab::onProgress);
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

QWidget* ReportTab::buildLoadingPage()
{
    auto* page = new QWidget(this);
    auto* column = new QVBoxLayout(page);
    column->addStretch(2);
    m_loadingLabel = new QLabel(page);
    m_loadingLabel->setAlignment(Qt::AlignCenter);
    column->addWidget(m_loadingLabel);
    m_progress = new QProgressBar(page);
    m_progress->setObjectName(QStringLiteral("loadProgress"));
    m_progress->setRange(0, kProgressSteps);
    m_progress->setMaximumWidth(480);
    m_progress->setMinimumWidth(320);
    column->addWidget(m_progress, 0, Qt::AlignHCenter);
    auto* cancel = new QPushButton(tr("Cancel"), page);
    cancel->setObjectName(QStringLiteral("cancelLoadButton"));
    connect(cancel, &QPushButton::clicked, this, &ReportTab::cancelLoad);
    column->addWidget(cancel, 0, Qt::AlignHCenter);
    column->addStretch(3);
    return page;
}

void ReportTab::onProgress(qint64 bytesDone, qint64 bytesTotal)
{
    m_progress->setValue(int(bytesDone * kProgressSteps / bytesTotal));
    const QLocale locale;
    // Once every byte is decoded the model still builds its indexes; say so rather than sit at 100%.
    m_progress->setFormat(bytesDone >= bytesTotal
            ? tr("Building indexes…")
            : tr("%1 of %2")
                  .arg(locale.formattedDataSize(bytesDone, 1), locale.formattedDataSize(bytesTotal, 1)));
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

QFrame* ReportTab::buildLine()
{
    auto* line = new QFrame(m_reportPage);
    line->setObjectName(QStringLiteral("overviewLine"));
    line->setFrameShape(QFrame::StyledPanel);
    auto* text = new QLabel(line);
    text->setObjectName(QStringLiteral("overviewText"));
    text->setWordWrap(true);
    auto* row = new QHBoxLayout(line);
    row->setContentsMargins(8, 2, 4, 2);
    row->addWidget(text, 1);
    const auto button = [&](const QString& label, const char* name, const QString& tip, auto clicked) {
        auto* pushButton = new QPushButton(label, line);
        pushButton->setObjectName(QString::fromLatin1(name));
        pushButton->setToolTip(tip);
        connect(pushButton, &QPushButton::clicked, this, clicked);
        row->addWidget(pushButton);
    };
    button(tr("Load Range"), "loadRangeButton", tr("Read the events that start in the selected time range"),
        [this] { m_document->loadRange(m_timeline->selection()); });
    button(tr("Overview"), "backToOverviewButton",
        tr("Let the loaded range go and show the whole report's overview"), [this] {
            // The whole report, which is what an overview is for (zoomed in, the view would read
            // its range again at once).
            m_document->backToOverview();
            m_timeline->zoomToAll();
        });
    button(tr("Cancel"), "cancelOverviewLoadButton",
        tr("Stop loading the report's events and keep this overview"), &ReportTab::cancelLoad);
    return line;
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
        m_line = buildLine();
        m_column->insertWidget(1, m_line);
    }
    m_line->findChild<QLabel*>(QStringLiteral("overviewText"))->setText(line.sentence);
    m_line->findChild<QPushButton*>(QStringLiteral("cancelOverviewLoadButton"))
        ->setVisible(line.offersCancel);
    m_line->findChild<QPushButton*>(QStringLiteral("loadRangeButton"))->setVisible(line.offersLoadRange);
    m_line->findChild<QPushButton*>(QStringLiteral("backToOverviewButton"))->setVisible(line.offersOverview);
}

QWidget* ReportTab::pane(ReportPane which)
{
    PaneSlot& slot = m_panes[size_t(which)];
    if (slot.widget || !m_trace) return slot.widget;
    slot.widget = (this->*entryOf(which).make)();
    if (!slot.widget) return nullptr;
    slot.widget->hide();
    int index = 1; // under the timeline and the panes before it in the table
    for (size_t p = 0; p < size_t(which); ++p)
        if (m_panes[p].widget) ++index;
    m_timelineSplit->insertWidget(index, slot.widget);
    m_timelineSplit->setStretchFactor(index, 0);
    return slot.widget;
}

bool ReportTab::isPaneShown(ReportPane which) const
{
    const QWidget* widget = m_panes[size_t(which)].widget;
    return widget && !widget->isHidden();
}

void ReportTab::setPaneShown(ReportPane which, bool shown)
{
    if (!m_reportPage || shown == isPaneShown(which) || (shown && !pane(which))) {
        if (m_reportPage) updateViewBar();
        return;
    }
    PaneSlot& slot = m_panes[size_t(which)];
    if (!shown) {
        slot.hiddenHeight = m_timelineSplit->sizes().value(m_timelineSplit->indexOf(slot.widget));
        slot.widget->hide();
        // A function chosen in the Call Stacks pane leaves with it.
        if (which == ReportPane::CallStacks) m_timeline->setHighlightedStacks(nullptr);
    } else {
        slot.widget->show();
        const int share = std::max(m_timelineSplit->height(), height()) * entryOf(which).percent / 100;
        giveTimelineShareTo(slot.widget, slot.hiddenHeight > 0 ? slot.hiddenHeight : share);
    }
    updateViewBar();
    if (which == ReportPane::Expert) emit expertPaneShownChanged(shown);
}

void ReportTab::dropPanes()
{
    for (PaneSlot& slot : m_panes) {
        if (!slot.widget) continue;
        slot.widget->hide();
        slot.widget->setParent(nullptr);
        slot.widget->deleteLater();
        slot.widget = nullptr;
    }
    if (!m_summary) return;
    QWidget* scroller = m_views->widget(int(ReportView::Summary));
    m_views->insertWidget(int(ReportView::Summary), new QWidget(m_views));
    m_views->removeWidget(scroller);
    scroller->deleteLater();
    m_summary = nullptr;
}

QWidget* ReportTab::makeEventsPane()
{
    auto* events = new views::EventsView(m_trace, m_timelineSplit);
    events->setObjectName(QStringLiteral("eventsView"));
    views::TimelineView* timeline = m_timeline;
    connect(timeline, &views::TimelineView::eventSelected, events, &views::EventsView::selectEvent);
    connect(events, &views::EventsView::eventSelected, timeline,
        [timeline](EventRef event) { timeline->selectEvent(event, true); });
    connect(events, &views::EventsView::zoomToEventRequested, this,
        [this](EventRef event) { showOnTimeline(views::eventRange(m_timeline->trace(), event), event); });
    connect(events, &views::EventsView::zoomToRangeRequested, this,
        [this](TimeRange range) { showOnTimeline(range, std::nullopt); });
    return events;
}

QWidget* ReportTab::makeCallStacksPane()
{
    if (m_trace->cpu.samples.empty()) return nullptr;
    auto* callStacks = new views::CallStackView(m_timelineSplit);
    callStacks->setObjectName(QStringLiteral("callStacks"));
    callStacks->setTrace(m_trace);
    callStacks->setScope(m_timeline->selection());
    connect(m_timeline, &views::TimelineView::selectionChanged, callStacks,
        [callStacks](std::optional<TimeRange> range) { callStacks->setScope(range); });
    // A function chosen in the pane marks its samples on the timeline.
    connect(callStacks, &views::CallStackView::functionSelected, m_timeline,
        [timeline = m_timeline](
            const views::CallStackSelection& chosen) { timeline->setHighlightedStacks(chosen.stacks); });
    return callStacks;
}

QWidget* ReportTab::makeExpertPane()
{
    auto* expert = new views::ExpertView(m_trace, m_timelineSplit);
    expert->setObjectName(QStringLiteral("expertView"));
    expert->setSelectedRange(m_timeline->selection());
    connect(m_timeline, &views::TimelineView::selectionChanged, expert, &views::ExpertView::setSelectedRange);
    connect(expert, &views::ExpertView::eventsRequested, this, &ReportTab::showEventsRequest);
    connect(expert, &views::ExpertView::timelineFocusRequested, this, &ReportTab::showOnTimeline);
    return expert;
}

views::EventsView* ReportTab::eventsView() const
{
    return static_cast<views::EventsView*>(m_panes[size_t(ReportPane::Events)].widget);
}

views::CallStackView* ReportTab::callStacks()
{
    return static_cast<views::CallStackView*>(pane(ReportPane::CallStacks));
}

views::ExpertView* ReportTab::expert()
{
    return static_cast<views::ExpertView*>(pane(ReportPane::Expert));
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

void ReportTab::giveTimelineShareTo(QWidget* pane, int pixels)
{
    // The pane takes its room from the timeline, leaving the other panes as they are.
    QList<int> sizes = m_timelineSplit->sizes();
    sizes[0] = std::max(sizes[0] + sizes[m_timelineSplit->indexOf(pane)] - pixels, 1);
    sizes[m_timelineSplit->indexOf(pane)] = pixels;
    m_timelineSplit->setSizes(sizes);
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

void ReportTab::showTrackEventsFromFile(const std::vector<TrackId>& tracks)
{
    const std::optional<uint32_t> shown = m_trackEvents ? std::optional(m_trackEventsTrack) : std::nullopt;
    if (!m_document->openTrack(tracks, shown)) m_trackEvents->show();
}

void ReportTab::onTrackOpened(const std::shared_ptr<OpenedTrack>& opened, uint32_t storedTrack)
{
    closeTrackEvents();
    m_trackEvents = new views::PagedEventsView(std::move(*opened), memoryBudget(), this);
    m_trackEvents->setObjectName(QStringLiteral("trackEventsView"));
    m_trackEventsTrack = storedTrack;
    connect(m_trackEvents, &views::PagedEventsView::closeRequested, this, &ReportTab::closeTrackEvents);
    connect(m_trackEvents, &views::PagedEventsView::zoomToRangeRequested, this, [this](TimeRange range) {
        // The event's time, selected: an overview cannot select the event itself.
        showOnTimeline(range, std::nullopt);
        m_timeline->setSelection(range);
    });
    setCurrentView(ReportView::Timeline);
    m_timelineSplit->addWidget(m_trackEvents);
    m_timelineSplit->setStretchFactor(m_timelineSplit->indexOf(m_trackEvents), 0);
    m_trackEvents->show();
    giveTimelineShareTo(
        m_trackEvents, std::max(m_timelineSplit->height(), height()) * kTrackEventsPercent / 100);
}

void ReportTab::closeTrackEvents()
{
    if (!m_trackEvents) return;
    m_trackEvents->hide();
    m_trackEvents->deleteLater();
    m_trackEvents = nullptr;
}

} // namespace sightline::ui
