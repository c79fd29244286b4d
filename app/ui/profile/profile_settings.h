// What the Profile dialog collects, turned into a `sightline profile` command line, and
// remembered per executable in QSettings ("profile/<hash of the path>/..."). Invariants:
// launcherArguments() always ends with "--", the program and its arguments, so no argument of
// the target is ever read as a launcher option; load(save(s)) gives back s.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace sightline::ui {

struct EnvironmentVariable
{
    QString name;
    QString value;
    bool operator==(const EnvironmentVariable&) const = default;
};

enum class CaptureRange { None, CudaProfilerApi, NvtxRange };

struct ProfileSettings
{
    QString executable; // as typed: a path, or a name found in PATH
    QString arguments; // one line, split like a shell does (quotes and backslashes; no expansion)
    QString workingDirectory; // empty: the executable's folder
    QList<EnvironmentVariable> environment;
    bool traceCuda = true;
    bool traceNvtx = true;
    bool traceOsrt = true;
    qint64 osrtThresholdNs = 1000;
    CaptureRange captureRange = CaptureRange::None;
    QString nvtxRange; // RANGE or RANGE@DOMAIN, for CaptureRange::NvtxRange
    double delaySeconds = 0; // 0: start at once
    double durationSeconds = 0; // 0: until the program ends
    QString outputFile; // empty: <working directory>/<program>_N.rep, the first free N

    bool operator==(const ProfileSettings&) const = default;

    QString traceList() const; // "cuda,nvtx,osrt" or "none"
    QStringList argumentList() const; // `arguments` split into words

    // The folder the program runs in: workingDirectory, else the executable's folder.
    QString effectiveWorkingDirectory() const;
    // The report path: outputFile (relative paths from the working directory), else the first
    // free <working directory>/<program>_N.rep.
    QString effectiveOutputFile() const;

    // `sightline profile` arguments (without the program name "sightline"). `overwrite` adds
    // --force-overwrite for an output the user agreed to replace.
    QStringList launcherArguments(bool overwrite) const;
};

// QSettings: the last settings used for `executable` (defaults, with the executable, when none).
ProfileSettings loadProfileSettings(const QString& executable);
bool hasProfileSettings(const QString& executable);
void saveProfileSettings(const ProfileSettings& settings);
// The executable of the last profiling run, "" when none.
QString lastProfiledExecutable();

} // namespace sightline::ui
