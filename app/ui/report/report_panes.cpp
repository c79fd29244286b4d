// The panes under a report tab's timeline (ReportTab's part that hosts them): their table, the
// makers that build each from the trace shown and wire it to the timeline, showing and hiding
// them with the room they take from the timeline, and over the memory budget the pane of one
// track's events read from the file.
#include "app/ui/common/memory_budget.h"
#include "app/ui/report/report_tab.h"
#include "views/callstack/call_stack_view.h"
#include "views/events/events_view.h"
#include "views/expert/expert_view.h"
#include "views/pagedevents/paged_events_view.h"
#include "views/timeline/interaction/navigation.h"
#include "views/timeline/widgets/timeline_view.h"

#include <QSplitter>
#include <QStackedWidget>
#include <QToolButton>

namespace sightline::ui {

namespace {
constexpr int kTrackEventsPercent = 38; // a track's events from the file: the Events View's share
} // namespace

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

void ReportTab::giveTimelineShareTo(QWidget* pane, int pixels)
{
    // The pane takes its room from the timeline, leaving the other panes as they are.
    QList<int> sizes = m_timelineSplit->sizes();
    sizes[0] = std::max(sizes[0] + sizes[m_timelineSplit->indexOf(pane)] - pixels, 1);
    sizes[m_timelineSplit->indexOf(pane)] = pixels;
    m_timelineSplit->setSizes(sizes);
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
