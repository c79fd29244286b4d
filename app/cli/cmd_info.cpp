// `sightline info FILE`: what a report holds, at a glance.
#include "app/cli/cli_args.h"
#include "app/cli/commands.h"

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <string>

namespace sightline::cli {
namespace {

constexpr const char* kUsage
    = "Usage: sightline info FILE\n"
      "Prints the report's metadata, event counts per kind, time span and diagnostics.\n";

std::string utcText(int64_t ns)
{
    if (ns == 0) return "unknown";
    const std::time_t seconds = std::time_t(ns / 1000000000);
    std::tm tm {};
    gmtime_r(&seconds, &tm);
    char buffer[64];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M:%S UTC", &tm);
    return buffer;
}

std::string joined(const std::vector<std::string>& parts)
{
    std::string out;
    for (const auto& p : parts)
        out += (out.empty() ? "" : " ") + p;
    return out;
}

void line(const char* key, const std::string& value)
{
    if (!value.empty()) std::printf("  %-20s %s\n", key, value.c_str());
}

constexpr const char* kKindNames[kTrackKindCount] = {"CUDA API calls", "NVTX ranges and marks",
    "OS runtime calls", "CUDA kernels", "Memory operations", "Synchronizations"};

} // namespace

int runInfo(const std::vector<std::string>& arguments)
{
    static constexpr OptionSpec kOptions[] = {{"help", "h", false}};
    const Result<Args> scanned = Args::scan(arguments, kOptions, OptionsEnd::AtDoubleDash);
    if (!scanned) return usageError("info", scanned.error());
    if (scanned->flag("help")) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    const std::vector<std::string>& files = scanned->positional();
    if (files.size() != 1) return usageError("info", "give exactly one report file");
    auto trace = openTraceOrReport(files[0]);
    if (!trace) return 1;
    const ReportMetadata& m = trace->metadata;

    std::printf(
        "Report %s (%.1f MB)\n", files[0].c_str(), double(std::filesystem::file_size(files[0])) / 1e6);
    line("Producer", m.toolVersion + (m.producer.empty() ? "" : " (" + m.producer + ")"));
    line("Command line", joined(m.commandLine));
    line("Working directory", m.workingDirectory);
    line("Start time", utcText(m.startTimeUtcNs));
    line("Host", m.hostname);
    line("OS", m.osName);
    line("CPU", m.cpuModel + (m.cpuCores ? " (" + std::to_string(m.cpuCores) + " cores)" : ""));
    line("Driver", m.driverVersion);
    line("CUDA", m.cudaVersion);
    line("CUPTI", m.cuptiVersion);
    for (const auto& [key, value] : m.options)
        line(("Option " + key).c_str(), value);
    for (const auto& gpu : trace->gpus)
        std::printf("  GPU %-16u %s, cc %u.%u, %u SMs, %.1f GB, %s, bus %s\n", gpu.device.value,
            gpu.name.c_str(), gpu.computeMajor, gpu.computeMinor, gpu.smCount, double(gpu.memoryBytes) / 1e9,
            gpu.uuid.c_str(), gpu.busId.c_str());

    std::printf("\nTime span: %.6f s (%lld ns to %lld ns)\n", double(trace->span.duration()) / 1e9,
        static_cast<long long>(trace->span.start), static_cast<long long>(trace->span.end));
    std::printf("Processes: %zu, threads: %zu, GPUs: %zu, streams: %zu, rows: %zu\n", trace->processes.size(),
        trace->threads.size(), trace->gpus.size(), trace->streams.size(), trace->tracks.size());
    std::printf("\nEvents: %zu\n", trace->eventCount());
    for (int k = 0; k < kTrackKindCount; ++k)
        std::printf("  %-24s %zu\n", kKindNames[k], trace->eventCount(TrackKind(k)));

    if (!trace->counterSeries.empty()) {
        std::printf("\nCounter series: %zu\n", trace->counterSeries.size());
        for (const CounterSeries& series : trace->counterSeries) {
            const CounterTimeline& timeline = trace->timelineOf(series);
            const Duration span = timeline.starts.empty() ? 0 : timeline.end - timeline.starts.front();
            const bool cpu = series.source == CounterSource::CpuUtilization;
            const char* what = cpu                          ? "CPU utilization"
                : series.source == CounterSource::GpuMemory ? "memory in use"
                                                            : "GPU metrics";
            std::printf("  %s %-3u %-18s %zu samples over %.3f s (%s)\n", cpu ? "PID" : "GPU",
                cpu ? series.pid.value : series.device.value,
                (series.name + " [" + series.unit + "]").c_str(), timeline.size(), double(span) / 1e9, what);
        }
    }

    std::printf("\nDiagnostics: %s\n", trace->diagnostics.empty() ? "none" : "");
    constexpr const char* kSeverity[] = {"info", "warning", "error"};
    for (const auto& d : trace->diagnostics)
        std::printf("  [%s] %s: %s\n", kSeverity[int(d.severity) % 3], d.source.c_str(), d.text.c_str());
    return 0;
}

} // namespace sightline::cli
