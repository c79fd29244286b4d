// The Expert view: what limits the program and what to do about it, from the analysis rules
// (model/analysis/analysis.h, the same findings as `sightline analyze`). A header states the
// verdict of the scope with the numbers behind it; a tree lists the verdict lines, then the
// findings by severity with their evidence (findings_model.h); below it, the chosen finding's
// summary and what to do. The scope follows the timeline's selected range (the whole report
// without one); the analysis runs off the GUI thread through LatestRequest, so a new range
// cancels the running one, and a hidden view computes nothing until it is shown.
// Choosing a row asks the shell to show its evidence (evidence_focus.h says which):
//   TimelineView::selectionChanged -> setSelectedRange(range)
//   eventsRequested(request)       -> EventsView::showRequest(request): a finding's evidence events
//   timelineFocusRequested(r, e)   -> select e on the timeline and zoom it to r
#pragma once

#include "model/analysis/analysis.h"
#include "views/common/latest_request.h"
#include "views/events/events_request.h"

#include <QWidget>
#include <memory>
#include <optional>

class QLabel;
class QModelIndex;
class QProgressBar;
class QTextBrowser;
class QTreeView;

namespace sightline::views {

class FindingsModel;

class ExpertView : public QWidget
{
    Q_OBJECT
public:
    explicit ExpertView(std::shared_ptr<const Trace> trace, QWidget* parent = nullptr);
    ~ExpertView() override;

    const Trace& trace() const { return *m_trace; }
    // The range analysed (none: the whole report).
    std::optional<TimeRange> range() const { return m_range; }
    bool isBusy() const { return m_request.isBusy(); }
    // The analysis shown; null before the first one finishes.
    const AnalysisResult* result() const;

    FindingsModel* model() const { return m_model; }
    QTreeView* tree() const { return m_tree; }
    QLabel* verdictLabel() const { return m_verdict; }
    QLabel* reasonLabel() const { return m_reason; }
    QTextBrowser* details() const { return m_details; }

    // Makes result()->findings[finding] the current row, as a click would; false when there is
    // no such finding.
    bool selectFinding(size_t finding);
    // The Events View request listing a finding's evidence events.
    EventsRequest requestFor(const Finding& finding) const;

public slots:
    // The timeline's selected range; no value when nothing is selected.
    void setSelectedRange(std::optional<sightline::TimeRange> range);

signals:
    void eventsRequested(const sightline::views::EventsRequest& request);
    // Zoom the timeline to `range` and select `event` there (none: clear the selected event).
    void timelineFocusRequested(sightline::TimeRange range, std::optional<sightline::EventRef> event);
    void busyChanged(bool busy);
    // The tree shows the analysis of the current range.
    void resultShown();

protected:
    void showEvent(QShowEvent* event) override;

private:
    QWidget* buildHeader();
    void recompute();
    void showResult(std::shared_ptr<const AnalysisResult> result);
    void updateHeader();
    void onCurrentChanged(const QModelIndex& index);
    void showDetails(const QModelIndex& index);
    TimeRange scopeRange() const;

    std::shared_ptr<const Trace> m_trace;
    std::optional<TimeRange> m_range;
    std::optional<TimeRange> m_shownRange; // the range of the result shown
    bool m_stale = false;
    int m_listedFinding = -1; // the finding whose evidence the Events View was given
    LatestRequest m_request {this};

    FindingsModel* m_model = nullptr;
    QTreeView* m_tree = nullptr;
    QLabel* m_verdict = nullptr;
    QLabel* m_reason = nullptr;
    QLabel* m_scope = nullptr;
    QProgressBar* m_busy = nullptr;
    QTextBrowser* m_details = nullptr;
};

} // namespace sightline::views
