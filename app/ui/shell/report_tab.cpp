#include "app/ui/shell/report_tab.h"

#include "app/ui/common/diagnostics_banner.h"
#include "app/ui/common/memory_budget.h"
#include "model/text/time_text.h"
#include "views/callstack/call_stack_view.h"
#include "views/events/events_view.h"
#include "views/expert/expert_view.h"
#include "views/pagedevents/paged_events_view.h"
#include "views/summary/analysis_summary.h"
#include "views/timeline/interaction/navigation.h"
#include "views/timeline/interaction/timeline_state.h"
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
constexpr int kEventsPanePercent = 38; // the Events View's first share of the tab's height
constexpr int kExpertPanePercent = 30; // the Expert view's: a short tree over a few lines of text

// Where the user scrolled to: the first stored track's row from the top of the view, and how
// far the view starts below that row's top. An overview and its report know a stored track by
// the same id, whatever rows only the report has (its projected NVTX rows, drawn from
// correlations that stand-ins do not keep), so the same rows stay on screen.
struct ScrollAnchor
{
    TrackId track;
    int offset = 0;
};

std::optional<ScrollAnchor> scrollAnchorOf(const views::TimelineState& state)
{
    if (state.scrollY() == 0) return std::nullopt; // the top stays the top
    const std::vector<views::VisibleRow>& rows = state.layout().rows();
    for (size_t r = size_t(std::max(state.layout().rowAt(state.scrollY()), 0)); r < rows.size(); ++r) {
        const views::RowNode& node = state.rows().node(rows[r].node);
        if (node.isGroup() || node.tracks.size() != 1 || node.tracks[0].value >= state.trace().tracks.size())
            continue;
        return ScrollAnchor {node.tracks[0], state.scrollY() - rows[r].top};
    }
    return std::nullopt;
}

void scrollToAnchor(views::TimelineState& state, const ScrollAnchor& anchor)
{
    const int node = state.rows().leafOf(anchor.track);
    const int row = node < 0 ? -1 : state.layout().rowOfNode(node);
    if (row >= 0) state.setScrollY(state.layout().rows()[size_t(row)].top + anchor.offset);
}

// Which rows the user opened or closed, by what they show: an overview and its report (or a
// range of it) build their row trees apart, but a group row's kind and its stored tracks name
// it in both (labels do not: a stream's share of GPU time is computed from what was read).
struct RowExpansion
{
    views::RowKind kind;
    std::vector<TrackId> tracks;
    bool expanded = false;
};

std::vector<RowExpansion> expansionOf(const views::TimelineState& state)
{
    std::vector<RowExpansion> rows;
    for (size_t n = 0; n < state.rows().size(); ++n) {
        const views::RowNode& node = state.rows().node(int(n));
        if (!node.isGroup()) continue;
        std::vector<TrackId> tracks = state.rows().tracksBelow(int(n));
        if (!tracks.empty()) rows.push_back({node.kind, std::move(tracks), node.expanded});
    }
    return rows;
}

void applyExpansion(views::TimelineState& state, const std::vector<RowExpansion>& rows)
{
    for (size_t n = 0; n < state.rows().size(); ++n) {
        const views::RowNode& node = state.rows().node(int(n));
        if (!node.isGroup()) continue;
        const std::vector<TrackId> tracks = state.rows().tracksBelow(int(n));
        for (const RowExpansion& row : rows)
            if (row.kind == node.kind && row.tracks == tracks) {
                if (row.expanded != node.expanded) state.setExpanded(int(n), row.expanded);
                break;
            }
    }
}

// A range as the line above an over-budget report's timeline names it, to a thousandth of it.
QString rangeText(TimeRange range)
{
    const Duration resolution = std::max<Duration>(1, range.duration() / 1000);
    return QString::fromStdString(
        formatTimestamp(range.start, resolution) + " - " + formatTimestamp(range.end, resolution));
}

} // namespace

