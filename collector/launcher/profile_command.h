// `sightline profile [options] [--] COMMAND [ARGS...]`: runs COMMAND with the injection
// library, waits for it, merges the spool files of the target and every process it started
// into one Trace, and writes the .rep report. Progress goes to stderr ("Generated: PATH" at
// the end); the target's output and exit code pass through unchanged (a target ended by a
// signal gives 128 + the signal, as a shell reports it). Usage errors return 2.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace sightline::collector {

// Prints the summary tables of a written report (`--stats`); returns an exit code. The CLI
// passes its `stats` command here, keeping the collector free of the app layer.
using StatsPrinter = std::function<int(const std::string& reportPath)>;

int runProfile(std::vector<std::string> args, const StatsPrinter& printStats = {});

} // namespace sightline::collector
