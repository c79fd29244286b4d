#include "app/cli/cli_args.h"

#include "model/import/open_trace.h"

#include <cstdio>
#include <iostream>

namespace sightline::cli {
namespace {

// True when `arg` is `dashes` followed by exactly `name`.
bool spelled(std::string_view arg, std::string_view dashes, std::string_view name)
{
    return !name.empty() && arg.starts_with(dashes) && arg.substr(dashes.size()) == name;
}

bool matches(std::string_view arg, std::string_view name, std::string_view shortName)
{
    return spelled(arg, "--", name) || spelled(arg, "-", shortName);
}

// The value of "--name=value", or no value when `arg` is not spelled that way.
std::optional<std::string> inlineValue(std::string_view arg, std::string_view name)
{
    if (!arg.starts_with("--") || arg.substr(2, name.size()) != name || arg.size() <= 2 + name.size()
        || arg[2 + name.size()] != '=')
        return std::nullopt;
    return std::string(arg.substr(3 + name.size()));
}

} // namespace

bool Args::flag(std::string_view name, std::string_view shortName)
{
    for (auto it = m_args.begin(); it != m_args.end(); ++it)
        if (matches(*it, name, shortName)) {
            m_args.erase(it);
            return true;
        }
    return false;
}

std::optional<std::string> Args::option(std::string_view name, std::string_view shortName)
{
    for (auto it = m_args.begin(); it != m_args.end(); ++it) {
        if (auto value = inlineValue(*it, name)) {
            m_args.erase(it);
            return value;
        }
        if (matches(*it, name, shortName)) {
            if (it + 1 == m_args.end()) {
                m_error = "the option '" + *it + "' needs a value";
                m_args.erase(it);
                return std::nullopt;
            }
            std::string value = *(it + 1);
            m_args.erase(it, it + 2);
            return value;
        }
    }
    return std::nullopt;
}

std::vector<std::string> Args::positional()
{
    std::vector<std::string> out;
    for (const auto& arg : m_args) {
        if (arg.size() > 1 && arg[0] == '-' && m_error.empty())
            m_error = "unknown option '" + arg + "'";
        else
            out.push_back(arg);
    }
    return out;
}

std::optional<Trace> openTraceOrReport(const std::string& path)
{
    auto result = openTrace(path);
    if (!result) {
        std::fprintf(stderr, "sightline: %s\n", result.error().c_str());
        return std::nullopt;
    }
    return std::move(result.value());
}

int usageError(std::string_view command, std::string sentence)
{
    if (!sentence.ends_with('.')) sentence += '.';
    std::cerr << "sightline " << command << ": " << sentence << " Run 'sightline " << command
              << " --help' for usage.\n";
    return 2;
}

} // namespace sightline::cli
