// One tab of the main window: one report file. While it loads the tab shows a progress page
// (bytes read, Cancel); once loaded it shows the report's views, as Nsight Systems lays them
// out: a view selector on top ("Timeline View" / "Analysis Summary") and, in Timeline View,
// the Events View in a bottom pane under the timeline (a vertical splitter). The tab wires the
// views together: a row's "Show in Events View" lists its events (within the timeline's
// selection), the Events View and the timeline select each other's events, the timeline's
// selection scopes the summary and the Call Stacks pane (a second bottom pane, offered when
// the report has CPU samples, whose chosen function marks its samples on the timeline), a
// stats row click lists its events in Timeline View, and the Expert pane (a third bottom pane,
// following the timeline's selection too) shows a chosen finding's evidence: the timeline zooms
// to it and the Events View lists its events.
// A report that stores an overview (format 1.2) is painted before its events are decoded: the
// tab shows the overview as a picture-only timeline, with a line saying how far the load is
// and a Cancel button, the controls that need events disabled; the report replaces it keeping
// the visible range, the selected range, the rows opened or closed and the scroll position the user
// chose meanwhile (so do ranges of a report over the budget replacing each other). A
// report whose events would take more than the memory budget stays an overview; the tab reads
// the events of the range the view settles on whenever they fit the budget (three times the
// view where that fits, else the view), shows them with the rest of the report's span empty,
// and returns to the overview when zoomed out of what fits; Load Range reads a selection. Over
// the budget, a row's "Show in Events View" lists its track from the file, whole
// (views/pagedevents), in a pane that stays while the overview and ranges replace each other.
// Invariants: the newest load request of a tab wins. Starting a load cancels and forgets the
// one running, so a stale result never replaces a newer one; a failed or cancelled reload keeps
// the views shown before (a reload of a report already shown shows no overview), and a first
// load that fails or is cancelled after its overview keeps the overview, saying so. The
// Analysis Summary is built on first use (its statistics run over the whole trace), and always
// knows the timeline's current selection.
#pragma once

#include "app/ui/shell/report_loader.h"
#include "model/core/ids.h"
#include "views/common/latest_request.h"

#include <QTimer>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSplitter;
class QStackedLayout;
class QStackedWidget;
class QToolButton;

namespace sightline::views {
class AnalysisSummary;
class CallStackView;
class EventsView;
class ExpertView;
class PagedEventsView;
class TimelineView;
struct EventsRequest;
} // namespace sightline::views

namespace sightline::ui {

// The views of the selector, in its order.
enum class ReportView : uint8_t { Timeline, Summary };

class ReportTab : public QWidget
{
    Q_OBJECT
public:
    explicit ReportTab(QString path, QWidget* parent = nullptr);
    ~ReportTab() override;

    const QString& path() const { return m_path; }
    QString displayName() const; // the file name, for the tab and the window title

    // Loads the file in the background (again, for a reload).
    void load();
    // Shows a trace already in memory (the screenshot mode loads on the calling thread).
    // `range`: the trace holds the events starting in it of a report over the memory budget.
    void showTrace(std::shared_ptr<const Trace> trace, std::optional<TimeRange> range = std::nullopt);
    // Shows a report's overview (LoadOutcome::overview) in place of what is shown, as the
    // picture of a report that is still loading.
    void showOverview(const LoadOutcome& overview);
    void cancelLoad();

    bool isLoading() const { return m_request != nullptr; }
    // True while the report page shows an overview rather than the report's events.
    bool isShowingOverview() const { return m_showsOverview; }
    // The report's views; null before the first load (or its overview) arrives. While an
    // overview is shown, the timeline is picture-only and there is no Events View.
    views::TimelineView* timeline() const { return m_timeline; }
    views::EventsView* eventsView() const { return m_events; }
    // Over the memory budget: the Events View of one track read from the file; null until a
    // row asks for it, and after it is closed.
    views::PagedEventsView* trackEventsView() const { return m_trackEvents; }
    // True while a track asked for is being opened (its pane then appears, or the line above
    // the timeline says why it cannot).
    bool isOpeningTrackEvents() const { return m_trackOpening.isBusy(); }
    // The Analysis Summary, built on the first call (null before the first load finishes).
    views::AnalysisSummary* summary();
    QComboBox* viewSelector() const { return m_viewSelector; }
    QToolButton* eventsPaneButton() const { return m_eventsButton; }
    // The Call Stacks pane, built on the first call (null without CPU samples or a loaded report).
    views::CallStackView* callStacks();
    QToolButton* callStacksButton() const { return m_callStacksButton; }
    // The Expert pane, built on the first call (null before the first load finishes).
    views::ExpertView* expert();
    QToolButton* expertPaneButton() const { return m_expertButton; }

