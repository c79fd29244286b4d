// The collector's one entry point for recording: profile(options) runs options.command with the
// injection library, waits for it, merges the spool files of the target and every process it
// started into one Trace, and writes the .rep report. Progress and errors go to stderr, one
// sentence each ("Generated: PATH" at the end); the target's output passes through unchanged.
// Parsing the command line and --stats belong to the CLI (app/cli/cmd_profile.cpp).
#pragma once

#include "collector/launcher/profile_options.h"

#include <string>

namespace sightline::collector {

struct ProfileOutcome
{
    // The target's exit code (128 + the signal for a target a signal ended, as a shell reports
    // it); 127 if it could not start; when no report was written and the target succeeded, 1.
    int exitCode = 0;
    std::string reportPath; // empty when no report was written
};

ProfileOutcome profile(const ProfileOptions& options);

} // namespace sightline::collector
