// ReportTab's Events View of one track read from the file (views/pagedevents), for a report over
// the memory budget: opened from a row's "Show in Events View", kept while the overview and
// loaded ranges replace the page, closed by its own button.
#include "app/ui/common/memory_budget.h"
#include "app/ui/shell/report_tab.h"
#include "model/format/paging/track_pager.h"
#include "views/pagedevents/paged_events_view.h"
#include "views/timeline/widgets/timeline_view.h"

#include <QSplitter>

namespace sightline::ui {

namespace {
constexpr int kTrackEventsPercent = 38; // the pane's first share of the tab's height, as the Events View's
} // namespace

void ReportTab::showTrackEventsFromFile(const std::vector<TrackId>& tracks)
{
    if (!m_overview || !m_overview->batches || tracks.empty()) return;
    // One track at a time: the row's largest (a stream row holds kernels, copies and syncs).
    const ReportOverview& overview = *m_overview->batches;
    TrackId largest = tracks.front();
    for (TrackId track : tracks)
        if (overview.trackEvents(track.value) > overview.trackEvents(largest.value)) largest = track;
    if (m_trackEvents && m_trackEventsTrack == largest.value) {
        m_trackEvents->show();
        return;
    }
    // Opening reads the report's strings and descriptors, which grow with it.
    m_trackOpening.start([path = m_path.toStdString(), track = largest.value](
                             const std::atomic<bool>&) { return TrackPager::open(path, track); },
        [this, track = largest.value](Result<OpenedTrack> opened, bool newest) {
            if (!newest) return;
            if (!opened) {
                setOverviewLine(QString::fromStdString(opened.error()), false);
                return;
            }
            closeTrackEvents();
            m_trackEvents = new views::PagedEventsView(std::move(opened.value()), memoryBudget(), this);
            m_trackEvents->setObjectName(QStringLiteral("trackEventsView"));
            m_trackEventsTrack = track;
            connect(
                m_trackEvents, &views::PagedEventsView::closeRequested, this, &ReportTab::closeTrackEvents);
            connect(
                m_trackEvents, &views::PagedEventsView::zoomToRangeRequested, this, [this](TimeRange range) {
                    // The event's time, selected: an overview cannot select the event itself.
                    showOnTimeline(range, std::nullopt);
                    m_timeline->setSelection(range);
                });
            placeTrackEvents();
        });
}

void ReportTab::placeTrackEvents()
{
    if (!m_trackEvents || !m_timelineSplit) return;
    setCurrentView(ReportView::Timeline);
    m_timelineSplit->addWidget(m_trackEvents);
    m_timelineSplit->setStretchFactor(m_timelineSplit->indexOf(m_trackEvents), 0);
    m_trackEvents->show();
    giveTimelineShareTo(m_trackEvents, kTrackEventsPercent);
}

void ReportTab::closeTrackEvents()
{
    if (!m_trackEvents) return;
    m_trackEvents->hide();
    m_trackEvents->deleteLater();
    m_trackEvents = nullptr;
}

} // namespace sightline::ui