ReportTab::ReportTab(QString path, QWidget* parent)
    : QWidget(parent)
    , m_path(std::move(path))
{
    m_pages = new QStackedLayout(this);
    m_loadingPage = buildLoadingPage();
    m_pages->addWidget(m_loadingPage);
    m_followTimer.setSingleShot(true);
    m_followTimer.setInterval(300);
    connect(&m_followTimer, &QTimer::timeout, this, &ReportTab::followVisibleRange);
}

ReportTab::~ReportTab() = default;

QString ReportTab::displayName() const
{
    return QFileInfo(m_path).fileName();
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

void ReportTab::showLoadingPage()
{
    m_loadingLabel->setText(tr("Loading %1…").arg(displayName()));
    m_progress->setValue(0);
    m_progress->setFormat(tr("Opening…"));
    m_pages->setCurrentWidget(m_loadingPage);
}

void ReportTab::load()
{
    // The newest request wins: the running one is cancelled and its signals are dropped with it.
    if (m_request) m_request->cancel();
    m_request = std::make_unique<LoadRequest>(m_path);
    m_loadPercent = 0;
    connect(m_request.get(), &LoadRequest::progressed, this, &ReportTab::onProgress);
    connect(m_request.get(), &LoadRequest::overviewReady, this, &ReportTab::onOverview);
    connect(m_request.get(), &LoadRequest::finished, this, &ReportTab::onFinished);
    showLoadingPage();
    m_request->start();
}

void ReportTab::cancelLoad()
{
    if (m_request) m_request->cancel();
}

void ReportTab::onProgress(qint64 bytesDone, qint64 bytesTotal)
{
    if (bytesTotal <= 0) return;
    m_progress->setValue(int(bytesDone * kProgressSteps / bytesTotal));
    const QLocale locale;
    // Once every byte is decoded the model still builds its indexes; say so rather than sit at 100%.
    m_progress->setFormat(bytesDone >= bytesTotal
            ? tr("Building indexes…")
            : tr("%1 of %2")
                  .arg(locale.formattedDataSize(bytesDone, 1), locale.formattedDataSize(bytesTotal, 1)));
    m_loadPercent = int(std::min(bytesDone, bytesTotal) * 100 / bytesTotal);
    if (m_showsOverview && !m_overBudget) setOverviewLine(overviewLoadingSentence(), true);
}

void ReportTab::onOverview(const LoadOutcome& overview)
{
    // A reload keeps the report shown until the new one has loaded, so that a failed or
    // cancelled reload still leaves it.
    if (m_trace) return;
    showOverview(overview);
}

void ReportTab::showOverview(const LoadOutcome& overview)
{
    // A report's time ranges read within the budget go back to it: the same rows, the same view.
    const bool fromRange = m_loadedRange.has_value();
    const TimeRange visible = fromRange ? m_timeline->visibleRange() : TimeRange {};
    const std::optional<TimeRange> selection = fromRange ? m_timeline->selection() : std::nullopt;
    const std::vector<RowExpansion> expansion
        = fromRange ? expansionOf(m_timeline->state()) : std::vector<RowExpansion> {};
    const std::optional<ScrollAnchor> scrolled
        = fromRange ? scrollAnchorOf(m_timeline->state()) : std::nullopt;
    m_trace.reset();
    m_loadedRange.reset();
    m_overview = overview;
    m_overviewEvents = overview.reportEvents;
    m_showsOverview = true;
    replacePage(overview.trace);
    if (fromRange) {
        applyExpansion(m_timeline->state(), expansion);
        m_timeline->setVisibleRange(visible);
        m_timeline->setSelection(selection);
        if (scrolled) scrollToAnchor(m_timeline->state(), *scrolled);
    }
    // A report over the budget is never read whole: its overview says so and offers ranges.
    if (m_overBudget)
        setOverviewLine(overBudgetSentence(), false);
    else
        setOverviewLine(overviewLoadingSentence(), true);
    emit overviewShown();
}

QString ReportTab::overviewLoadingSentence() const
{
    return tr("Overview: drawn from the report's summary while its %1 events load (%2%).")
        .arg(QLocale().toString(qulonglong(m_overviewEvents)))
        .arg(m_loadPercent);
}

void ReportTab::setOverviewLine(const QString& sentence, bool offerCancel)
{
    m_overviewText->setText(sentence);
    m_overviewCancel->setVisible(offerCancel);
    // A report over the budget offers its ranges, and the way back to its overview from one.
    m_loadRangeButton->setVisible(m_overBudget && !offerCancel);
    m_backToOverviewButton->setVisible(m_overBudget && !offerCancel && m_loadedRange.has_value());
}

QString ReportTab::overBudgetSentence() const
{
    const QLocale locale;
    return tr("Overview only: this report's %1 events need about %2 of memory, more than the viewer's "
              "budget of %3 (sightline-ui --memory-budget). Select a time range and choose Load Range to "
              "see its events.")
        .arg(locale.toString(qulonglong(m_overviewEvents)),
            locale.formattedDataSize(qint64(m_overviewEvents * kResidentBytesPerEvent), 1),
            locale.formattedDataSize(qint64(memoryBudget()), 1));
}

void ReportTab::followTimeline()
{
    // A report over the budget reads what the view settles on: a moment after the last move.
    connect(
        m_timeline, &views::TimelineView::visibleRangeChanged, &m_followTimer, qOverload<>(&QTimer::start));
    // Its rows list their tracks from the file, the overview's too (a range's page connects
    // the same slot already).
    connect(m_timeline, &views::TimelineView::showInEventsViewRequested, this, &ReportTab::showInEventsView,
        Qt::UniqueConnection);
}

void ReportTab::loadRange()
{
    const std::optional<TimeRange> range = m_timeline ? m_timeline->selection() : std::nullopt;
    if (!range) {
        setOverviewLine(
            tr("Select a time range first (drag across the timeline), then choose Load Range."), false);
        return;
    }
    readRange(*range, true);
}

void ReportTab::followVisibleRange()
{
    if (!m_overBudget || !m_timeline) return;
    const TimeRange visible = m_timeline->visibleRange();
    const auto holds = [&](const std::optional<TimeRange>& range) {
        return range && range->start <= visible.start && visible.end <= range->end;
    };
    // Shown already, or being read (a range the user chose included).
    if (holds(m_loadedRange) || (m_request && holds(m_readingRange))) return;
    // Three times the view where that fits, so that panning stays inside what was read.
    const TimeRange span = m_timeline->trace().span;
    const TimeRange around {std::max(span.start, visible.start - visible.duration()),
        std::min(span.end, visible.end + visible.duration())};
    readRange(fitsBudget(around) ? around : visible, false);
}

bool ReportTab::fitsBudget(TimeRange range) const
{
    // What a track's events from the file hold counts against the budget too.
    const uint64_t held = m_trackEvents ? m_trackEvents->residentBytes() : 0;
    const uint64_t budget = memoryBudget() > held ? memoryBudget() - held : 0;
    return m_overview && m_overview->batches
        && m_overview->batches->eventsStartingIn(range) <= budget / kResidentBytesPerEvent;
}

void ReportTab::readRange(TimeRange range, bool asked)
{
    if (!m_overview || !m_overview->batches) return;
    const uint64_t events = m_overview->batches->eventsStartingIn(range);
    const QLocale locale;
    if (!fitsBudget(range)) {
        if (asked)
            setOverviewLine(
                tr("The range %1 holds about %2 events, more than the memory budget allows; select "
                   "a shorter range.")
                    .arg(rangeText(range), locale.toString(qulonglong(events))),
                false);
        else if (m_loadedRange) // zoomed out of what was read: the overview shows the whole again
            showOverview(LoadOutcome(*m_overview));
        return;
    }
    // The newest range wins: one still being read is dropped.
    if (m_request) m_request->cancel();
    m_request = std::make_unique<LoadRequest>(m_path);
    m_request->setRange(range);
    m_readingRange = range;
    m_loadPercent = 0;
    connect(m_request.get(), &LoadRequest::progressed, this, &ReportTab::onProgress);
    connect(m_request.get(), &LoadRequest::finished, this, &ReportTab::onFinished);
    setOverviewLine(tr("Loading the events that start in %1 (about %2 events)…")
                        .arg(rangeText(range), locale.toString(qulonglong(events))),
        true);
    m_request->start();
}

void ReportTab::onFinished(const LoadOutcome& outcome)
{
    // The request is the sender: it is deleted once its signal has returned.
    m_request.release()->deleteLater();
    switch (outcome.status) {
    case LoadOutcome::Status::Loaded:
        showTrace(outcome.trace, outcome.range);
        emit loaded(outcome.seconds);
        return;
    case LoadOutcome::Status::OverBudget:
        showReportPage();
        m_overBudget = true;
        if (m_timeline) followTimeline();
        if (m_showsOverview) setOverviewLine(overBudgetSentence(), false);
        emit loaded(outcome.seconds);
        return;
    case LoadOutcome::Status::Failed:
        showReportPage();
        if (m_overBudget)
            setOverviewLine(m_loadedRange ? m_overviewText->text() : overBudgetSentence(), false);
        else if (m_showsOverview)
            setOverviewLine(tr("Overview only: the report's events could not be loaded; reopen it to try "
                               "again."),
                false);
        emit loadFailed(outcome.error);
        return;
    case LoadOutcome::Status::Cancelled:
        showReportPage();
        if (m_overBudget) // a range's read stopped: what is shown stays, with its buttons
            setOverviewLine(m_loadedRange ? m_overviewText->text() : overBudgetSentence(), false);
        else if (m_showsOverview)
            setOverviewLine(
                tr("Overview only: loading was cancelled; reopen the report to see its events."), false);
        emit loadCancelled();
        return;
    }
}

void ReportTab::showReportPage()
{
    if (m_reportPage) m_pages->setCurrentWidget(m_reportPage);
}

void ReportTab::showTrace(std::shared_ptr<const Trace> trace, std::optional<TimeRange> range)
{
    // The report replacing its overview keeps where the user went meanwhile: both span the
    // report, so the range and the selection fit, and both have the stored tracks' rows. So
    // does a range of a report over the budget, replacing its overview or another range.
    const bool fromOverview = m_showsOverview || m_loadedRange;
    const TimeRange visible = fromOverview ? m_timeline->visibleRange() : TimeRange {};
    const std::optional<TimeRange> selection = fromOverview ? m_timeline->selection() : std::nullopt;
    const std::optional<ScrollAnchor> scrolled
        = fromOverview ? scrollAnchorOf(m_timeline->state()) : std::nullopt;
    const std::vector<RowExpansion> expansion
        = fromOverview ? expansionOf(m_timeline->state()) : std::vector<RowExpansion> {};
    m_trace = std::move(trace);
    m_showsOverview = false;
    m_loadedRange = range;
    replacePage(m_trace);
    if (m_loadedRange) {
        const QLocale locale;
        setOverviewLine(tr("Showing the %1 events that start in %2 and their neighbours; the rest of this "
                           "report is not loaded (it is over the memory budget).")
                            .arg(locale.toString(qulonglong(m_trace->eventCount())), rangeText(*range)),
            false);
    }
    if (!fromOverview) return;
    applyExpansion(m_timeline->state(), expansion);
    m_timeline->setVisibleRange(visible);
    m_timeline->setSelection(selection);
    if (scrolled) scrollToAnchor(m_timeline->state(), *scrolled);
}

void ReportTab::replacePage(const std::shared_ptr<const Trace>& shown)
{
    // A reload keeps the view and the pane the user had.
    const ReportView view = m_reportPage ? currentView() : ReportView::Timeline;
    const bool paneShown = m_reportPage && isEventsPaneShown();
    const bool callStacksShown = m_reportPage && isCallStacksPaneShown();
    const bool expertShown = m_reportPage && isExpertPaneShown();
    QWidget* previous = m_reportPage;
    m_summary = nullptr;
    m_callStacks = nullptr;
    m_expert = nullptr;
    m_overviewText = nullptr;
    m_overviewCancel = nullptr;
    m_loadRangeButton = nullptr;
    m_backToOverviewButton = nullptr;
    m_reportPage = buildReportPage(shown);
    // Laid out at the size of the page it replaces, so the timeline's rows and scroll range
    // are those the user saw.
    if (previous) m_reportPage->setGeometry(previous->geometry());
    m_pages->addWidget(m_reportPage);
    m_pages->setCurrentWidget(m_reportPage);
    // A track's events read from the file outlive the page: reading them again would be slow.
    if (m_trackEvents) placeTrackEvents();
    if (previous) {
        m_pages->removeWidget(previous);
        previous->deleteLater();
    }
    if (!m_showsOverview) connectTimelineAndEvents();
    if (m_overBudget) followTimeline();
    setEventsPaneShown(paneShown);
    setCallStacksPaneShown(callStacksShown);
    setExpertPaneShown(expertShown);
    setCurrentView(view);
    // The keys work at once, without a click on the timeline first; a tab loaded behind the
    // current one leaves the focus where it is.
    if (view == ReportView::Timeline && isVisible()) m_timeline->setFocus(Qt::OtherFocusReason);
}

QWidget* ReportTab::buildReportPage(const std::shared_ptr<const Trace>& trace)
{
    auto* page = new QWidget(this);
    page->setObjectName(QStringLiteral("reportPage"));

    m_viewSelector = new QComboBox(page);
    m_viewSelector->setObjectName(QStringLiteral("reportViewSelector"));
    m_viewSelector->addItem(tr("Timeline View"));
    m_viewSelector->addItem(tr("Analysis Summary"));
    m_viewSelector->setToolTip(tr("Which view of the report to show"));
    m_eventsButton = new QToolButton(page);
    m_eventsButton->setObjectName(QStringLiteral("eventsPaneButton"));
    m_eventsButton->setText(tr("Events View"));
    m_eventsButton->setCheckable(true);
    m_eventsButton->setAutoRaise(false);
    m_eventsButton->setToolTip(tr("Show or hide the Events View under the timeline"));
    m_callStacksButton = new QToolButton(page);
    m_callStacksButton->setObjectName(QStringLiteral("callStacksPaneButton"));
    m_callStacksButton->setText(tr("Call Stacks"));
    m_callStacksButton->setCheckable(true);
    m_callStacksButton->setToolTip(
        tr("Show or hide the call stacks of the CPU samples in the timeline's selection"));
    m_expertButton = new QToolButton(page);
    m_expertButton->setObjectName(QStringLiteral("expertPaneButton"));
    m_expertButton->setText(tr("Expert"));
    m_expertButton->setCheckable(true);
    m_expertButton->setToolTip(
        tr("Show or hide the Expert view: what limits the program in the timeline's selection, and "
           "what to do"));
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 3, 4, 3);
    bar->addWidget(m_viewSelector);
    bar->addStretch(1);
    bar->addWidget(m_expertButton);
    bar->addWidget(m_callStacksButton);
    bar->addWidget(m_eventsButton);

    m_timeline = new views::TimelineView(trace, page);
    m_timeline->setObjectName(QStringLiteral("timeline"));
    m_timeline->setPictureOnly(m_showsOverview);
    m_timelineSplit = new QSplitter(Qt::Vertical, page);
    m_timelineSplit->setObjectName(QStringLiteral("timelineSplit"));
    m_timelineSplit->setChildrenCollapsible(false);
    m_timelineSplit->addWidget(m_timeline);
    m_timelineSplit->setStretchFactor(0, 1);
    // An overview's stand-ins are not events to list.
    m_events = nullptr;
    if (!m_showsOverview) {
        m_events = new views::EventsView(trace, page);
        m_events->setObjectName(QStringLiteral("eventsView"));
        m_events->hide();
        m_timelineSplit->addWidget(m_events);
        m_timelineSplit->setStretchFactor(1, 0);
    }

    m_views = new QStackedWidget(page);
    m_views->addWidget(m_timelineSplit);
    m_views->addWidget(new QWidget(m_views)); // the summary's place until it is built

    auto* column = new QVBoxLayout(page);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addLayout(bar);
    if (m_showsOverview || m_loadedRange) column->addWidget(buildOverviewLine(page));
    column->addWidget(new DiagnosticsBanner(trace->diagnostics, page));
    column->addWidget(m_views, 1);

    connect(m_viewSelector, &QComboBox::currentIndexChanged, this,
        [this](int index) { setCurrentView(ReportView(index)); });
    connect(m_eventsButton, &QToolButton::toggled, this, &ReportTab::setEventsPaneShown);
    connect(m_callStacksButton, &QToolButton::toggled, this, &ReportTab::setCallStacksPaneShown);
    connect(m_expertButton, &QToolButton::toggled, this, &ReportTab::setExpertPaneShown);
    return page;
}

