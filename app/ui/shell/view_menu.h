// The View menu: the timeline's navigation (zoom to selection, back, forward, whole trace), the
// Expert pane of the current tab (checked while shown) and the keyboard help, as window-wide
// actions delegated to the current tab's TimelineView and ReportTab.
// Invariant: every action acts on the TimelineView last given to setTimeline and is disabled
// when there is none (Zoom to Selection also while nothing is selected; Expert View while no
// report is loaded). The shortcuts are keys
// of the timeline's own table (views/timeline/interaction/timeline_keys.h); the window-wide action takes the
// key first and calls the same TimelineView function the timeline's key handler would.
#pragma once

#include <QObject>
#include <vector>

class QAction;
class QMenu;
class QWidget;

namespace sightline::views {
class TimelineView;
}

namespace sightline::ui {

class ReportTab;

class ViewMenu : public QObject
{
    Q_OBJECT
public:
    // Fills `menu`; `window` receives the actions so that their shortcuts work window-wide.
    ViewMenu(QMenu* menu, QWidget* window);

    void setTimeline(views::TimelineView* timeline); // nullptr: no report shown
    void setReport(ReportTab* report); // nullptr: no report shown

    QAction* zoomToSelectionAction() const { return m_zoomToSelection; }
    QAction* backAction() const { return m_back; }
    QAction* forwardAction() const { return m_forward; }
    QAction* zoomToAllAction() const { return m_zoomToAll; }
    QAction* keyboardHelpAction() const { return m_keyboardHelp; }
    QAction* expertAction() const { return m_expert; }

private:
    void updateEnabled();

    QWidget* m_window;
    views::TimelineView* m_timeline = nullptr;
    std::vector<QMetaObject::Connection> m_connections;
    ReportTab* m_report = nullptr;
    std::vector<QMetaObject::Connection> m_reportConnections;
    QAction* m_zoomToSelection;
    QAction* m_back;
    QAction* m_forward;
    QAction* m_zoomToAll;
    QAction* m_keyboardHelp;
    QAction* m_expert;
};

} // namespace sightline::ui
