#include "views/timeline/interaction/timeline_keys.h"

#include <QKeySequence>
#include <algorithm>

namespace sightline::views {
namespace {

using A = TimelineAction;

// Keys typed with Shift on some layouts ("+", "?", "_"): Shift is ignored when matching them.
bool isShiftedSymbol(int key)
{
    return key == Qt::Key_Plus || key == Qt::Key_Question || key == Qt::Key_Underscore || key == Qt::Key_Equal
        || key == Qt::Key_Minus;
}

QString keyText(const KeyBinding& binding)
{
    return QKeySequence(QKeyCombination(binding.modifiers, Qt::Key(binding.key)))
        .toString(QKeySequence::NativeText);
}

} // namespace

const std::vector<KeyBinding>& keyBindings()
{
    static const std::vector<KeyBinding> bindings = {
        {A::ZoomIn, Qt::Key_Plus, Qt::NoModifier},
        {A::ZoomIn, Qt::Key_Equal, Qt::NoModifier},
        {A::ZoomIn, Qt::Key_W, Qt::NoModifier},
        {A::ZoomOut, Qt::Key_Minus, Qt::NoModifier},
        {A::ZoomOut, Qt::Key_S, Qt::NoModifier},
        {A::PanLeft, Qt::Key_Left, Qt::NoModifier},
        {A::PanLeft, Qt::Key_A, Qt::NoModifier},
        {A::PanRight, Qt::Key_Right, Qt::NoModifier},
        {A::PanRight, Qt::Key_D, Qt::NoModifier},
        {A::ScrollUp, Qt::Key_Up, Qt::NoModifier},
        {A::ScrollDown, Qt::Key_Down, Qt::NoModifier},
        {A::PageUp, Qt::Key_PageUp, Qt::NoModifier},
        {A::PageDown, Qt::Key_PageDown, Qt::NoModifier},
        {A::ZoomToSelection, Qt::Key_Z, Qt::ShiftModifier},
        {A::ZoomToEvent, Qt::Key_Z, Qt::NoModifier},
        {A::ZoomBack, Qt::Key_Backspace, Qt::NoModifier},
        {A::ZoomBack, Qt::Key_Left, Qt::AltModifier},
        {A::ZoomForward, Qt::Key_Backspace, Qt::ShiftModifier},
        {A::ZoomForward, Qt::Key_Right, Qt::AltModifier},
        {A::ZoomToAll, Qt::Key_Home, Qt::NoModifier},
        {A::ZoomToAll, Qt::Key_0, Qt::ControlModifier},
        {A::ClearSelection, Qt::Key_Escape, Qt::NoModifier},
        {A::Find, Qt::Key_F, Qt::ControlModifier},
        {A::FindNext, Qt::Key_F3, Qt::NoModifier},
        {A::FindPrevious, Qt::Key_F3, Qt::ShiftModifier},
        {A::CopyTooltip, Qt::Key_C, Qt::ControlModifier},
        {A::TallerRows, Qt::Key_Up, Qt::ControlModifier},
        {A::ShorterRows, Qt::Key_Down, Qt::ControlModifier},
        {A::ExpandAll, Qt::Key_Asterisk, Qt::NoModifier},
        {A::CollapseAll, Qt::Key_Slash, Qt::NoModifier},
        {A::KeyboardHelp, Qt::Key_F1, Qt::NoModifier},
        {A::KeyboardHelp, Qt::Key_Question, Qt::NoModifier},
    };
    return bindings;
}

std::optional<TimelineAction> actionFor(const QKeyEvent& event)
{
    const Qt::KeyboardModifiers relevant
        = Qt::ShiftModifier | Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier;
    const Qt::KeyboardModifiers pressed = event.modifiers() & relevant;
    for (const KeyBinding& binding : keyBindings()) {
        if (binding.key != event.key()) continue;
        Qt::KeyboardModifiers wanted = binding.modifiers;
        Qt::KeyboardModifiers have = pressed;
        if (isShiftedSymbol(binding.key)) {
            wanted &= ~Qt::ShiftModifier;
            have &= ~Qt::ShiftModifier;
        }
        if (wanted == have) return binding.action;
    }
    return std::nullopt;
}

QString describe(TimelineAction action)
{
    switch (action) {
    case A::ZoomIn:
        return QStringLiteral("Zoom in (around the mouse when it is over the timeline)");
    case A::ZoomOut:
        return QStringLiteral("Zoom out");
    case A::PanLeft:
        return QStringLiteral("Pan left");
    case A::PanRight:
        return QStringLiteral("Pan right");
    case A::ScrollUp:
        return QStringLiteral("Scroll rows up");
    case A::ScrollDown:
        return QStringLiteral("Scroll rows down");
    case A::PageUp:
        return QStringLiteral("Scroll rows up one page");
    case A::PageDown:
        return QStringLiteral("Scroll rows down one page");
    case A::ZoomToSelection:
        return QStringLiteral("Zoom to the selected time range");
    case A::ZoomToEvent:
        return QStringLiteral("Zoom to the selected event");
    case A::ZoomBack:
        return QStringLiteral("Back to the previous zoom");
    case A::ZoomForward:
        return QStringLiteral("Forward to the next zoom");
    case A::ZoomToAll:
        return QStringLiteral("Show the whole trace");
    case A::ClearSelection:
        return QStringLiteral("Clear the selected range and event; close Find");
    case A::Find:
        return QStringLiteral("Find events by name (text or regular expression)");
    case A::FindNext:
        return QStringLiteral("Next match");
    case A::FindPrevious:
        return QStringLiteral("Previous match");
    case A::CopyTooltip:
        return QStringLiteral("Copy the selected event's tooltip");
    case A::TallerRows:
        return QStringLiteral("Taller rows");
    case A::ShorterRows:
        return QStringLiteral("Shorter rows");
    case A::ExpandAll:
        return QStringLiteral("Expand all rows");
    case A::CollapseAll:
        return QStringLiteral("Collapse all rows");
    case A::KeyboardHelp:
        return QStringLiteral("This list of keys");
    }
    return {};
}

std::vector<HelpEntry> keyboardHelp()
{
    std::vector<HelpEntry> entries;
    for (const KeyBinding& binding : keyBindings()) {
        const QString keys = keyText(binding);
        auto same = std::find_if(entries.begin(), entries.end(),
            [&](const HelpEntry& e) { return e.meaning == describe(binding.action); });
        if (same != entries.end())
            same->keys += QStringLiteral(", ") + keys;
        else
            entries.push_back({keys, describe(binding.action)});
    }
    return entries;
}

std::vector<HelpEntry> mouseHelp()
{
    return {
        {QStringLiteral("Ctrl+Wheel"), QStringLiteral("Zoom around the mouse (the time under it stays put)")},
        {QStringLiteral("Wheel"), QStringLiteral("Scroll rows")},
        {QStringLiteral("Shift+Wheel"), QStringLiteral("Pan in time")},
        {QStringLiteral("Drag on the ruler, middle-drag"), QStringLiteral("Pan in time")},
        {QStringLiteral("Drag on the timeline"),
            QStringLiteral("Select a time range (its duration is shown)")},
        {QStringLiteral("Click an event"),
            QStringLiteral("Select it and highlight its correlated API call or GPU work")},
        {QStringLiteral("Click an arrow at the edge"), QStringLiteral("Go to a correlated event off screen")},
        {QStringLiteral("Double-click an event"), QStringLiteral("Zoom to it")},
        {QStringLiteral("Right-click"), QStringLiteral("Copy tooltip, zoom, expand or collapse rows")},
        {QStringLiteral("Click \u25b8 / \u25be, double-click a row name"),
            QStringLiteral("Expand or collapse a row")},
    };
}

} // namespace sightline::views
