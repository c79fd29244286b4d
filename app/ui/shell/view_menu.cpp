#include "app/ui/shell/view_menu.h"

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
    m_keyboardHelp = add(tr("&Keyboard and Mouse…"), QKeySequence(Qt::Key_F1), "keyboardHelp");

    m_zoomToSelection->setStatusTip(tr("Make the visible range the selected time range"));
    m_zoomToAll->setStatusTip(tr("Show the whole trace"));
    m_back->setStatusTip(tr("Return to the previous visible range"));
    m_forward->setStatusTip(tr("Go forward again in the zoom history"));

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

void ViewMenu::updateEnabled()
{
    const bool hasTimeline = m_timeline != nullptr;
    m_zoomToSelection->setEnabled(hasTimeline && m_timeline->selection().has_value());
    for (QAction* action : {m_zoomToAll, m_back, m_forward})
        action->setEnabled(hasTimeline);
}

} // namespace sightline::ui
