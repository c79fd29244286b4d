#include "app/cli/cli_args.h"

#include "model/import/open_trace.h"

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace sightline::cli {
namespace {

using Failure = Result<Args>;

bool looksLikeOption(std::string_view arg)
{
    return arg.size() > 1 && arg[0] == '-';
}

// An option argument split into the spec it names and the value written into it, if any
// ("--name=V", "-xV", "-x=V").
struct Spelled
{
    const OptionSpec* spec = nullptr;
    std::optional<std::string> attached;
};

Spelled identify(std::string_view arg, std::span<const OptionSpec> specs)
{
    Spelled out;
    if (arg.starts_with("--")) {
        const std::string_view body = arg.substr(2);
        const size_t equals = body.find('=');
        const std::string_view name = body.substr(0, equals);
        for (const OptionSpec& spec : specs)
            if (spec.name == name) out.spec = &spec;
        if (equals != std::string_view::npos) out.attached = std::string(body.substr(equals + 1));
        return out;
    }
    const std::string_view name = arg.substr(1, 1);
    for (const OptionSpec& spec : specs)
        if (!spec.shortName.empty() && spec.shortName == name) out.spec = &spec;
    std::string_view rest = arg.substr(2);
    if (rest.starts_with('=')) rest.remove_prefix(1);
    if (arg.size() > 2) out.attached = std::string(rest);
    return out;
}

} // namespace

Result<Args> Args::scan(
    const std::vector<std::string>& arguments, std::span<const OptionSpec> specs, OptionsEnd end)
{
    Args args;
    size_t i = 0;
    for (; i < arguments.size(); ++i) {
        const std::string& arg = arguments[i];
        if (arg == "--") {
            ++i;
            break;
        }
        if (!looksLikeOption(arg)) {
            if (end == OptionsEnd::AtFirstPositional) break;
            args.m_positional.push_back(arg);
            continue;
        }
        Spelled spelled = identify(arg, specs);
        if (!spelled.spec) return Failure::failure("unknown option '" + arg + "'");
        const OptionSpec& spec = *spelled.spec;
        std::string value;
        if (!spec.takesValue) {
            const std::optional<bool> on = spelled.attached ? parseBool(*spelled.attached) : true;
            if (!on)
                return Failure::failure("the flag '" + arg + "' takes no value other than true or false");
            value = *on ? "true" : "false";
        } else if (spelled.attached) {
            value = std::move(*spelled.attached);
        } else if (i + 1 < arguments.size()) {
            value = arguments[++i];
        } else {
            return Failure::failure("the option '" + arg + "' needs a value");
        }
        args.m_given.push_back({spec.name, std::move(value)});
    }
    args.m_positional.insert(args.m_positional.end(), arguments.begin() + std::ptrdiff_t(i), arguments.end());
    return args;
}

bool Args::flag(std::string_view name) const
{
    return value(name) == "true";
}

std::optional<std::string> Args::value(std::string_view name) const
{
    const auto last = std::find_if(
        m_given.rbegin(), m_given.rend(), [&](const GivenOption& given) { return given.name == name; });
    if (last == m_given.rend()) return std::nullopt;
    return last->value;
}

std::optional<bool> parseBool(std::string_view text)
{
    if (text == "true" || text == "1" || text == "yes") return true;
    if (text == "false" || text == "0" || text == "no") return false;
    return std::nullopt;
}

std::optional<Trace> openTraceOrReport(const std::string& path, const DecodeSelection& select)
{
    ReadOptions options;
    options.select = select;
    auto result = openTrace(path, options);
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
