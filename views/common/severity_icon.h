// The icon the views show beside something of a severity (a diagnostic, an analysis finding):
// the style's information, warning and error message box icons.
#pragma once

#include "model/core/metadata.h"

#include <QIcon>

class QStyle;

namespace sightline::views {

QIcon severityIcon(const QStyle* style, Severity severity);

} // namespace sightline::views
