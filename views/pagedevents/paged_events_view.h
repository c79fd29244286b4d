// The Events View of one track of a report too large to hold in memory (the viewer's memory
// budget): its events are never all decoded at once. The order is computed from the report a
// batch at a time (track_event_order.h), off the GUI thread with its progress and a Cancel
// button, and only the page of rows around what the table shows is read (TrackPager::gather),
// again off the GUI thread, whenever the table scrolls past it. The table holds a window of the
// listing (paged_events_model.h explains why); a scroll bar beside it spans the whole listing,
// and the window moves wherever it or the table's own scrolling goes. So sorting a 200M-event track
// by duration keeps the window live, and takes the listed events' 4 bytes each, plus 16 while
// sorting, not the 36 their events would.
//
// It lists the whole track (the report's, not a loaded range); a name filter (substring or
// regular expression) and an order by Start, Duration or End apply to it, a header click
// choosing the order as in the Events View (measures largest first). Double-click or Enter on a
// row asks to show the event's time on the timeline. Invariant: the newest order and the newest
// page win; older ones are cancelled and their results dropped.
#pragma once

#include "views/common/latest_request.h"
#include "views/pagedevents/paged_events_model.h"
#include "views/pagedevents/track_event_order.h"

#include <QWidget>
#include <atomic>
#include <memory>

class QCheckBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QScrollBar;
class QTableView;
class QTimer;
class QToolButton;

namespace sightline::views {

class PagedEventsView : public QWidget
{
    Q_OBJECT
public:
    // Lists the track of `opened` (TrackPager::open) in start order. An order that would take
    // more than `memoryBudget` bytes is refused with a sentence.
    PagedEventsView(OpenedTrack opened, uint64_t memoryBudget, QWidget* parent = nullptr);
    ~PagedEventsView() override;

    const TrackPager& pager() const { return *m_pager; }
    const TrackOrderRequest& request() const { return m_request; }
    bool isBusy() const { return m_orderWork.isBusy(); }
    size_t listedCount() const { return m_model->listedCount(); }
    // Memory the listing holds now: the listed rows and the page.
    uint64_t residentBytes() const;
    QString statusText() const;
    PagedEventsModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QLineEdit* filterEdit() const { return m_filter; }
    // Whether every row the table shows has its event read.
    bool showsPage() const;
    // The first and last positions in the listing the table shows.
    std::pair<size_t, size_t> shownPositions() const;
    // Scrolls the listing so that `position` is at the top (moving the table's window there).
    void scrollToPosition(size_t position);

public slots:
    void sortBy(sightline::EventColumn column, Qt::SortOrder order);
    void setNameFilter(const QString& pattern, bool regex = false);
    // Stops the order being computed; the rows shown stay.
    void cancel();

signals:
    void busyChanged(bool busy);
    // An order finished and the table lists it.
    void rowsShown();
    // The rows on screen have their events.
    void pageShown();
    // Double-click or Enter on a row: show the event's time on the timeline.
    void zoomToRangeRequested(sightline::TimeRange range);
    void closeRequested();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildLayout();
    void startOrder();
    void onOrdered(TrackOrder order, bool newest);
    void readVisiblePage();
    void onTableScrolled();
    void updateScrollRange();
    size_t screenRows() const;
    void onHeaderClicked(int section);
    void updateProgress();
    void updateStatus();

    std::shared_ptr<const TrackPager> m_pager;
    uint64_t m_memoryBudget = 0;
    TrackOrderRequest m_request;
    QString m_error;
    PagedEventsModel* m_model = nullptr;
    QLabel* m_title = nullptr;
    QLineEdit* m_filter = nullptr;
    QCheckBox* m_regex = nullptr;
    QToolButton* m_close = nullptr;
    QTableView* m_table = nullptr;
    QScrollBar* m_scroll = nullptr; // over the whole listing; the table's own one is hidden
    bool m_movingWindow = false;
    QLabel* m_status = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancel = nullptr;
    QTimer* m_filterDelay = nullptr;
    QTimer* m_progressPoll = nullptr;
    // The reading's progress, written by the worker and polled on the GUI thread.
    std::shared_ptr<std::atomic<uint64_t>> m_batchesRead = std::make_shared<std::atomic<uint64_t>>(0);
    LatestRequest m_orderWork {this};
    LatestRequest m_pageWork {this};
};

} // namespace sightline::views
