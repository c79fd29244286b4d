// The keyboard help (F1): one window listing every key and mouse gesture of the viewer: the
// shell's own (open, close, reload, tabs) and the timeline's, taken from the timeline's key
// table (views/timeline/interaction/timeline_keys.h) so the list cannot drift from what the keys do.
// Invariant: at most one help window per main window; asking again raises it.
#pragma once

#include "views/timeline/interaction/timeline_keys.h"

#include <vector>

class QWidget;

namespace sightline::ui {

struct HelpGroup
{
    QString title;
    std::vector<views::HelpEntry> entries;
};

// What the help window lists: the shell's keys, then the timeline's keys and mouse gestures.
std::vector<HelpGroup> keyboardHelpGroups();

// Shows (or raises) the help window owned by `parent`.
void showKeyboardHelp(QWidget* parent);

} // namespace sightline::ui
