// Shared set-up of the shell's GUI tests (the QApplication comes from tests/gui/gui_test_main.cpp):
// QSettings redirected to a scratch folder so the user's settings are never touched, generated
// reports written to disk, and waiting on the event loop.
#pragma once

#include <QString>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

class QApplication;
class QMessageBox;
class QWidget;

namespace sightline::test {

// The process's QApplication; the first call points QSettings at a scratch folder of this
// process. Every test calls it before making a window.
QApplication& guiApp();

// A fresh scratch folder for one test (under the build tree).
std::filesystem::path guiScratch(const std::string& testName);

// Writes a generated report of exactly `events` events to `folder/name` and returns its path.
QString writeGeneratedReport(
    const std::filesystem::path& folder, const std::string& name, uint64_t events, uint64_t seed = 1);

// Writes `text` to `folder/name` (for files that are not reports).
QString writeTextFile(const std::filesystem::path& folder, const std::string& name, const std::string& text);

// Runs the event loop until `done` holds or `timeoutMs` passes; returns done().
bool waitUntil(const std::function<bool()>& done, int timeoutMs = 30000);

// The load-error dialog shown by `window`, once one is up (nullptr after `timeoutMs`).
QMessageBox* waitForErrorDialog(QWidget& window, int timeoutMs = 30000);

} // namespace sightline::test