QWidget* ReportTab::buildOverviewLine(QWidget* page)
{
    auto* line = new QFrame(page);
    line->setObjectName(QStringLiteral("overviewLine"));
    line->setFrameShape(QFrame::StyledPanel);
    m_overviewText = new QLabel(line);
    m_overviewText->setObjectName(QStringLiteral("overviewText"));
    m_overviewText->setWordWrap(true);
    m_overviewCancel = new QPushButton(tr("Cancel"), line);
    m_overviewCancel->setObjectName(QStringLiteral("cancelOverviewLoadButton"));
    m_overviewCancel->setToolTip(tr("Stop loading the report's events and keep this overview"));
    connect(m_overviewCancel, &QPushButton::clicked, this, &ReportTab::cancelLoad);
    m_loadRangeButton = new QPushButton(tr("Load Range"), line);
    m_loadRangeButton->setObjectName(QStringLiteral("loadRangeButton"));
    m_loadRangeButton->setToolTip(tr("Read the events that start in the selected time range"));
    m_loadRangeButton->hide();
    connect(m_loadRangeButton, &QPushButton::clicked, this, &ReportTab::loadRange);
    m_backToOverviewButton = new QPushButton(tr("Overview"), line);
    m_backToOverviewButton->setObjectName(QStringLiteral("backToOverviewButton"));
    m_backToOverviewButton->setToolTip(tr("Let the loaded range go and show the whole report's overview"));
    m_backToOverviewButton->hide();
    connect(m_backToOverviewButton, &QPushButton::clicked, this, [this] {
        if (!m_overview) return;
        // The whole report, which is what an overview is for (zoomed in, the view would read
        // its range again at once).
        showOverview(LoadOutcome(*m_overview));
        m_timeline->zoomToAll();
    });
    auto* row = new QHBoxLayout(line);
    row->setContentsMargins(8, 2, 4, 2);
    row->addWidget(m_overviewText, 1);
    row->addWidget(m_loadRangeButton);
    row->addWidget(m_backToOverviewButton);
    row->addWidget(m_overviewCancel);
    return line;
}

