#include "app/ui/shell/view_menu.h"

#include "app/ui/report/report_tab.h"
#include "app/ui/shell/keyboard_help.h"
#include "views/timeline/widgets/timeline_view.h"

#include <QAction>
#include <QMenu>
#include <QWidget>

namespace sightline::ui {

ViewMenu::ViewMenu(QMenu* menu, QWidget* window)
    : QObject(window)
    , m_window(window)
{
    const auto add = [&](const QString& text, const QKeySequence& keys, const char* objectName) {
        QAction* action = menu->addAction(text);
        action->setShortcut(keys);
        action->setObjectName(QLatin1String(objectName));
        window->addAction(action);
        return action;
    };
    m_zoomToSelection = add(tr("&Zoom to Selection"), QKeySequence(Qt::SHIFT | Qt::Key_Z), "zoomToSelection");
    m_zoomToAll = add(tr("Zoom to &Whole Trace"), QKeySequence(Qt::CTRL | Qt::Key_0), "zoomToAll");
    menu->addSeparator();
    m_back = add(tr("&Back"), QKeySequence(Qt::ALT | Qt::Key_Left), "zoomBack");
    m_forward = add(tr("&Forward"), QKeySequence(Qt::ALT | Qt::Key_Right), "zoomForward");
    menu->addSeparator();
    m_expert = add(tr("&Expert View"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), "expertView");
    m_expert->setCheckable(true);
    menu->addSeparator();
    m_keyboardHelp = add(tr("&Keyboard and Mouse…"), QKeySequence(Qt::Key_F1), "keyboardHelp");

    m_zoomToSelection->setStatusTip(tr("Make the visible range the selected time range"));
    m_zoomToAll->setStatusTip(tr("Show the whole trace"));
    m_back->setStatusTip(tr("Return to the previous visible range"));
    m_forward->setStatusTip(tr("Go forward again in the zoom history"));
    m_expert->setStatusTip(tr("Show or hide the Expert view: what limits the program, and what to do"));

    connect(m_zoomToSelection, &QAction::triggered, this, [this] {
        if (m_timeline) m_timeline->zoomToSelection();
    });
    connect(m_zoomToAll, &QAction::triggered, this, [this] {
        if (m_timeline) m_timeline->zoomToAll();
    });
    connect(m_back, &QAction::triggered, this, [this] {
        if (m_timeline) m_timeline->zoomBack();
    });
    connect(m_forward, &QAction::triggered, this, [this] {
        if (m_timeline) m_timeline->zoomForward();
    });
    connect(m_expert, &QAction::triggered, this, [this](bool checked) {
        if (m_report && checked) m_report->setCurrentView(ReportView::Timeline); // where the pane lives
        if (m_report) m_report->setExpertPaneShown(checked);
        updateEnabled();
    });
    connect(m_keyboardHelp, &QAction::triggered, this, [this] { showKeyboardHelp(m_window); });
    updateEnabled();
}

void ViewMenu::setTimeline(views::TimelineView* timeline)
{
    for (const auto& connection : m_connections)
        disconnect(connection);
    m_connections.clear();
    m_timeline = timeline;
    if (timeline) {
        m_connections.push_back(
            connect(timeline, &views::TimelineView::selectionChanged, this, &ViewMenu::updateEnabled));
        m_connections.push_back(connect(timeline, &QObject::destroyed, this, [this] {
            m_timeline = nullptr;
            m_connections.clear();
            updateEnabled();
        }));
    }
    updateEnabled();
}

void ViewMenu::setReport(ReportTab* report)
{
    for (const auto& connection : m_reportConnections)
        disconnect(connection);
    m_reportConnections.clear();
    m_report = report;
    if (report) {
        m_reportConnections.push_back(
            connect(report, &ReportTab::expertPaneShownChanged, this, &ViewMenu::updateEnabled));
        m_reportConnections.push_back(connect(report, &QObject::destroyed, this, [this] {
            m_report = nullptr;
            m_reportConnections.clear();
            updateEnabled();
        }));
    }
    updateEnabled();
}

void ViewMenu::updateEnabled()
{
    const bool hasTimeline = m_timeline != nullptr;
    m_zoomToSelection->setEnabled(hasTimeline && m_timeline->selection().has_value());
    for (QAction* action : {m_zoomToAll, m_back, m_forward})
        action->setEnabled(hasTimeline);
    m_expert->setEnabled(m_report && m_report->timeline());
    m_expert->setChecked(m_report && m_report->isExpertPaneShown());
}

} // namespace sightline::ui
