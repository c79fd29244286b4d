// The View menu and the keyboard help: each window-wide shortcut is a key the timeline itself
// binds to the same action, and F1 lists the shell's keys together with the timeline's.
#include "app/ui/shell/keyboard_help.h"
#include "app/ui/shell/main_window.h"
#include "app/ui/shell/view_menu.h"
#include "shell_test_support.h"

#include <QAction>
#include <QDialog>
#include <QTreeWidget>
#include <catch2/catch.hpp>

using namespace sightline;

namespace {

bool timelineBinds(const QKeySequence& sequence, views::TimelineAction action)
{
    for (const views::KeyBinding& binding : views::keyBindings()) {
        if (binding.action == action
            && QKeySequence(QKeyCombination(binding.modifiers, Qt::Key(binding.key))) == sequence)
            return true;
    }
    return false;
}

} // namespace

TEST_CASE("every View menu shortcut is the timeline's own key for that action")
{
    test::guiApp();
    ui::MainWindow window;
    const ui::ViewMenu& menu = *window.viewMenu();
    const std::pair<QAction*, views::TimelineAction> pairs[] = {
        {menu.zoomToSelectionAction(), views::TimelineAction::ZoomToSelection},
        {menu.zoomToAllAction(), views::TimelineAction::ZoomToAll},
        {menu.backAction(), views::TimelineAction::ZoomBack},
        {menu.forwardAction(), views::TimelineAction::ZoomForward},
        {menu.keyboardHelpAction(), views::TimelineAction::KeyboardHelp},
    };
    for (const auto& [action, timelineAction] : pairs) {
        INFO(action->objectName().toStdString() << " " << action->shortcut().toString().toStdString());
        REQUIRE_FALSE(action->shortcut().isEmpty());
        CHECK(timelineBinds(action->shortcut(), timelineAction));
    }
}

TEST_CASE("F1 help lists the shell's keys and the timeline's, in one window")
{
    test::guiApp();
    ui::MainWindow window;
    window.viewMenu()->keyboardHelpAction()->trigger();
    auto* dialog = window.findChild<QDialog*>(QStringLiteral("keyboardHelpDialog"));
    REQUIRE(dialog != nullptr);
    auto* list = dialog->findChild<QTreeWidget*>();
    REQUIRE(list != nullptr);
    QStringList lines;
    for (int i = 0; i < list->topLevelItemCount(); ++i)
        lines.append(list->topLevelItem(i)->text(0) + QStringLiteral(" | ") + list->topLevelItem(i)->text(1));
    const QString all = lines.join(QLatin1Char('\n'));
    INFO(all.toStdString());
    CHECK(all.contains(QStringLiteral("Ctrl+O")));
    CHECK(all.contains(QStringLiteral("Ctrl+W")));
    CHECK(all.contains(QStringLiteral("Shift+Z")));
    CHECK(all.contains(QStringLiteral("Ctrl+Wheel")));

    // Asking again raises the same window rather than opening a second one.
    window.viewMenu()->keyboardHelpAction()->trigger();
    CHECK(window.findChildren<QDialog*>(QStringLiteral("keyboardHelpDialog")).size() == 1);
}
