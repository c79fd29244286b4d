#include "cli_args.h"

#include "model/format/report_io.h"

#include <charconv>
#include <cstdio>

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
        if (arg.size() > 1 && arg[0] == '-' && m_error.empty()) m_error = "unknown option '" + arg + "'";
        else out.push_back(arg);
    }
    return out;
}

std::optional<Trace> openTraceOrReport(const std::string& path)
{
    auto result = readReport(path);
    if (!result) {
        std::fprintf(stderr, "sightline: %s\n", result.error().c_str());
        return std::nullopt;
    }
    return std::move(result.value());
}

namespace {

std::optional<Timestamp> parseTime(std::string_view text)
{
    double number = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (ec != std::errc() || end == text.data()) return std::nullopt;
    const std::string_view unit(end, size_t(text.data() + text.size() - end));
    double scale = 1;
    if (unit.empty() || unit == "ns") scale = 1;
    else if (unit == "us") scale = 1e3;
    else if (unit == "ms") scale = 1e6;
    else if (unit == "s") scale = 1e9;
    else return std::nullopt;
    return Timestamp(number * scale + (number >= 0 ? 0.5 : -0.5));
}

} // namespace

std::optional<TimeRange> parseTimeRange(std::string_view text)
{
    const auto colon = text.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    auto start = parseTime(text.substr(0, colon));
    auto end = parseTime(text.substr(colon + 1));
    if (!start || !end || *end < *start) return std::nullopt;
    return TimeRange {*start, *end};
}

} // namespace sightline::cli
