// The one argument scanner of every `sightline` command, and small helpers they share.
//
// A command declares its options (long name, optional one-letter alias, whether it takes a
// value) and scans its arguments once. Accepted spellings, as in Nsight Systems' `nsys`:
// `--name=V`, `--name V`, `-x V`, `-xV`, `-x=V`; a flag alone means true and also takes
// `--flag=true|false` (1/0, yes/no). `--` ends the options. Commands whose last arguments are
// another program's command line (`profile`) also end the options at the first positional
// argument, so the program's own options are left alone. Errors are one sentence naming the
// argument; the caller adds the command's name (usageError).
#pragma once

#include "model/common/result.h"
#include "model/format/report_io.h"
#include "model/trace/trace.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::cli {

struct OptionSpec
{
    std::string_view name; // without "--"
    std::string_view shortName; // one letter without "-"; empty when none
    bool takesValue = false; // false: a flag
};

enum class OptionsEnd {
    AtDoubleDash, // options and positional arguments mix; only `--` ends the options
    AtFirstPositional, // the first positional argument and everything after it are positional
};

// One option as given, in command-line order; a flag's value is "true" or "false".
struct GivenOption
{
    std::string_view name;
    std::string value;
};

class Args
{
public:
    static Result<Args> scan(
        const std::vector<std::string>& arguments, std::span<const OptionSpec> specs, OptionsEnd end);

    // True when the flag was given and its last value is true.
    bool flag(std::string_view name) const;
    // The last value given for the option, if any.
    std::optional<std::string> value(std::string_view name) const;
    const std::vector<GivenOption>& given() const { return m_given; }
    const std::vector<std::string>& positional() const { return m_positional; }

private:
    std::vector<GivenOption> m_given;
    std::vector<std::string> m_positional;
};

// "true", "1", "yes" / "false", "0", "no"; anything else is no boolean.
std::optional<bool> parseBool(std::string_view text);

// Opens any trace file the model can read (.rep, nsys SQLite, PyTorch JSON), chosen by content;
// prints the error sentence to stderr on failure. `select` says what of a .rep to decode.
std::optional<Trace> openTraceOrReport(const std::string& path, const DecodeSelection& select = {});

// A usage error of `sightline COMMAND`: prints "sightline COMMAND: SENTENCE. Run 'sightline
// COMMAND --help' for usage." to stderr and returns the exit code 2.
int usageError(std::string_view command, std::string sentence);

} // namespace sightline::cli
