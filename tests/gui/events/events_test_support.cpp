#include "events_test_support.h"

#include "model/trace/event_access.h"

#include <QApplication>
#include <QContextMenuEvent>
#include <QMenu>
#include <QTest>
#include <QTimer>
#include <algorithm>
#include <cctype>

namespace sightline::testing {

std::vector<TrackId> tracksOfKind(const Trace& trace, TrackKind kind)
{
    std::vector<TrackId> tracks;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t)
        if (trace.tracks[t].key.kind == kind) tracks.push_back(TrackId(t));
    return tracks;
}

std::vector<EventRef> allEventsOf(const Trace& trace, const std::vector<TrackId>& tracks)
{
    std::vector<EventRef> events;
    for (TrackId id : tracks)
        for (uint32_t i = 0; i < trace.track(id).size(); ++i)
            events.push_back({id, i});
    return events;
}

std::string nameOf(const Trace& trace, EventRef event)
{
    const Track& track = trace.track(event.track);
    switch (track.key.kind) {
    case TrackKind::Memory:
        return memoryOpName(memoryAt(trace, event).op);
    case TrackKind::Synchronization:
        return syncOpName(syncAt(trace, event).op);
    default:
        return std::string(trace.strings[track.events.name[event.index]]);
    }
}

bool containsCaseless(const std::string& text, const std::string& needle)
{
    auto lower = [](std::string s) {
        std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        return s;
    };
    return lower(text).find(lower(needle)) != std::string::npos;
}

bool waitUntilIdle(const views::EventsView& view, int ms)
{
    return QTest::qWaitFor([&] { return !view.isBusy(); }, ms);
}

bool chooseFromRowMenu(views::RowHeaderPane& pane, int node, const QString& actionText)
{
    const QPoint at = pane.labelRect(node).center();
    bool offered = false;
    QTimer poll;
    poll.setInterval(10);
    QObject::connect(&poll, &QTimer::timeout, &pane, [&] {
        auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
        if (!menu) return;
        poll.stop();
        for (QAction* action : menu->actions())
            if (action->text() == actionText) {
                menu->setActiveAction(action);
                offered = true;
            }
        QTest::keyClick(menu, offered ? Qt::Key_Return : Qt::Key_Escape);
    });
    poll.start();
    QContextMenuEvent event(QContextMenuEvent::Mouse, at, pane.mapToGlobal(at));
    QApplication::sendEvent(&pane, &event);
    poll.stop();
    return offered;
}

} // namespace sightline::testing