    ReportView currentView() const;
    void setCurrentView(ReportView view);
    bool isEventsPaneShown() const;
    void setEventsPaneShown(bool shown);
    bool isCallStacksPaneShown() const;
    void setCallStacksPaneShown(bool shown);
    bool isExpertPaneShown() const;
    void setExpertPaneShown(bool shown);

public slots:
    // Lists the events of `tracks` in the Events View (only those overlapping the timeline's
    // selection when there is one) and shows the pane.
    void showInEventsView(const std::vector<sightline::TrackId>& tracks);
    // The same for the samples of a counter series.
    void showCounterInEventsView(uint32_t series);
    // Lists the largest of `tracks` whole, read from the file a page at a time, in a pane under
    // the timeline: what a row's Show in Events View does over the memory budget.
    void showTrackEventsFromFile(const std::vector<sightline::TrackId>& tracks);
    // Lists the request's events and shows them under the timeline (switching to Timeline View).
    void showEventsRequest(const sightline::views::EventsRequest& request);
    // Zooms the timeline to `range`, with a tenth of it as margin on each side, and selects
    // `event` there, its row revealed (none: clears the selected event).
    void showOnTimeline(sightline::TimeRange range, std::optional<sightline::EventRef> event);

signals:
    void loaded(double seconds);
    void loadFailed(const QString& error);
    void loadCancelled();
    // The page began showing the report's overview (the timeline is a new, picture-only one).
    void overviewShown();
    void expertPaneShownChanged(bool shown);

private:
    void onProgress(qint64 bytesDone, qint64 bytesTotal);
    void onOverview(const LoadOutcome& overview);
    void onFinished(const LoadOutcome& outcome);
    QWidget* buildLoadingPage();
    void showLoadingPage();
    void showReportPage();
    // Replaces the report page with one showing `shown` (the report, or its overview).
    void replacePage(const std::shared_ptr<const Trace>& shown);
    QWidget* buildReportPage(const std::shared_ptr<const Trace>& trace);
    QWidget* buildOverviewLine(QWidget* page);
    void setOverviewLine(const QString& sentence, bool offerCancel);
    QString overviewLoadingSentence() const;
    QString overBudgetSentence() const;
    // Reads the events starting in the timeline's selection, when they fit the memory budget.
    void loadRange();
    // Reads the events starting in `range` when they fit the memory budget. `asked`: the user
    // chose it (one that does not fit gets a sentence); else the view moved there (one that does
    // not fit brings the overview back in place of a range read before).
    void readRange(TimeRange range, bool asked);
    bool fitsBudget(TimeRange range) const;
    // Over the budget, the view reads the range it settles on (with a margin each side) and
    // goes back to the overview when zoomed out of what fits: decode on demand; a row's Show
    // in Events View lists its track from the file.
    void followTimeline();
    void followVisibleRange();
    void connectTimelineAndEvents();
    void placeTrackEvents(); // into the page's splitter, under the timeline
    void closeTrackEvents();
    void connectSummary();
    void giveTimelineShareTo(QWidget* pane, int percent); // percent of the tab's height
    void updateViewBar();

    QString m_path;
    QStackedLayout* m_pages = nullptr;
    QWidget* m_loadingPage = nullptr;
    QLabel* m_loadingLabel = nullptr;
    QProgressBar* m_progress = nullptr;
    std::unique_ptr<LoadRequest> m_request;
    int m_loadPercent = 0; // of the running load's bytes

    // While the page shows the report's overview: the report's event count, and the line
    // above the timeline saying so.
    bool m_showsOverview = false;
    uint64_t m_overviewEvents = 0;
    QLabel* m_overviewText = nullptr;
    QPushButton* m_overviewCancel = nullptr;
    // A report over the memory budget: its overview (to come back to), the range shown instead,
    // if any, and the line's buttons to load a range and to go back.
    bool m_overBudget = false;
    std::optional<LoadOutcome> m_overview;
    std::optional<TimeRange> m_loadedRange;
    std::optional<TimeRange> m_readingRange; // of the last range request
    QPushButton* m_loadRangeButton = nullptr;
    QPushButton* m_backToOverviewButton = nullptr;
    QTimer m_followTimer; // single shot: the view has settled

    // The loaded report's page; all of it is replaced when a reload finishes. m_trace is the
    // report itself: null while only its overview is shown.
    std::shared_ptr<const Trace> m_trace;
    QWidget* m_reportPage = nullptr;
    QComboBox* m_viewSelector = nullptr;
    QToolButton* m_eventsButton = nullptr;
    QToolButton* m_callStacksButton = nullptr;
    QToolButton* m_expertButton = nullptr;
    QStackedWidget* m_views = nullptr;
    QSplitter* m_timelineSplit = nullptr;
    views::TimelineView* m_timeline = nullptr;
    views::EventsView* m_events = nullptr;
    views::AnalysisSummary* m_summary = nullptr;
    views::CallStackView* m_callStacks = nullptr;
    views::ExpertView* m_expert = nullptr;
    int m_eventsPaneHeight = 0; // the pane's height when last hidden; 0: a share of the tab
    // Over the budget: a track's events from the file, kept across page replacements, and the
    // stored track it lists.
    views::PagedEventsView* m_trackEvents = nullptr;
    uint32_t m_trackEventsTrack = 0;
    views::LatestRequest m_trackOpening {this};
};

} // namespace sightline::ui