void ReportTab::connectTimelineAndEvents()
{
    views::TimelineView* timeline = m_timeline;
    views::EventsView* events = m_events;
    connect(timeline, &views::TimelineView::showInEventsViewRequested, this, &ReportTab::showInEventsView);
    connect(timeline, &views::TimelineView::eventSelected, events, &views::EventsView::selectEvent);
    connect(events, &views::EventsView::eventSelected, timeline,
        [timeline](EventRef event) { timeline->selectEvent(event, true); });
    connect(events, &views::EventsView::zoomToEventRequested, this,
        [this](EventRef event) { showOnTimeline(views::eventRange(m_timeline->trace(), event), event); });
    connect(timeline, &views::TimelineView::showCounterInEventsViewRequested, this,
        &ReportTab::showCounterInEventsView);
    connect(events, &views::EventsView::zoomToRangeRequested, this,
        [this](TimeRange range) { showOnTimeline(range, std::nullopt); });
}

void ReportTab::showOnTimeline(TimeRange range, std::optional<EventRef> event)
{
    if (!m_timeline) return;
    const Duration margin = std::max<Duration>(range.duration() / 10, 1);
    m_timeline->setVisibleRange({range.start - margin, range.end + margin});
    // Inside the range now, the event only needs its row revealed and scrolled to.
    m_timeline->selectEvent(event, true);
}

