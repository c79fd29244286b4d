// The Events View: the bottom pane listing the events of some timeline rows (a filter box, the
// table, a status line). The shell fills it from the timeline's "Show in Events View" and from
// the Analysis Summary, and keeps it in step with the timeline's selected event:
//   timeline "Show in Events View"  -> showEvents(tracks, selection)
//   AnalysisSummary::eventsRequested -> showRequest(request)
//   TimelineView::eventSelected     -> selectEvent(event)
//   timeline counter row's "Show in Events View" -> showCounter(series, selection)
//   eventSelected(event)            -> TimelineView::selectEvent(event, true)   (centre it)
//   zoomToEventRequested(event)     -> zoom the timeline to the event
//   zoomToRangeRequested(range)     -> zoom the timeline to a counter sample
// Listing, filtering (as you type, debounced) and sorting run off the GUI thread with a busy
// indicator (event_query_runner.h); the table keeps showing the previous rows meanwhile, so
// the window stays usable, and the newest request wins. A header click sorts; measures sort
// largest first, so "duration, longest first" is one click. NVTX ranges expand in place to
// the events they contain (events_table_model.h explains the choice).
#pragma once

#include "model/common/result.h"
#include "views/events/event_query.h"
#include "views/events/events_request.h"

#include <QWidget>
#include <memory>
#include <optional>

class QCheckBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QTableView;
class QTimer;
class QToolButton;

namespace sightline::views {

class EventQueryRunner;
class EventsItemDelegate;
class EventsTableModel;

class EventsView : public QWidget
{
    Q_OBJECT
public:
    explicit EventsView(std::shared_ptr<const Trace> trace, QWidget* parent = nullptr);
    ~EventsView() override;

    const Trace& trace() const { return *m_trace; }
    const EventSource& source() const;
    EventQuery query() const { return m_query; }
    bool isBusy() const;
    // The events listed now (filtered and sorted; rows shown inside expanded ranges excluded).
    size_t listedCount() const;
    // The columns shown, in on-screen order (columns that apply to none of the source's events
    // are hidden).
    std::vector<EventColumn> visibleColumns() const;
    QString statusText() const;

    EventsTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QLineEdit* filterEdit() const { return m_filter; }
    QCheckBox* regexBox() const { return m_regex; }

    // Writes the current (sorted, filtered) table to `path` as CSV on this thread, its visible
    // columns in their on-screen order (model/export/events_text.h).
    Status exportCsv(const QString& path) const;
    // The selected rows as tab-separated text (a header line first).
    QString selectionAsTsv() const;

public slots:
    // Lists the events of `tracks` overlapping `range` (all of them without one).
    void showEvents(
        const std::vector<sightline::TrackId>& tracks, std::optional<sightline::TimeRange> range = {});
    void showRequest(const sightline::views::EventsRequest& request);
    // Lists the samples of counter series `series` overlapping `range` (all of them without one):
    // time, duration and value, sortable like events.
    void showCounter(uint32_t series, std::optional<sightline::TimeRange> range = {});
    // Filters at once (the filter box waits for a pause in typing).
    void setNameFilter(const QString& pattern, bool regex = false);
    void sortBy(sightline::EventColumn column, Qt::SortOrder order);
    // Selects and scrolls to the event's row, without emitting eventSelected. An event that is
    // not listed clears the selection; one arriving while a query runs is selected after it.
    void selectEvent(std::optional<sightline::EventRef> event);
    void copySelection() const;
    // Asks for a file name and exports the table to it, off the GUI thread.
    void exportCsvInteractively();

signals:
    // The user selected an event's row (click or keyboard).
    void eventSelected(sightline::EventRef event);
    // The user double-clicked an event's row (or pressed Enter): zoom the timeline to it.
    void zoomToEventRequested(sightline::EventRef event);
    // The same on a counter sample's row: zoom the timeline to the sample's time.
    void zoomToRangeRequested(sightline::TimeRange range);
    void busyChanged(bool busy);
    // A query finished and the table shows its rows.
    void rowsShown();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildLayout();
    void connectSignals();
    void startQuery(bool newSource);
    void onRowsReady(std::shared_ptr<const std::vector<EventRef>> rows, const QString& error);
    void onBusyChanged(bool busy);
    void onHeaderClicked(int section);
    void onCurrentRowChanged(int row);
    void applyFilterBox();
    void updateColumnsForSource();
    void updateStatus();
    // Whether a request named tracks or a counter series to list.
    bool hasSource() const;
    void showContextMenu(QPoint position);
    void toggleExpanded(int row);
    void setCurrentRowQuietly(int row);
    // Emits zoomToEventRequested, or zoomToRangeRequested for a counter sample.
    void zoomToRow(int row);

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const EventCells> m_cells;
    EventsTableModel* m_model = nullptr;
    EventQueryRunner* m_runner = nullptr;
    EventsItemDelegate* m_delegate = nullptr;
    QTableView* m_table = nullptr;
    QLabel* m_title = nullptr;
    QLineEdit* m_filter = nullptr;
    QCheckBox* m_regex = nullptr;
    QToolButton* m_export = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_busyLabel = nullptr;
    QProgressBar* m_busy = nullptr;
    QTimer* m_filterDelay = nullptr;

    EventQuery m_query;
    QString m_requestTitle;
    QString m_error;
    size_t m_sourceCount = 0;
    std::optional<EventRef> m_pendingSelection;
    bool m_quiet = false; // selection changes made by the program, not the user
};

} // namespace sightline::views
