// Every key the timeline answers to, in one table: the key handler matches events against
// it and the keyboard help dialog (F1) lists it, so the two cannot drift apart. Mouse
// gestures are listed beside the keys for the dialog.
#pragma once

#include <QKeyEvent>
#include <QString>
#include <optional>
#include <vector>

namespace sightline::views {

enum class TimelineAction : uint8_t {
    ZoomIn,
    ZoomOut,
    PanLeft,
    PanRight,
    ScrollUp,
    ScrollDown,
    PageUp,
    PageDown,
    ZoomToSelection,
    ZoomToEvent,
    ZoomBack,
    ZoomForward,
    ZoomToAll,
    ClearSelection,
    Find,
    FindNext,
    FindPrevious,
    CopyTooltip,
    TallerRows,
    ShorterRows,
    ExpandAll,
    CollapseAll,
    KeyboardHelp,
};

struct KeyBinding
{
    TimelineAction action;
    int key;
    Qt::KeyboardModifiers modifiers;
};

struct HelpEntry
{
    QString keys; // "Shift+Z"
    QString meaning; // "Zoom to the selected time range"
};

const std::vector<KeyBinding>& keyBindings();
// The action bound to a key press, if any.
std::optional<TimelineAction> actionFor(const QKeyEvent& event);
// What an action does, in a few words.
QString describe(TimelineAction action);
// The key and mouse lines of the help dialog, in display order.
std::vector<HelpEntry> keyboardHelp();
std::vector<HelpEntry> mouseHelp();

} // namespace sightline::views