views::AnalysisSummary* ReportTab::summary()
{
    if (m_summary || !m_trace) return m_summary;
    const QFileInfo file(m_path);
    m_summary = new views::AnalysisSummary(
        m_trace, views::ReportFile {m_path, file.exists() ? file.size() : -1}, m_views);
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
    connectSummary();
    return m_summary;
}

void ReportTab::connectSummary()
{
    m_summary->setSelectedRange(m_timeline->selection());
    connect(m_timeline, &views::TimelineView::selectionChanged, m_summary,
        &views::AnalysisSummary::setSelectedRange);
    connect(m_summary, &views::AnalysisSummary::eventsRequested, this, &ReportTab::showEventsRequest);
}

views::CallStackView* ReportTab::callStacks()
{
    if (m_callStacks || !m_trace || m_trace->cpu.samples.empty()) return m_callStacks;
    m_callStacks = new views::CallStackView(m_timelineSplit);
    m_callStacks->setObjectName(QStringLiteral("callStacks"));
    m_callStacks->hide();
    m_timelineSplit->addWidget(m_callStacks);
    m_timelineSplit->setStretchFactor(m_timelineSplit->indexOf(m_callStacks), 0);
    m_callStacks->setTrace(m_trace);
    m_callStacks->setScope(m_timeline->selection());
    connect(m_timeline, &views::TimelineView::selectionChanged, m_callStacks,
        [callStacks = m_callStacks](std::optional<TimeRange> range) { callStacks->setScope(range); });
    // A function chosen in the pane marks its samples on the timeline.
    connect(m_callStacks, &views::CallStackView::functionSelected, m_timeline,
        [timeline = m_timeline](
            const views::CallStackSelection& chosen) { timeline->setHighlightedStacks(chosen.stacks); });
    return m_callStacks;
}

