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
// The report itself (loading, its overview, the range of it read over the memory budget) is
// the ReportDocument's (app/ui/document/report_document.h); the tab shows the trace it names
// in one page for the tab's life: the timeline swaps its trace and keeps where the user went
// (TimelineState::setTrace), and the panes made from the old trace are made again from the
// new one, those shown shown again. The panes under the timeline come from one table. While
// an overview or a range is shown, a line above the timeline says so, with its buttons. Over
// the budget, a row's "Show in Events View" lists its track from the file, whole
// (views/pagedevents), in a pane that stays while the overview and ranges replace each other.
// The Analysis Summary is built on first use (its statistics run over the whole trace), and
// always knows the timeline's current selection.
#pragma once

#include "app/ui/document/report_document.h"
#include "model/core/ids.h"

#include <QWidget>
#include <array>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QSplitter;
class QStackedLayout;
class QStackedWidget;
class QToolButton;
class QVBoxLayout;

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

class LoadingPage;
class OverviewLineBar;

// The views of the selector, in its order.
enum class ReportView : uint8_t { Timeline, Summary };
// The panes under the timeline, in their order there (the table in report_panes.cpp).
enum class ReportPane : uint8_t { Expert, Events, CallStacks };
constexpr size_t kReportPaneCount = 3;

class ReportTab : public QWidget
{
    Q_OBJECT
public:
    explicit ReportTab(QString path, QWidget* parent = nullptr);
    ~ReportTab() override;

    const QString& path() const;
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

    bool isLoading() const { return m_document->isLoading(); }
    // True while the report page shows an overview rather than the report's events.
    bool isShowingOverview() const { return m_document->showsOverview(); }
    ReportDocument& document() const { return *m_document; }
    // The report's views; null before the first load (or its overview) arrives. While an
    // overview is shown, the timeline is picture-only and there is no Events View.
    views::TimelineView* timeline() const { return m_timeline; }
    views::EventsView* eventsView() const;
    // Over the memory budget: the Events View of one track read from the file; null until a
    // row asks for it, and after it is closed.
    views::PagedEventsView* trackEventsView() const { return m_trackEvents; }
    // True while a track asked for is being opened (its pane then appears, or the line above
    // the timeline says why it cannot).
    bool isOpeningTrackEvents() const { return m_document->isOpeningTrack(); }
    // The Analysis Summary, built on the first call (null before the first load finishes).
    views::AnalysisSummary* summary();
    QComboBox* viewSelector() const { return m_viewSelector; }
    QToolButton* eventsPaneButton() const { return m_panes[size_t(ReportPane::Events)].button; }
    // The Call Stacks pane, built on the first call (null without CPU samples or a loaded report).
    views::CallStackView* callStacks();
    QToolButton* callStacksButton() const { return m_panes[size_t(ReportPane::CallStacks)].button; }
    // The Expert pane, built on the first call (null before the first load finishes).
    views::ExpertView* expert();
    QToolButton* expertPaneButton() const { return m_panes[size_t(ReportPane::Expert)].button; }

    ReportView currentView() const;
    void setCurrentView(ReportView view);
    // A pane under the timeline, built on the first call (null where the trace shown has none).
    QWidget* pane(ReportPane pane);
    bool isPaneShown(ReportPane pane) const;
    void setPaneShown(ReportPane pane, bool shown);
    bool isEventsPaneShown() const { return isPaneShown(ReportPane::Events); }
    void setEventsPaneShown(bool shown) { setPaneShown(ReportPane::Events, shown); }
    bool isCallStacksPaneShown() const { return isPaneShown(ReportPane::CallStacks); }
    void setCallStacksPaneShown(bool shown) { setPaneShown(ReportPane::CallStacks, shown); }
    bool isExpertPaneShown() const { return isPaneShown(ReportPane::Expert); }
    void setExpertPaneShown(bool shown) { setPaneShown(ReportPane::Expert, shown); }

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
    struct PaneEntry // a row of the panes' table (report_panes.cpp)
    {
        const char* buttonName;
        const char* text;
        const char* toolTip;
        int percent; // the pane's first share of the tab's height
        QWidget* (ReportTab::*make)(); // null where the trace shown has no such pane
    };
    static const PaneEntry& entryOf(ReportPane pane);
    struct PaneSlot
    {
        QToolButton* button = nullptr;
        QWidget* widget = nullptr; // built from the trace shown; null until asked for
        int hiddenHeight = 0; // its height when last hidden; 0: its share of the tab
    };

    void onTraceShown(const std::shared_ptr<const Trace>& trace, bool overview);
    void onTrackOpened(const std::shared_ptr<OpenedTrack>& opened, uint32_t storedTrack);
    void showReportPage();
    void buildReportPage(const std::shared_ptr<const Trace>& trace);
    void showLine(const OverviewLine& line);
    // The panes' makers (the table's entries): null where the trace shown has none.
    QWidget* makeEventsPane();
    QWidget* makeCallStacksPane();
    QWidget* makeExpertPane();
    void dropPanes(); // those made from the trace shown until now
    void closeTrackEvents();
    void giveTimelineShareTo(QWidget* pane, int pixels);
    void updateViewBar();

    ReportDocument* m_document = nullptr;
    QStackedLayout* m_pages = nullptr;
    LoadingPage* m_loadingPage = nullptr;

    // The report's page, built when the first trace (or overview) arrives. m_trace is the
    // report's events shown: null while only its overview is shown.
    std::shared_ptr<const Trace> m_trace;
    QWidget* m_reportPage = nullptr;
    QVBoxLayout* m_column = nullptr;
    QComboBox* m_viewSelector = nullptr;
    QStackedWidget* m_views = nullptr;
    QSplitter* m_timelineSplit = nullptr;
    QWidget* m_banner = nullptr;
    views::TimelineView* m_timeline = nullptr;
    views::AnalysisSummary* m_summary = nullptr;
    std::array<PaneSlot, kReportPaneCount> m_panes {};
    // The line above the timeline while an overview or a range is shown (else null).
    OverviewLineBar* m_line = nullptr;
    // Over the budget: a track's events from the file, kept while traces replace each other,
    // and the stored track it lists.
    views::PagedEventsView* m_trackEvents = nullptr;
    uint32_t m_trackEventsTrack = 0;
};

} // namespace sightline::ui
