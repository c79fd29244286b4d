#include "scenario.h"

#include "scenario_writer.h"

#include <algorithm>
#include <array>

namespace sightline::gen {
namespace {

constexpr Duration kUs = 1000;
constexpr Duration kMs = 1000 * kUs;
constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;

constexpr uint32_t kRegisters = 32; // ordinary kernels: 100% theoretical occupancy in 256-thread blocks
constexpr uint32_t kManyRegisters = 255; // the low-occupancy plant: 12.5% on sm_90

// What one scenario's iterations look like (scenario.h gives the resulting shares).
struct Shape
{
    std::string_view kernelName;
    uint32_t iterations;
    uint32_t kernelsPerIteration;
    Duration kernel; // each kernel's length
    Duration hostGap; // host work outside CUDA calls after every call
    uint64_t copyBytes; // the pinned HtoD copy of the next batch after the kernels; 0: none
    std::string_view closingSync; // the synchronization call closing each iteration; empty: none
};

constexpr std::array<Shape, size_t(Scenario::Count)> kShapes {{
    {"matmul_kernel", 300, 8, 100 * kUs, 85 * kUs, 1 * kMiB, {}}, // clean
    {"matmul_kernel", 100, 6, 1 * kMs, 20 * kUs, 1 * kMiB, "cudaStreamSynchronize"}, // compute-bound
    {"add_kernel", 100, 20, 2 * kUs, 1 * kUs, 0, {}}, // launch-bound
    {"add_kernel", 1000, 1, 10 * kUs, 1 * kUs, 0, "cudaDeviceSynchronize"}, // sync-bound
    {"matmul_kernel", 200, 4, 50 * kUs, 200 * kUs, 256 * kKiB, {}}, // cpu-bound
    {"matmul_kernel", 200, 2, 100 * kUs, 20 * kUs, 16 * kMiB, {}}, // memory-bound
}};

constexpr std::array<std::string_view, size_t(Scenario::Count)> kScenarioNames {
    "clean", "compute-bound", "launch-bound", "sync-bound", "cpu-bound", "memory-bound"};
constexpr std::array<std::string_view, size_t(Plant::Count)> kPlantNames {"pageable-async", "sync-memcpy",
    "sync-memset", "sync-api", "short-kernels", "low-occupancy", "gpu-gap", "low-util"};

// The plants' sizes and lengths.
constexpr uint64_t kPageableCopyBytes = 4 * kMiB;
constexpr uint64_t kSyncCopyBytes = 64 * kKiB;
constexpr uint64_t kMemsetBytes = 1 * kMiB;
constexpr int kShortKernels = 4;
constexpr Duration kShortKernel = 2 * kUs;
constexpr std::array<Duration, 3> kLowOccupancyKernels {100 * kUs, 300 * kUs, 200 * kUs};
constexpr Duration kGpuGap = 600 * kMs;
constexpr Duration kLowUtilPeriod = 200 * kUs; // one kernel launched every period...
constexpr Duration kLowUtilKernel = 20 * kUs; // ...this long
constexpr int kLowUtilKernels = 250; // 50 ms

// Which occurrence of `plant` iteration `i` holds (0, 1 or 2), if any: plants appear 1/6, 3/6
// and 5/6 of the way through, shifted by their index; gpu-gap only at 3/6, low-util at 5/6.
std::optional<int> occurrence(Plant plant, uint32_t i, uint32_t iterations)
{
    for (int k = 0; k < 3; ++k) {
        if (plant == Plant::GpuGap && k != 1) continue;
        if (plant == Plant::LowUtil && k != 2) continue;
        if (i == iterations * uint32_t(2 * k + 1) / 6 + uint32_t(plant)) return k;
    }
    return std::nullopt;
}

KernelLaunch launchOf(TraceBuilder& builder, std::string_view name, uint32_t registers)
{
    KernelLaunch launch;
    launch.shortName = builder.intern(name);
    launch.mangledName = launch.shortName;
    launch.grid = {264, 1, 1};
    launch.block = {256, 1, 1};
    launch.registersPerThread = registers;
    return launch;
}

void describe(TraceBuilder& builder, Scenario scenario, std::span<const Plant> plants)
{
    ReportMetadata& metadata = builder.metadata();
    metadata.toolVersion = std::string("sightline ") + SIGHTLINE_VERSION;
    metadata.producer = "sightline-gen";
    metadata.commandLine = {"python", "scenario.py"};
    metadata.hostname = "gpu-node-01";
    std::string planted;
    for (Plant plant : plants)
        planted += (planted.empty() ? "" : ",") + std::string(plantName(plant));
    metadata.options = {{"trace", "cuda,nvtx"}, {"generator.scenario", std::string(scenarioName(scenario))},
        {"generator.plants", planted}};
}

// The host lets the GPU drain its queue, then launches a short kernel every period; the planted
// range runs from the first of them to the start of the GPU work that follows.
void lowUtilization(
    ScenarioWriter& writer, const KernelLaunch& launch, Duration hostGap, std::vector<PlantedEvent>& planted)
{
    writer.workUntil(writer.gpuBusyUntil() - kScenarioLaunchLatency);
    writer.setHostGap(kLowUtilPeriod - kScenarioLaunchCall);
    Timestamp first = 0;
    for (int k = 0; k < kLowUtilKernels; ++k) {
        const TimeRange kernel = writer.launch(launch, kLowUtilKernel, std::nullopt);
        if (k == 0) first = kernel.start;
    }
    writer.setHostGap(hostGap);
    planted.push_back({Plant::LowUtil, std::nullopt, {first, writer.now() + kScenarioLaunchLatency}});
}

template <class Names, class Value> std::optional<Value> lookUp(const Names& names, std::string_view name)
{
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) return std::nullopt;
    return Value(it - names.begin());
}

template <class Names> std::string joined(const Names& names)
{
    std::string text;
    for (std::string_view name : names)
        text += (text.empty() ? "" : ", ") + std::string(name);
    return text;
}

} // namespace

