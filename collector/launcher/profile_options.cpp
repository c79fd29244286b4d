#include "collector/launcher/profile_options.h"

#include <cmath>
#include <optional>
#include <sstream>

namespace sightline::collector {

namespace {

using Failure = Result<ProfileOptions>;

struct OptionSpec
{
    const char* longName;
    const char* shortName; // "" when none
    bool takesValue;
};

constexpr OptionSpec kOptions[] = {
    {"trace", "t", true},
    {"osrt-threshold", "", true},
    {"output", "o", true},
    {"force-overwrite", "f", false},
    {"capture-range", "c", true},
    {"nvtx-capture", "", true},
    {"delay", "y", true},
    {"duration", "d", true},
    {"stats", "", false},
    {"env-var", "e", true},
    {"show-output", "", true},
    {"quiet", "q", false},
    {"help", "h", false},
};

const OptionSpec* findOption(const std::string& name, bool isShort)
{
    for (const OptionSpec& o : kOptions)
        if (name == (isShort ? o.shortName : o.longName) && !name.empty()) return &o;
    return nullptr;
}

std::optional<bool> parseBool(const std::string& text)
{
    if (text == "true" || text == "1" || text == "yes") return true;
    if (text == "false" || text == "0" || text == "no") return false;
    return std::nullopt;
}

std::optional<Duration> parseSeconds(const std::string& text)
{
    try {
        size_t used = 0;
        const double seconds = std::stod(text, &used);
        if (used != text.size() || !std::isfinite(seconds) || seconds < 0) return std::nullopt;
        return Duration(seconds * 1e9);
    } catch (...) {
        return std::nullopt;
    }
}

std::optional<int64_t> parseNanoseconds(const std::string& text)
{
    try {
        size_t used = 0;
        const long long value = std::stoll(text, &used);
        if (used != text.size() || value < 0) return std::nullopt;
        return int64_t(value);
    } catch (...) {
        return std::nullopt;
    }
}

std::string applyTrace(ProfileOptions& o, const std::string& value)
{
    o.traceCuda = o.traceNvtx = o.traceOsrt = false;
    std::stringstream list(value);
    for (std::string item; std::getline(list, item, ',');) {
        if (item == "cuda")
            o.traceCuda = true;
        else if (item == "nvtx")
            o.traceNvtx = true;
        else if (item == "osrt")
            o.traceOsrt = true;
        else if (item != "none")
            return "sightline profile: unknown --trace value '" + item
                + "'; use cuda, nvtx, osrt (comma-separated) or none.";
    }
    return {};
}

void applyEnvironment(ProfileOptions& o, const std::string& value)
{
    // "A=1,B=2" sets two variables; a comma not followed by NAME= belongs to the value.
    size_t start = 0;
    while (start < value.size()) {
        size_t comma = value.find(',', start);
        while (comma != std::string::npos && value.find('=', comma + 1) == std::string::npos)
            comma = std::string::npos;
        const std::string item
            = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        const size_t equals = item.find('=');
        o.environment.emplace_back(
            item.substr(0, equals), equals == std::string::npos ? "" : item.substr(equals + 1));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
}

// Applies one option; returns the error sentence, or "".
std::string apply(ProfileOptions& o, const OptionSpec& spec, const std::string& value)
{
    const std::string name = spec.longName;
    const std::string bad = "sightline profile: --" + name + " does not accept '" + value + "'; ";
    if (name == "trace") return applyTrace(o, value);
    if (name == "osrt-threshold") {
        const auto ns = parseNanoseconds(value);
        if (!ns) return bad + "give a number of nanoseconds, for example --osrt-threshold=1000.";
        o.osrtThresholdNs = *ns;
    } else if (name == "output") {
        o.output = value;
    } else if (name == "force-overwrite" || name == "stats" || name == "show-output" || name == "quiet"
        || name == "help") {
        const auto flag = parseBool(value);
        if (!flag) return bad + "use true or false.";
        (name == "force-overwrite"      ? o.forceOverwrite
                : name == "stats"       ? o.stats
                : name == "show-output" ? o.showOutput
                : name == "quiet"       ? o.quiet
                                        : o.help)
            = *flag;
    } else if (name == "capture-range") {
        if (value == "none")
            o.capture.mode = CaptureMode::None;
        else if (value == "cudaProfilerApi")
            o.capture.mode = CaptureMode::CudaProfilerApi;
        else if (value == "nvtx")
            o.capture.mode = CaptureMode::Nvtx;
        else
            return bad + "use none, cudaProfilerApi or nvtx.";
    } else if (name == "nvtx-capture") {
        const size_t at = value.rfind('@');
        o.capture.nvtxRange = value.substr(0, at);
        o.capture.nvtxDomain = at == std::string::npos ? "" : value.substr(at + 1);
        if (o.capture.nvtxRange.empty()) return bad + "give a range name, as RANGE or RANGE@DOMAIN.";
    } else if (name == "delay" || name == "duration") {
        const auto ns = parseSeconds(value);
        if (!ns || (name == "duration" && *ns <= 0))
            return bad + "give a number of seconds, for example --" + name + "=5.";
        (name == "delay" ? o.capture.delay : o.capture.duration) = *ns;
    } else if (name == "env-var") {
        if (value.find('=') == std::string::npos) return bad + "give NAME=VALUE.";
        applyEnvironment(o, value);
    }
    return {};
}

std::string validate(ProfileOptions& o)
{
    if (o.help) return {};
    if (o.command.empty())
        return "sightline profile: no program to profile; give it after the options, for example "
               "`sightline profile -t cuda,nvtx python train.py`.";
    if (o.capture.mode == CaptureMode::Nvtx) {
        if (o.capture.nvtxRange.empty())
            return "sightline profile: --capture-range=nvtx needs --nvtx-capture=RANGE[@DOMAIN].";
        o.traceNvtx = true; // the range that opens the capture must be seen
    }
    if (o.capture.mode == CaptureMode::CudaProfilerApi && !o.traceCuda)
        return "sightline profile: --capture-range=cudaProfilerApi needs CUDA tracing; add cuda to --trace.";
    return {};
}

} // namespace

Result<ProfileOptions> parseProfileOptions(const std::vector<std::string>& args)
{
    ProfileOptions o;
    size_t i = 0;
    for (; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg == "--") {
            ++i;
            break;
        }
        if (arg.size() < 2 || arg[0] != '-') break;
        const bool isLong = arg[1] == '-';
        const size_t nameEnd = isLong ? arg.find('=') : 2;
        const std::string name = arg.substr(
            isLong ? 2 : 1, nameEnd == std::string::npos ? std::string::npos : nameEnd - (isLong ? 2 : 1));
        const OptionSpec* spec = findOption(name, !isLong);
        if (!spec)
            return Failure::failure(
                "sightline profile: unknown option '" + arg + "'; see sightline profile --help.");
        std::optional<std::string> value;
        if (nameEnd != std::string::npos && nameEnd < arg.size())
            value = arg.substr(isLong ? nameEnd + 1 : nameEnd);
        if (value && !value->empty() && !isLong && (*value)[0] == '=') value = value->substr(1);
        if (!value && spec->takesValue) {
            if (i + 1 >= args.size())
                return Failure::failure(
                    "sightline profile: " + arg + " needs a value; see sightline profile --help.");
            value = args[++i];
        }
        const std::string error = apply(o, *spec, value.value_or("true"));
        if (!error.empty()) return Failure::failure(error);
    }
    o.command.assign(args.begin() + std::ptrdiff_t(i), args.end());
    if (const std::string error = validate(o); !error.empty()) return Failure::failure(error);
    return o;
}

std::string ProfileOptions::traceList() const
{
    std::string list;
    for (auto [on, name] : {std::pair {traceCuda, "cuda"}, {traceNvtx, "nvtx"}, {traceOsrt, "osrt"}})
        if (on) {
            if (!list.empty()) list += ',';
            list += name;
        }
    return list.empty() ? "none" : list;
}

KeyValueList ProfileOptions::asMetadata() const
{
    KeyValueList list {{"trace", traceList()}, {"osrt-threshold", std::to_string(osrtThresholdNs)}};
    const char* modes[] = {"none", "cudaProfilerApi", "nvtx"};
    list.emplace_back("capture-range", modes[int(capture.mode)]);
    if (capture.mode == CaptureMode::Nvtx)
        list.emplace_back(
            "nvtx-capture", capture.nvtxRange + (capture.nvtxDomain.empty() ? "" : "@" + capture.nvtxDomain));
    if (capture.delay) list.emplace_back("delay", std::to_string(double(*capture.delay) / 1e9));
    if (capture.duration) list.emplace_back("duration", std::to_string(double(*capture.duration) / 1e9));
    for (const auto& [name, value] : environment)
        list.emplace_back("env-var", name + "=" + value);
    return list;
}

std::string profileUsage()
{
    return "Usage: sightline profile [options] [--] COMMAND [ARGS...]\n"
           "Runs COMMAND and records what it does on the CPU and the GPU into a .rep report.\n\n"
           "  -t, --trace=LIST           cuda,nvtx,osrt (default all three), or none\n"
           "      --osrt-threshold=NS    record OS runtime calls at least this long (default 1000)\n"
           "  -o, --output=PATH          report path; %p is the target's pid, %h the host name\n"
           "                             (default report1.rep, report2.rep, ... never overwriting)\n"
           "  -f, --force-overwrite      replace an existing report\n"
           "  -c, --capture-range=MODE   none, cudaProfilerApi or nvtx\n"
           "      --nvtx-capture=RANGE[@DOMAIN]  the NVTX range that opens the capture\n"
           "  -y, --delay=SEC            start the capture SEC seconds after the target starts\n"
           "  -d, --duration=SEC         capture SEC seconds, then stop the target (SIGTERM)\n"
           "      --stats                print the summary tables after the report is written\n"
           "  -e, --env-var=NAME=VALUE   set a variable for the target (repeatable, or A=1,B=2)\n"
           "      --show-output=BOOL     pass the target's stdout and stderr through (default true)\n"
           "  -q, --quiet                print nothing but errors\n"
           "  -h, --help                 this text\n";
}

ConversionOptions ProfileOptions::conversion() const
{
    return {osrtThresholdNs, capture, asMetadata(), environment};
}

} // namespace sightline::collector
