// Checks behind the Profile dialog's inline messages, and where the collector lives. The
// `sightline` command-line tool is looked for next to the running sightline-ui (both are
// installed in the same bin folder, and sit in the same build folder); the injection library
// is looked for where `sightline profile` itself looks (collector/launcher/inject_environment.cpp:
// SIGHTLINE_INJECT_LIBRARY, then ../lib/sightline/, ../lib/ and its own folder). Invariant:
// every problem is one sentence naming the file or folder and what to do.
#pragma once

#include "app/ui/profile/profile_settings.h"

#include <QString>

namespace sightline::ui {

// The `sightline` executable next to this program ("" when absent). SIGHTLINE_CLI overrides.
QString findSightlineExecutable();

// libsightline-inject.so as `sightline` at `sightlinePath` would find it ("" when absent);
// `searched` lists the places looked at.
QString findCollectorLibrary(const QString& sightlinePath, QString* searched = nullptr);

// The program `settings.executable` names: a path (relative ones from the working directory)
// or a name looked up in PATH. "" when it cannot be found.
QString resolveExecutable(const ProfileSettings& settings);

// The problems, one per field ("" when the field is fine). `blocking()` is true when Start
// must stay disabled; outputWarning never blocks.
struct ProfileProblems
{
    QString executable;
    QString workingDirectory;
    QString environment;
    QString trace;
    QString capture;
    QString output;
    QString outputWarning; // e.g. the report exists and will be replaced
    QString collector;

    bool blocking() const;
    QStringList all() const; // the blocking ones, in the order of the fields
};

ProfileProblems checkProfileSettings(const ProfileSettings& settings, const QString& sightlinePath);

} // namespace sightline::ui
