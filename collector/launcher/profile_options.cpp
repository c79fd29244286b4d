#include "collector/launcher/profile_options.h"

namespace sightline::collector {

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
    if (cudaMemoryUsage) list.emplace_back("cuda-memory-usage", "true");
    if (gpuMetrics()) {
        list.emplace_back("gpu-metrics-devices", gpuMetricsDevices);
        list.emplace_back("gpu-metrics-frequency", std::to_string(gpuMetricsFrequency));
        list.emplace_back("gpu-metrics-set", gpuMetricsSet);
    }
    list.emplace_back("sample", cpu.sample ? "process-tree" : "none");
    if (cpu.sample) list.emplace_back("sampling-frequency", std::to_string(cpu.frequency));
    list.emplace_back("cpuctxsw", cpu.contextSwitches ? "process-tree" : "none");
    const char* backtraces[] = {"fp", "dwarf", "none"};
    list.emplace_back("backtrace", backtraces[int(cpu.backtrace)]);
    if (cudaBacktrace.any()) {
        std::string kinds;
        for (auto [on, name] : {std::pair(cudaBacktrace.kernel, "kernel"),
                 std::pair(cudaBacktrace.memory, "memory"), std::pair(cudaBacktrace.sync, "sync")})
            if (on) kinds += (kinds.empty() ? "" : ",") + std::string(name);
        list.emplace_back("cudabacktrace", kinds + ":" + std::to_string(cudaBacktrace.thresholdNs));
    }
    return list;
}

ConversionOptions ProfileOptions::conversion() const
{
    ConversionOptions conversion {osrtThresholdNs, capture, asMetadata(), environment, {}};
    conversion.cpu.dwarf = cpu.backtrace == BacktraceMethod::Dwarf;
    conversion.cpu.cudaBacktrace = cudaBacktrace;
    return conversion;
}

} // namespace sightline::collector
