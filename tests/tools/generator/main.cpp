// sightline-gen: writes a synthetic .rep report of any size (see generate.h).
#include "generate.h"
#include "model/format/report_io.h"
#include "scenario.h"

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
       sightline-gen --scenario NAME [--plant LIST] -o OUT.rep

Writes a deterministic synthetic report of a PyTorch data-parallel training job: CUDA API
calls correlated to kernels and memory operations, NVTX ranges and OS runtime calls.
With --scenario it writes instead a small focused trace of a known shape (one thread, one
stream, one sm_90 GPU, fixed timings) for testing the diagnosis (`sightline analyze`).

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
  --scenario NAME  a focused trace instead: clean (no problem; GPU compute bound), compute-bound,
                   launch-bound, sync-bound, cpu-bound or memory-bound
  --plant LIST     comma-separated problems to add to the scenario at known places:
                   pageable-async, sync-memcpy, sync-memset, sync-api, short-kernels,
                   low-occupancy, gpu-gap (one 600 ms idle gap), low-util (50 ms at 10% busy)
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

int writeScenario(
    const std::string& scenarioText, const std::optional<std::string>& plantText, const std::string& output)
{
    const std::optional<gen::Scenario> scenario = gen::parseScenario(scenarioText);
    if (!scenario)
        return usageError(
            "Unknown scenario '" + scenarioText + "'; the scenarios are " + gen::scenarioNames() + ".");
    std::vector<gen::Plant> plants;
    if (plantText) {
        std::string problem;
        const std::optional<std::vector<gen::Plant>> parsed = gen::parsePlants(*plantText, problem);
        if (!parsed) return usageError(problem);
        plants = *parsed;
    }
    const gen::ScenarioTrace generated = gen::generateScenario(*scenario, plants);
    if (std::string error = writeReport(generated.trace, output).error(); !error.empty()) {
        std::fprintf(stderr, "sightline-gen: %s\n", error.c_str());
        return 1;
    }
    std::printf("Wrote %s: %zu events of scenario %s, %.3f s of trace.\n", output.c_str(),
        generated.trace.eventCount(), std::string(gen::scenarioName(*scenario)).c_str(),
        double(generated.trace.span.duration()) / 1e9);
    for (gen::Plant plant : plants) {
        const auto count = std::count_if(generated.planted.begin(), generated.planted.end(),
            [&](const gen::PlantedEvent& p) { return p.plant == plant; });
        std::printf("Planted %s: %td %s.\n", std::string(gen::plantName(plant)).c_str(), count,
            plant == gen::Plant::GpuGap || plant == gen::Plant::LowUtil ? "time range" : "events");
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    gen::GeneratorOptions options;
    std::string output;
    bool haveEvents = false;
    std::optional<std::string> scenario, plants;
    std::vector<std::string> jobOptions; // the options of the training job given
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
        static constexpr std::string_view kKnown[]
            = {"-o", "--output", "--events", "--seed", "--processes", "--threads", "--gpus", "--streams",
                "--layers", "--gpu-metrics", "--cpu-samples", "--scenario", "--plant"};
        if (std::find(std::begin(kKnown), std::end(kKnown), name) == std::end(kKnown))
            return usageError("Unknown option " + name + ".");
        if (!inlineValue && i + 1 >= args.size()) return usageError("The option " + name + " needs a value.");
        std::string value = inlineValue ? *inlineValue : args[++i];
        if (name == "-o" || name == "--output") {
            output = value;
            continue;
        }
        if (name == "--scenario" || name == "--plant") {
            (name == "--scenario" ? scenario : plants) = value;
            continue;
        }
        jobOptions.push_back(name);
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
    if (scenario || plants) {
        if (!jobOptions.empty())
            return usageError(
                jobOptions.front() + " does not apply to --scenario, whose traces have a fixed shape.");
        if (!scenario) return usageError("--plant adds problems to a scenario: name one with --scenario.");
        if (output.empty()) return usageError("Say where to write the report with -o OUT.rep.");
        return writeScenario(*scenario, plants, output);
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