bool ReportTab::isCallStacksPaneShown() const
{
    return m_callStacks && !m_callStacks->isHidden();
}

void ReportTab::setCallStacksPaneShown(bool shown)
{
    if (shown == isCallStacksPaneShown() || (shown && !callStacks())) {
        updateViewBar();
        return;
    }
    m_callStacks->setVisible(shown);
    if (!shown) m_timeline->setHighlightedStacks(nullptr); // the choice leaves with the pane
    if (shown) giveTimelineShareTo(m_callStacks, kEventsPanePercent);
    updateViewBar();
}

void ReportTab::giveTimelineShareTo(QWidget* pane, int percent)
{
    // The pane takes its share from the timeline, leaving the other panes as they are.
    QList<int> sizes = m_timelineSplit->sizes();
    const int share = std::max(m_timelineSplit->height(), height()) * percent / 100;
    sizes[0] = std::max(sizes[0] - share, 1);
    sizes[m_timelineSplit->indexOf(pane)] = share;
    m_timelineSplit->setSizes(sizes);
}

views::ExpertView* ReportTab::expert()
{
    if (m_expert || !m_trace) return m_expert;
    // Right under the timeline, above the Events View that lists a finding's evidence.
    m_expert = new views::ExpertView(m_trace, m_timelineSplit);
    m_expert->setObjectName(QStringLiteral("expertView"));
    m_expert->hide();
    m_timelineSplit->insertWidget(1, m_expert);
    m_timelineSplit->setStretchFactor(1, 0);
    m_expert->setSelectedRange(m_timeline->selection());
    connect(
        m_timeline, &views::TimelineView::selectionChanged, m_expert, &views::ExpertView::setSelectedRange);
    connect(m_expert, &views::ExpertView::eventsRequested, this, &ReportTab::showEventsRequest);
    connect(m_expert, &views::ExpertView::timelineFocusRequested, this, &ReportTab::showOnTimeline);
    return m_expert;
}

