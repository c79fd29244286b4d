// The CLI's subcommands. Each takes its arguments (after the command name) and returns the
// process exit code; usage errors print one sentence and return 2, bad input returns 1.
#pragma once

#include <string>
#include <vector>

namespace sightline::cli {

int runInfo(const std::vector<std::string>& args);
int runStats(const std::vector<std::string>& args);
int runAnalyze(const std::vector<std::string>& args);
int runExport(const std::vector<std::string>& args);
int runImport(const std::vector<std::string>& args);
// Only in builds with the collector (SIGHTLINE_WITH_COLLECTOR).
int runProfile(const std::vector<std::string>& args);

} // namespace sightline::cli
