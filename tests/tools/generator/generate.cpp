#include "generate.h"

#include "training_loop.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

namespace sightline::gen {
namespace {

constexpr uint64_t kH200MemoryBytes = 143771ull << 20; // 141 GB, as nvidia-smi reports 143771 MiB
constexpr int64_t kSessionStartUtcNs = 1717408800LL * 1000000000LL; // 2024-06-03 10:00:00 UTC

std::string hex(Random& random, int digits)
{
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string text;
    for (int i = 0; i < digits; ++i)
        text += kDigits[random.below(16)];
    return text;
}

std::string threadName(uint32_t index)
{
    switch (index) {
    case 0:
        return "python";
    case 1:
        return "pt_autograd_0";
    case 2:
        return "pt_data_loader";
    default:
        return "pt_worker_" + std::to_string(index - 3);
    }
}

uint32_t layerCount(const GeneratorOptions& options)
{
    if (options.layers) return options.layers;
    // Small traces get small models, so that they still hold whole iterations.
    uint64_t perProcess = options.events / options.processes;
    return uint32_t(std::clamp<uint64_t>(perProcess / 8000, 2, 12));
}

void fillMetadata(ReportMetadata& metadata, const GeneratorOptions& options, Random& random)
{
    metadata.toolVersion = std::string("sightline ") + SIGHTLINE_VERSION;
    metadata.producer = "sightline-gen";
    metadata.commandLine = {"python", "train.py"};
    metadata.workingDirectory = "/home/ml/llm-train";
    metadata.hostname = "gpu-node-" + std::to_string(10 + random.below(90));
    metadata.osName = "Ubuntu 22.04.4 LTS (Linux 5.15.0-119-generic)";
    metadata.cpuModel = "AMD EPYC 9534 64-Core Processor";
    metadata.cpuCores = 128;
    metadata.driverVersion = "550.90.07";
    metadata.cudaVersion = "12.4";
    metadata.cuptiVersion = "12.4.127";
    metadata.startTimeUtcNs = kSessionStartUtcNs + int64_t(options.seed % 86400) * 1000000000LL;
    metadata.options = {
        {"trace", "cuda,nvtx,osrt"},
        {"sample", "none"},
        {"generator.events", std::to_string(options.events)},
        {"generator.seed", std::to_string(options.seed)},
        {"generator.processes", std::to_string(options.processes)},
        {"generator.threads", std::to_string(options.threadsPerProcess)},
        {"generator.gpus", std::to_string(options.gpus)},
        {"generator.streams", std::to_string(options.streamsPerGpu)},
        {"generator.layers", std::to_string(layerCount(options))},
    };
    std::string visible;
    for (uint32_t g = 0; g < options.gpus; ++g) {
        if (g) visible += ',';
        visible += std::to_string(g);
    }
    metadata.environment
        = {{"CUDA_VISIBLE_DEVICES", visible}, {"NCCL_DEBUG", "WARN"}, {"OMP_NUM_THREADS", "8"}};
}

Gpu makeGpu(uint32_t index, Random& random)
{
    static constexpr const char* kBusIds[] = {"0000:19:00.0", "0000:3B:00.0", "0000:4C:00.0", "0000:5D:00.0",
        "0000:9B:00.0", "0000:BB:00.0", "0000:CB:00.0", "0000:DB:00.0"};
    Gpu gpu;
    gpu.device = DeviceId(index);
    gpu.name = "NVIDIA H200";
    gpu.uuid = std::string("GPU-") + hex(random, 8) + "-" + hex(random, 4) + "-" + hex(random, 4) + "-"
        + hex(random, 4) + "-" + hex(random, 12);
    if (index < std::size(kBusIds)) {
        gpu.busId = kBusIds[index];
    } else {
        char bus[16];
        std::snprintf(bus, sizeof bus, "0001:%02X:00.0", unsigned(index & 0xff));
        gpu.busId = bus;
    }
    gpu.computeMajor = 9;
    gpu.computeMinor = 0;
    gpu.smCount = 132;
    gpu.memoryBytes = kH200MemoryBytes;
    gpu.coreClockKHz = 1980000;
    gpu.memoryClockKHz = 2619000;
    return gpu;
}

// Which GPUs rank p drives: one each when there are at least as many ranks as GPUs, else the
// GPUs g with g % processes == p (the model is then split over them, pipeline style).
std::vector<uint32_t> devicesOf(uint32_t p, const GeneratorOptions& options)
{
    std::vector<uint32_t> devices;
    if (options.gpus <= options.processes) {
        devices.push_back(p % options.gpus);
    } else {
        for (uint32_t g = p; g < options.gpus; g += options.processes)
            devices.push_back(g);
    }
    return devices;
}

ProcessPlan makePlan(
    uint32_t p, Pid pid, const GeneratorOptions& options, DomainId nccl, DomainId loader, Random& random)
{
    ProcessPlan plan;
    plan.pid = pid;
    for (uint32_t t = 0; t < options.threadsPerProcess; ++t)
        plan.threads.push_back(Thread {pid, Tid(pid.value + t), threadName(t)});
    std::vector<uint32_t> devices = devicesOf(p, options);
    for (size_t d = 0; d < devices.size(); ++d) {
        DevicePlan device {DeviceId(devices[d]), ContextId(uint32_t(d + 1)), {}};
        for (uint32_t s = 0; s < options.streamsPerGpu; ++s)
            device.streams.push_back(streamIdAt(s));
        plan.devices.push_back(device);
    }
    plan.layers = layerCount(options);
    plan.distributed = options.processes > 1;
    plan.startTime = 1500000 + Timestamp(p) * (300000 + Timestamp(random.below(900000)));
    plan.ncclDomain = nccl;
    plan.loaderDomain = loader;
    return plan;
}

void registerEntities(TraceBuilder& builder, const ProcessPlan& plan, uint32_t rank)
{
    builder.addProcess(
        Process {plan.pid, "python", {"python", "train.py", "--local-rank=" + std::to_string(rank)}});
    for (const Thread& thread : plan.threads)
        builder.addThread(thread);
    for (const DevicePlan& device : plan.devices) {
        builder.addContext(CudaContext {plan.pid, device.device, device.context});
        for (size_t s = 0; s < device.streams.size(); ++s) {
            int32_t priority = s == size_t(StreamRole::Communication) ? -1 : 0;
            builder.addStream(
                CudaStream {plan.pid, device.device, device.context, device.streams[s], priority, s == 0});
        }
    }
}

} // namespace

std::string checkOptions(const GeneratorOptions& options)
{
    auto outside = [](uint64_t value, uint64_t low, uint64_t high) { return value < low || value > high; };
    if (outside(options.events, 0, 4000000000ull))
        return "The event count must be at most 4000000000; ask for fewer events.";
    if (outside(options.processes, 1, 64)) return "The number of processes must be between 1 and 64.";
    if (outside(options.threadsPerProcess, 1, 64))
        return "The number of threads per process must be between 1 and 64.";
    if (outside(options.gpus, 1, 64)) return "The number of GPUs must be between 1 and 64.";
    if (outside(options.streamsPerGpu, 1, 64))
        return "The number of streams per GPU must be between 1 and 64.";
    if (outside(options.layers, 0, 256))
        return "The number of layers must be between 1 and 256 (0 picks one).";
    return {};
}

Trace generateTrace(const GeneratorOptions& options)
{
    TraceBuilder builder;
    Random random(options.seed);
    fillMetadata(builder.metadata(), options, random);
    for (uint32_t g = 0; g < options.gpus; ++g)
        builder.addGpu(makeGpu(g, random));
    DomainId nccl = builder.addDomain("NCCL");
    DomainId loader = builder.addDomain("DataLoader");
    InternedCatalog catalog(builder);

    uint32_t pidStride = options.threadsPerProcess + 16;
    uint32_t basePid = 20000 + uint32_t(random.below(30000));
    for (uint32_t p = 0; p < options.processes; ++p) {
        Pid pid(basePid + p * pidStride + uint32_t(random.below(8)));
        ProcessPlan plan = makePlan(p, pid, options, nccl, loader, random);
        registerEntities(builder, plan, p);
        EventBudget budget;
        budget.limit = options.events / options.processes + (p < options.events % options.processes ? 1 : 0);
        Random processRandom = Random::derived(options.seed, p + 1);
        runTrainingProcess(builder, catalog, plan, budget, processRandom);
    }
    Trace trace = builder.build(options.buildThreads);
    if (options.gpuMetricsHz > 0) addGeneratedGpuMetrics(trace, options.gpuMetricsHz);
    if (options.cpuSamplesHz > 0) addGeneratedCpuSamples(trace, options.cpuSamplesHz, options.seed);
    return trace;
}

std::optional<uint64_t> parseEventCount(std::string_view text)
{
    uint64_t scale = 1;
    if (!text.empty()) {
        switch (text.back()) {
        case 'k':
        case 'K':
            scale = 1000;
            break;
        case 'm':
        case 'M':
            scale = 1000000;
            break;
        case 'g':
        case 'G':
            scale = 1000000000;
            break;
        default:
            break;
        }
        if (scale != 1) text.remove_suffix(1);
    }
    if (text.empty() || text.size() > 12) return std::nullopt;
    uint64_t value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + uint64_t(c - '0');
    }
    return value * scale;
}

} // namespace sightline::gen
