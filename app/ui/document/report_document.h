// One report as the viewer holds it, apart from any widget: its loading (progress, cancel, the
// newest request wins), its overview, and, for a report over the memory budget, the range of
// it read and the following of the view (decideHold, model/open/report_hold.h, is the rule).
// It says which trace to show (`traceShown`: the report's events, its overview, a range of
// it) and the sentence of the line above the timeline; the tab (app/ui/report/report_tab.h)
// shows them and tells it where the view settles. It also opens a stored track from the file
// for the Events View of a report over the budget, whose memory counts against the budget.
// Invariants: a failed or cancelled reload keeps the trace shown before (a reload of a report
// already shown shows no overview); a first load that fails or is cancelled after its overview
// keeps the overview, saying so; a stale range read never replaces a newer one.
#pragma once

#include "app/ui/document/report_loader.h"
#include "model/open/report_hold.h"
#include "views/common/latest_request.h"

#include <QObject>
#include <QTimer>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace sightline {
struct OpenedTrack;
} // namespace sightline

namespace sightline::ui {

// The line above the timeline while an overview or a range is shown.
struct OverviewLine
{
    QString sentence;
    bool offersCancel = false; // a load runs that Cancel stops
    bool offersLoadRange = false; // over the budget: Load Range reads the selection
    bool offersOverview = false; // over the budget, a range shown: back to the whole overview
};

class ReportDocument : public QObject
{
    Q_OBJECT
public:
    explicit ReportDocument(QString path, QObject* parent = nullptr);
    ~ReportDocument() override;

    const QString& path() const { return m_path; }
    void load(); // in the background (again, for a reload)
    void cancel();
    bool isLoading() const { return m_request != nullptr; }

    // Shows a trace already in memory (the screenshot mode reads on the calling thread);
    // `range`: it holds the events starting there of a report over the budget.
    void showTrace(std::shared_ptr<const Trace> trace, std::optional<TimeRange> range = std::nullopt);
    // Shows a report's overview (LoadOutcome::overview) in place of what is shown.
    void showOverview(const LoadOutcome& overview);

    // The report's events (whole or a range); null while its overview is shown.
    const std::shared_ptr<const Trace>& events() const { return m_events; }
    bool showsOverview() const { return m_showsOverview; }
    bool isOverBudget() const { return m_overBudget; }
    std::optional<TimeRange> loadedRange() const { return m_loadedRange; }
    const OverviewLine& line() const { return m_line; }

    // Over the budget: the view moved there; a moment after it settles, the range around it is
    // read if it fits, or the overview comes back in place of a range it left.
    void viewMoved(TimeRange visible);
    // Over the budget: reads the events starting in the selection, if they fit.
    void loadRange(std::optional<TimeRange> selection);
    // Over the budget: the whole report's overview again.
    void backToOverview();

    // Over the budget: opens the largest of `tracks` from the file (trackOpened), unless it is
    // `shownTrack` already (then false).
    bool openTrack(const std::vector<TrackId>& tracks, std::optional<uint32_t> shownTrack);
    bool isOpeningTrack() const { return m_trackOpening.isBusy(); }
    // What memory outside the shown trace holds (a track's events from the file), counted
    // against the budget.
    void setHeldBytes(std::function<uint64_t()> held) { m_heldBytes = std::move(held); }

signals:
    void loadStarted();
    void progressed(qint64 bytesDone, qint64 bytesTotal);
    // The trace to show: the report's events, a range of them, or its overview (picture only).
    void traceShown(const std::shared_ptr<const sightline::Trace>& trace, bool overview);
    void lineChanged(const sightline::ui::OverviewLine& line);
    void overviewShown();
    void loaded(double seconds);
    void loadFailed(const QString& error);
    void loadCancelled();
    void trackOpened(std::shared_ptr<sightline::OpenedTrack> opened, uint32_t storedTrack);

private:
    void start(std::unique_ptr<LoadRequest> request);
    void onProgress(qint64 bytesDone, qint64 bytesTotal);
    void onFinished(const LoadOutcome& outcome);
    void followView();
    void readRange(TimeRange range, uint64_t events);
    ReportSize size() const;
    uint64_t budget() const;
    void setLine(QString sentence, bool offersCancel);
    QString loadingSentence() const;
    QString overBudgetSentence() const;

    QString m_path;
    std::unique_ptr<LoadRequest> m_request;
    int m_loadPercent = 0; // of the running load's bytes
    std::shared_ptr<const Trace> m_events;
    bool m_showsOverview = false;
    bool m_overBudget = false;
    std::optional<LoadOutcome> m_overview;
    uint64_t m_overviewEvents = 0;
    std::optional<TimeRange> m_loadedRange;
    std::optional<TimeRange> m_readingRange; // of the last range request
    OverviewLine m_line;
    QTimer m_followTimer; // single shot: the view has settled
    TimeRange m_visible;
    std::function<uint64_t()> m_heldBytes;
    views::LatestRequest m_trackOpening {this};
};

} // namespace sightline::ui