bool ReportTab::isExpertPaneShown() const
{
    return m_expert && !m_expert->isHidden();
}

void ReportTab::setExpertPaneShown(bool shown)
{
    if (shown == isExpertPaneShown() || (shown && !expert())) {
        updateViewBar();
        return;
    }
    m_expert->setVisible(shown);
    if (shown) giveTimelineShareTo(m_expert, kExpertPanePercent);
    updateViewBar();
    emit expertPaneShownChanged(shown);
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

bool ReportTab::isEventsPaneShown() const
{
    return m_events && !m_events->isHidden();
}

void ReportTab::setEventsPaneShown(bool shown)
{
    if (!m_events || shown == isEventsPaneShown()) {
        updateViewBar();
        return;
    }
    const int index = m_timelineSplit->indexOf(m_events);
    if (!shown) {
        m_eventsPaneHeight = m_timelineSplit->sizes().value(index);
        m_events->hide();
    } else {
        m_events->show();
        const int total = std::max(m_timelineSplit->height(), height());
        const int pane = m_eventsPaneHeight > 0 ? m_eventsPaneHeight : total * kEventsPanePercent / 100;
        // The pane takes its room from the timeline; the other panes keep theirs.
        QList<int> sizes = m_timelineSplit->sizes();
        int others = 0;
        for (int i = 1; i < sizes.size(); ++i)
            if (i != index) others += sizes[i];
        sizes[index] = pane;
        sizes[0] = std::max(total - pane - others, 1);
        m_timelineSplit->setSizes(sizes);
    }
    updateViewBar();
}

void ReportTab::updateViewBar()
{
    const QSignalBlocker blockSelector(m_viewSelector);
    const QSignalBlocker blockButton(m_eventsButton);
    const QSignalBlocker blockCallStacks(m_callStacksButton);
    const QSignalBlocker blockExpert(m_expertButton);
    // An overview shows the timeline only: the other views need the report's events.
    const bool hasEvents = m_trace != nullptr;
    m_viewSelector->setEnabled(hasEvents);
    m_eventsButton->setEnabled(hasEvents);
    m_expertButton->setEnabled(hasEvents);
    m_viewSelector->setCurrentIndex(int(currentView()));
    m_eventsButton->setChecked(isEventsPaneShown());
    m_eventsButton->setVisible(currentView() == ReportView::Timeline);
    m_callStacksButton->setChecked(isCallStacksPaneShown());
    m_callStacksButton->setVisible(
        currentView() == ReportView::Timeline && m_trace && !m_trace->cpu.samples.empty());
    m_expertButton->setChecked(isExpertPaneShown());
    m_expertButton->setVisible(currentView() == ReportView::Timeline);
}

void ReportTab::showInEventsView(const std::vector<TrackId>& tracks)
{
    if (m_overBudget) {
        showTrackEventsFromFile(tracks);
        return;
    }
    if (!m_events) return;
    m_events->showEvents(tracks, m_timeline->selection());
    setCurrentView(ReportView::Timeline);
    setEventsPaneShown(true);
}

void ReportTab::showCounterInEventsView(uint32_t series)
{
    if (!m_events) return;
    m_events->showCounter(series, m_timeline->selection());
    setCurrentView(ReportView::Timeline);
    setEventsPaneShown(true);
}

void ReportTab::showEventsRequest(const views::EventsRequest& request)
{
    if (!m_events) return;
    m_events->showRequest(request);
    setCurrentView(ReportView::Timeline);
    setEventsPaneShown(true);
}

} // namespace sightline::ui
