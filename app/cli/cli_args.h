// Small helpers shared by the CLI commands: option parsing in the `--name=value` /
// `--name value` / `-x value` styles, and opening a trace with the one-sentence error.
#pragma once

#include "model/common/result.h"
#include "model/text/time_text.h"
#include "model/trace/trace.h"

#include <optional>
#include <string>
#include <vector>

namespace sightline::cli {

class Args
{
public:
    explicit Args(std::vector<std::string> args)
        : m_args(std::move(args))
    { }

    // True if --name (or the short alias) is present; removes it.
    bool flag(std::string_view name, std::string_view shortName = {});
    // The value of --name=V, --name V or -s V; removes it. Missing value: error() is set.
    std::optional<std::string> option(std::string_view name, std::string_view shortName = {});
    // What remains once options are taken: positional arguments. An unknown option sets error().
    std::vector<std::string> positional();
    const std::string& error() const { return m_error; }

private:
    std::vector<std::string> m_args;
    std::string m_error;
};

// Opens any trace file the model can read (.rep, nsys SQLite, PyTorch JSON), chosen by content;
// prints the error sentence to stderr on failure.
std::optional<Trace> openTraceOrReport(const std::string& path);

// A usage error of `sightline COMMAND`: prints "sightline COMMAND: SENTENCE. Run 'sightline
// COMMAND --help' for usage." to stderr and returns the exit code 2.
int usageError(std::string_view command, std::string sentence);

} // namespace sightline::cli
