// The application icon: a dark rounded tile with three timeline rows of coloured event bars
// crossed by a vertical cursor line (the "sight line"). Painted in code at each standard size
// so that it stays sharp at any device pixel ratio; resources/icons/sightline.svg is the same
// drawing for desktop integration.
#pragma once

#include <QIcon>

namespace sightline::ui {

QIcon appIcon();

} // namespace sightline::ui