std::string_view scenarioName(Scenario scenario)
{
    return kScenarioNames[size_t(scenario)];
}

std::string_view plantName(Plant plant)
{
    return kPlantNames[size_t(plant)];
}

std::optional<Scenario> parseScenario(std::string_view name)
{
    return lookUp<decltype(kScenarioNames), Scenario>(kScenarioNames, name);
}

std::optional<std::vector<Plant>> parsePlants(std::string_view list, std::string& error)
{
    std::vector<Plant> plants;
    while (true) {
        const size_t comma = std::min(list.find(','), list.size());
        const std::string_view name = list.substr(0, comma);
        const std::optional<Plant> plant = lookUp<decltype(kPlantNames), Plant>(kPlantNames, name);
        if (!plant) {
            error = "Unknown plant '" + std::string(name) + "'; the plants are " + plantNames() + ".";
            return std::nullopt;
        }
        if (std::find(plants.begin(), plants.end(), *plant) == plants.end()) plants.push_back(*plant);
        if (comma == list.size()) return plants;
        list.remove_prefix(comma + 1);
    }
}

std::string scenarioNames()
{
    return joined(kScenarioNames);
}

std::string plantNames()
{
    return joined(kPlantNames);
}

ScenarioTrace generateScenario(Scenario scenario, std::span<const Plant> plants)
{
    const Shape& shape = kShapes[size_t(scenario)];
    TraceBuilder builder;
    describe(builder, scenario, plants);
    ScenarioTrace out;
    ScenarioWriter writer(builder, out.planted, shape.hostGap);
    const KernelLaunch ordinary = launchOf(builder, shape.kernelName, kRegisters);
    const KernelLaunch shortKernel = launchOf(builder, kPlantedShortKernel, kRegisters);
    const KernelLaunch lowOccupancy = launchOf(builder, kPlantedLowOccupancyKernel, kManyRegisters);
    const auto at = [&](Plant plant, uint32_t i) -> std::optional<int> {
        if (std::find(plants.begin(), plants.end(), plant) == plants.end()) return std::nullopt;
        return occurrence(plant, i, shape.iterations);
    };

    for (uint32_t i = 0; i < shape.iterations; ++i) {
        if (at(Plant::GpuGap, i)) {
            const Timestamp idleFrom = writer.gpuBusyUntil();
            writer.workUntil(idleFrom + kGpuGap - kScenarioLaunchLatency);
            out.planted.push_back({Plant::GpuGap, std::nullopt, {idleFrom, idleFrom + kGpuGap}});
        }
        if (at(Plant::LowUtil, i)) lowUtilization(writer, ordinary, shape.hostGap, out.planted);
        writer.beginStep();
        if (at(Plant::PageableAsync, i))
            writer.copy(CopyKind::HtoD, MemoryKind::Pageable, MemoryKind::Device, kPageableCopyBytes, true,
                Plant::PageableAsync);
        for (uint32_t k = 0; k < shape.kernelsPerIteration; ++k)
            writer.launch(ordinary, shape.kernel, std::nullopt);
        if (shape.copyBytes > 0)
            writer.copy(
                CopyKind::HtoD, MemoryKind::Pinned, MemoryKind::Device, shape.copyBytes, true, std::nullopt);
        if (at(Plant::ShortKernels, i))
            for (int k = 0; k < kShortKernels; ++k)
                writer.launch(shortKernel, kShortKernel, Plant::ShortKernels);
        if (const std::optional<int> o = at(Plant::LowOccupancy, i))
            writer.launch(lowOccupancy, kLowOccupancyKernels[size_t(*o)], Plant::LowOccupancy);
        if (at(Plant::SyncMemset, i)) writer.memset(kMemsetBytes, Plant::SyncMemset);
        if (at(Plant::SyncMemcpy, i))
            writer.copy(CopyKind::DtoH, MemoryKind::Device, MemoryKind::Pageable, kSyncCopyBytes, false,
                Plant::SyncMemcpy);
        if (!shape.closingSync.empty()) writer.synchronize(shape.closingSync, std::nullopt);
        if (const std::optional<int> o = at(Plant::SyncApi, i))
            writer.synchronize(*o == 1 ? "cudaStreamSynchronize" : "cudaDeviceSynchronize", Plant::SyncApi);
        writer.endStep();
    }
    out.trace = builder.build();
    std::stable_sort(out.planted.begin(), out.planted.end(),
        [](const PlantedEvent& a, const PlantedEvent& b) { return a.plant < b.plant; });
    return out;
}

} // namespace sightline::gen
