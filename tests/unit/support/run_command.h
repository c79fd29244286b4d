// Runs a command line through /bin/sh and captures its standard output, standard error and
// exit code: for end-to-end tests of the CLI binaries.
#pragma once

#include <string>

namespace sightline::test {

struct CommandResult
{
    int exitCode = -1;
    std::string out;
    std::string err;
};

CommandResult runCommand(const std::string& commandLine);

// Quotes a word for /bin/sh.
std::string shellQuote(const std::string& word);

} // namespace sightline::test
