// sightline-gen: writes a synthetic .rep report of any size (see generate.h).
#include "generate.h"
#include "model/format/report_io.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace sightline;

constexpr const char* kUsage = R"(Usage: sightline-gen --events N [options] -o OUT.rep

Writes a deterministic synthetic report of a PyTorch data-parallel training job: CUDA API
calls correlated to kernels and memory operations, NVTX ranges and OS runtime calls.

Options:
  --events N       number of events, exactly (suffixes k, M, G: 10M = 10000000)
  --seed S         random seed (default 1); the same seed gives the same report
  --processes P    training processes (default 2)
  --threads T      threads per process (default 3)
  --gpus G         GPUs (default 2)
  --streams S      streams per GPU (default 4)
  --layers L       transformer layers per iteration (default: picked from the size)
  --gpu-metrics HZ GPU metric samples per second, following the kernels (default: none)
  --cpu-samples HZ CPU samples per second of each host thread, with thread states (default: none)
  -o, --output F   the report to write
  -h, --help       this text
)";

int usageError(const std::string& sentence)
{
    std::fprintf(stderr, "sightline-gen: %s\nRun sightline-gen --help for the options.\n", sentence.c_str());
    return 2;
}

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main(int argc, char** argv)
{
    gen::GeneratorOptions options;
    std::string output;
    bool haveEvents = false;
    std::vector<std::string> args(argv + 1, argv + argc);
    for (size_t i = 0; i < args.size(); ++i) {
        std::string name = args[i];
        if (name == "-h" || name == "--help") {
            std::fputs(kUsage, stdout);
            return 0;
        }
        std::optional<std::string> inlineValue;
        if (auto eq = name.find('='); name.rfind("--", 0) == 0 && eq != std::string::npos) {
            inlineValue = name.substr(eq + 1);
            name.resize(eq);
        }
        static constexpr std::string_view kKnown[] = {"-o", "--output", "--events", "--seed", "--processes",
            "--threads", "--gpus", "--streams", "--layers", "--gpu-metrics", "--cpu-samples"};
        if (std::find(std::begin(kKnown), std::end(kKnown), name) == std::end(kKnown))
            return usageError("Unknown option " + name + ".");
        if (!inlineValue && i + 1 >= args.size()) return usageError("The option " + name + " needs a value.");
        std::string value = inlineValue ? *inlineValue : args[++i];
        if (name == "-o" || name == "--output") {
            output = value;
            continue;
        }
        std::optional<uint64_t> number = gen::parseEventCount(value);
        if (!number) return usageError("The value '" + value + "' of " + name + " is not a whole number.");
        if (name == "--events") {
            options.events = *number;
            haveEvents = true;
        } else if (name == "--seed") {
            options.seed = *number;
        } else if (name == "--processes") {
            options.processes = uint32_t(std::min<uint64_t>(*number, 1u << 20));
        } else if (name == "--threads") {
            options.threadsPerProcess = uint32_t(std::min<uint64_t>(*number, 1u << 20));
        } else if (name == "--gpus") {
            options.gpus = uint32_t(std::min<uint64_t>(*number, 1u << 20));
        } else if (name == "--streams") {
            options.streamsPerGpu = uint32_t(std::min<uint64_t>(*number, 1u << 20));
        } else if (name == "--gpu-metrics") {
            options.gpuMetricsHz = uint32_t(std::min<uint64_t>(*number, 1'000'000));
        } else if (name == "--cpu-samples") {
            options.cpuSamplesHz = uint32_t(std::min<uint64_t>(*number, 1'000'000));
        } else { // --layers
            options.layers = uint32_t(std::min<uint64_t>(*number, 1u << 20));
        }
    }
    if (!haveEvents) return usageError("Say how many events to generate with --events N.");
    if (output.empty()) return usageError("Say where to write the report with -o OUT.rep.");
    if (std::string problem = gen::checkOptions(options); !problem.empty()) return usageError(problem);

    auto start = std::chrono::steady_clock::now();
    Trace trace = gen::generateTrace(options);
    double generateSeconds = secondsSince(start);
    start = std::chrono::steady_clock::now();
    if (std::string error = writeReport(trace, output).error(); !error.empty()) {
        std::fprintf(stderr, "sightline-gen: %s\n", error.c_str());
        return 1;
    }
    double writeSeconds = secondsSince(start);

    std::error_code ec;
    uint64_t bytes = std::filesystem::file_size(output, ec);
    size_t events = trace.eventCount();
    std::printf("Wrote %s: %zu events (%zu CUDA API calls, %zu kernels, %zu memory operations, "
                "%zu synchronizations, %zu NVTX, %zu OS runtime) from %u process%s on %u GPU%s.\n",
        output.c_str(), events, trace.eventCount(TrackKind::CudaApi), trace.eventCount(TrackKind::Kernels),
        trace.eventCount(TrackKind::Memory), trace.eventCount(TrackKind::Synchronization),
        trace.eventCount(TrackKind::Nvtx), trace.eventCount(TrackKind::OsRuntime), options.processes,
        options.processes == 1 ? "" : "es", options.gpus, options.gpus == 1 ? "" : "s");
    bool small = bytes < 1000000;
    std::printf("%.1f %s (%.2f bytes per event), %.3f s of trace; generated in %.2f s, written in %.2f s.\n",
        small ? double(bytes) / 1e3 : double(bytes) / 1e6, small ? "kB" : "MB",
        events ? double(bytes) / double(events) : 0.0, double(trace.span.duration()) / 1e9, generateSeconds,
        writeSeconds);
    if (!trace.cpu.samples.empty())
        std::printf("%zu CPU samples at %u Hz and %zu thread states.\n", trace.cpu.samples.size(),
            options.cpuSamplesHz, trace.cpu.states.size());
    return 0;
}
