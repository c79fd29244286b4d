// sightline-ui --screenshot: loads one report (or with --overview only its overview) on the
// calling thread, lays out the main window at the requested size without putting it on
// screen, applies the requested visible range and writes the window to a PNG. Invariant: the
// PNG is exactly the requested size in pixels, whatever the screen's device pixel ratio, and
// no QSettings are read or written.
#pragma once

#include "app/ui/shell/shell_options.h"

#include <QImage>

class QWidget;

namespace sightline::ui {

// The process exit code: 0, or 1 after printing the one-sentence error to stderr.
int runScreenshot(const ScreenshotOptions& options);

// Renders `widget` (laid out, shown or not) into an image of its size at device pixel ratio 1.
QImage renderWidget(QWidget& widget);

} // namespace sightline::ui
