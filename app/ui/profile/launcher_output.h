// Reading what `sightline profile` prints. The target's stdout and stderr pass through the
// launcher unchanged, so its stderr mixes the target's lines with the launcher's own: the
// "Collecting data..." / "Processing N events..." / "Generated: PATH" progress lines and the
// "sightline profile: ..." problem sentences. classifyLauncherLine tells them apart; any other
// stderr line is the target's.
//
// Live progress: the Profile dialog starts the launcher with SIGHTLINE_PROGRESS_INTERVAL=1 in
// its environment; a launcher that honours it prints, about once per interval while the target
// runs, a line of exactly this form:
//     Collecting data: 12.5 s, 34567 events so far
// (elapsed seconds since the target started, events recorded so far). Without such lines the
// dialog shows its own elapsed time and the event count of the "Processing" line.
#pragma once

#include <QString>

namespace sightline::ui {

struct LauncherLine
{
    enum class Kind {
        TargetOutput, // not the launcher's
        Collecting, // "Collecting data..." (collection started)
        Progress, // the periodic line: elapsedSeconds, events
        Processing, // "Processing N events from M process recording(s)...": events
        Generated, // "Generated: PATH": reportPath
        Problem, // "sightline profile: ..." (an error or a warning)
    };
    Kind kind = Kind::TargetOutput;
    double elapsedSeconds = -1;
    qint64 events = -1;
    QString reportPath;
};

// `line` is one stderr line without its newline.
LauncherLine classifyLauncherLine(const QString& line);

// The environment variable that asks the launcher for the periodic progress line.
inline constexpr const char* kProgressIntervalVariable = "SIGHTLINE_PROGRESS_INTERVAL";

} // namespace sightline::ui
