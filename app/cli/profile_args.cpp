#include "app/cli/profile_args.h"

#include "app/cli/cli_args.h"
#include "collector/sampler/metric_sets.h"

#include <cctype>
#include <cmath>
#include <sstream>

namespace sightline::cli {
namespace {

using collector::CaptureMode;
using collector::ProfileOptions;
using Failure = Result<ProfileOptions>;

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
    {"show-output", "", true}, // a value, so that `--show-output false` reads as before
    {"quiet", "q", false},
    {"help", "h", false},
    {"gpu-metrics-devices", "", true},
    {"gpu-metrics-device", "", true}, // the older nsys spelling
    {"gpu-metrics-frequency", "", true},
    {"gpu-metrics-set", "", true},
    {"cuda-memory-usage", "", true},
    {"sample", "s", true},
    {"sampling-frequency", "", true},
    {"cpuctxsw", "", true},
    {"backtrace", "b", true},
    {"cudabacktrace", "", true},
};

// "none", "all", or device ordinals separated by commas.
bool validDeviceList(const std::string& value)
{
    if (value == "none" || value == "all") return true;
    if (value.empty() || value.front() == ',' || value.back() == ',') return false;
    for (size_t i = 0; i < value.size(); ++i)
        if (!(std::isdigit(static_cast<unsigned char>(value[i])) || (value[i] == ',' && value[i - 1] != ',')))
            return false;
    return true;
}

std::optional<Duration> parseSeconds(const std::string& text)
{
    try {
        size_t used = 0;
        const double seconds = std::stod(text, &used);
        if (used != text.size() || !std::isfinite(seconds) || seconds < 0 || seconds > 1e9)
            return std::nullopt;
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

Status applyTrace(ProfileOptions& o, const std::string& value)
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
            return Status::failure(
                "unknown --trace value '" + item + "'; use cuda, nvtx, osrt (comma-separated) or none");
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

// --cudabacktrace=all|kernel|memory|sync|none[:THRESHOLD_NS], kinds joined by commas.
Status applyCudaBacktrace(ProfileOptions& o, const std::string& value, const std::string& bad)
{
    const size_t colon = value.find(':');
    collector::CudaBacktraceSpec spec;
    if (colon != std::string::npos) {
        const auto ns = parseNanoseconds(value.substr(colon + 1));
        if (!ns) return Status::failure(bad + "give the threshold in nanoseconds, for example sync:1000000");
        spec.thresholdNs = *ns;
    }
    std::stringstream kinds(value.substr(0, colon));
    for (std::string kind; std::getline(kinds, kind, ',');) {
        if (kind == "all")
            spec.kernel = spec.memory = spec.sync = true;
        else if (kind == "kernel")
            spec.kernel = true;
        else if (kind == "memory")
            spec.memory = true;
        else if (kind == "sync")
            spec.sync = true;
        else if (kind != "none")
            return Status::failure(
                bad + "use all, kernel, memory, sync or none, with an optional :THRESHOLD_NS");
    }
    o.cudaBacktrace = spec;
    return {};
}

// Applies one option that takes a value; the flags are read with Args::flag.
Status apply(ProfileOptions& o, std::string_view name, const std::string& value)
{
    const std::string bad = "--" + std::string(name) + " does not accept '" + value + "'; ";
    if (name == "trace") return applyTrace(o, value);
    if (name == "osrt-threshold") {
        const auto ns = parseNanoseconds(value);
        if (!ns)
            return Status::failure(bad + "give a number of nanoseconds, for example --osrt-threshold=1000");
        o.osrtThresholdNs = *ns;
    } else if (name == "output") {
        o.output = value;
    } else if (name == "show-output") {
        const std::optional<bool> show = parseBool(value);
        if (!show) return Status::failure(bad + "use true or false");
        o.showOutput = *show;
    } else if (name == "capture-range") {
        if (value == "none")
            o.capture.mode = CaptureMode::None;
        else if (value == "cudaProfilerApi")
            o.capture.mode = CaptureMode::CudaProfilerApi;
        else if (value == "nvtx")
            o.capture.mode = CaptureMode::Nvtx;
        else
            return Status::failure(bad + "use none, cudaProfilerApi or nvtx");
    } else if (name == "nvtx-capture") {
        const size_t at = value.rfind('@');
        o.capture.nvtxRange = value.substr(0, at);
        o.capture.nvtxDomain = at == std::string::npos ? "" : value.substr(at + 1);
        if (o.capture.nvtxRange.empty())
            return Status::failure(bad + "give a range name, as RANGE or RANGE@DOMAIN");
    } else if (name == "delay" || name == "duration") {
        const auto ns = parseSeconds(value);
        if (!ns || (name == "duration" && *ns <= 0))
            return Status::failure(
                bad + "give a number of seconds, for example --" + std::string(name) + "=5");
        (name == "delay" ? o.capture.delay : o.capture.duration) = *ns;
    } else if (name == "gpu-metrics-devices" || name == "gpu-metrics-device") {
        if (!validDeviceList(value))
            return Status::failure(bad + "use none, all, or device numbers such as 0,1");
        o.gpuMetricsDevices = value;
    } else if (name == "gpu-metrics-frequency") {
        const auto hz = parseNanoseconds(value); // a plain non-negative integer
        if (!hz || *hz < 10 || *hz > 200000)
            return Status::failure(bad + "give a whole number of samples per second from 10 to 200000");
        o.gpuMetricsFrequency = uint32_t(*hz);
    } else if (name == "gpu-metrics-set") {
        if (value == "help")
            o.listGpuMetricSets = true;
        else if (!sampler::findMetricSet(value))
            return Status::failure(bad + "run --gpu-metrics-set=help for the sets there are");
        o.gpuMetricsSet = value;
    } else if (name == "cuda-memory-usage") {
        const std::optional<bool> on = parseBool(value);
        if (!on) return Status::failure(bad + "use true or false");
        o.cudaMemoryUsage = *on;
    } else if (name == "sample" || name == "cpuctxsw") {
        if (value != "process-tree" && value != "none")
            return Status::failure(bad + "use process-tree or none");
        (name == "sample" ? o.cpu.sample : o.cpu.contextSwitches) = value == "process-tree";
    } else if (name == "sampling-frequency") {
        const auto hz = parseNanoseconds(value); // a plain non-negative integer
        if (!hz || *hz < 100 || *hz > 10000)
            return Status::failure(bad + "give a whole number of samples per second from 100 to 10000");
        o.cpu.frequency = uint32_t(*hz);
    } else if (name == "backtrace") {
        if (value == "fp")
            o.cpu.backtrace = collector::BacktraceMethod::FramePointers;
        else if (value == "dwarf")
            o.cpu.backtrace = collector::BacktraceMethod::Dwarf;
        else if (value == "none")
            o.cpu.backtrace = collector::BacktraceMethod::None;
        else
            return Status::failure(bad + "use fp, dwarf or none");
    } else if (name == "cudabacktrace") {
        return applyCudaBacktrace(o, value, bad);
    } else if (name == "env-var") {
        if (value.find('=') == std::string::npos) return Status::failure(bad + "give NAME=VALUE");
        applyEnvironment(o, value);
    }
    return {};
}

// What the options ask for together.
Status validate(ProfileOptions& o)
{
    if (o.command.empty())
        return Status::failure("no program to profile; give it after the options, for example "
                               "`sightline profile -t cuda,nvtx python train.py`");
    if (o.capture.mode == CaptureMode::Nvtx) {
        if (o.capture.nvtxRange.empty())
            return Status::failure("--capture-range=nvtx needs --nvtx-capture=RANGE[@DOMAIN]");
        o.traceNvtx = true; // the range that opens the capture must be seen
    }
    if (o.capture.mode == CaptureMode::CudaProfilerApi && !o.traceCuda)
        return Status::failure("--capture-range=cudaProfilerApi needs CUDA tracing; add cuda to --trace");
    return {};
}

} // namespace

Result<ProfileOptions> parseProfileArgs(const std::vector<std::string>& arguments)
{
    const Result<Args> scanned = Args::scan(arguments, kOptions, OptionsEnd::AtFirstPositional);
    if (!scanned) return Failure::failure(scanned.error());
    const Args& args = scanned.value();
    ProfileOptions o;
    o.help = args.flag("help");
    if (o.help) return o;
    o.forceOverwrite = args.flag("force-overwrite");
    o.stats = args.flag("stats");
    o.quiet = args.flag("quiet");
    for (const GivenOption& given : args.given()) // in order, so a repeated option's last value wins
        if (const Status applied = apply(o, given.name, given.value); !applied)
            return Failure::failure(applied.error());
    if (o.listGpuMetricSets) return o;
    o.command = args.positional();
    if (const Status valid = validate(o); !valid) return Failure::failure(valid.error());
    return o;
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
           "      --gpu-metrics-devices=none|all|N[,M]  sample GPU metrics of these GPUs (default none)\n"
           "      --gpu-metrics-frequency=HZ  samples per second, 10 to 200000 (default 10000)\n"
           "      --gpu-metrics-set=NAME  general (default), sm or tensor; help lists them\n"
           "      --cuda-memory-usage=BOOL  GPU memory in use per device, from every allocation (default "
           "false)\n"
           "  -s, --sample=process-tree|none  sample the target's threads' call stacks (default "
           "process-tree)\n"
           "      --sampling-frequency=HZ  CPU samples per second of a busy thread, 100 to 10000 (default "
           "1000)\n"
           "      --cpuctxsw=process-tree|none  thread states from context switches (default process-tree)\n"
           "  -b, --backtrace=fp|dwarf|none  how stacks are taken: frame pointers, with the copied stack\n"
           "                             unwound where they break (default); dwarf: every sample's copy\n"
           "                             unwound; or none\n"
           "      --cudabacktrace=all|kernel|memory|sync|none[:NS]  attach the calling stack to CUDA API\n"
           "                             calls of these kinds lasting at least NS (default none)\n"
           "  -h, --help                 this text\n";
}

} // namespace sightline::cli
