// `sightline info FILE`: what a report holds, at a glance.
#include "app/cli/cli_args.h"
#include "app/cli/commands.h"
#include "model/format/report_io.h"
#include "model/format/report_outline.h"

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

// The outline from the report's small chunks when it stores its spans (format 1.1 on) and is
// whole, else from the whole file opened (a cut one says what was recovered); a 1.0 report
// gets a hint to rewrite it. Errors go to stderr.
std::optional<ReportOutline> outlineFile(const std::string& path)
{
    if (looksLikeReport(path)) {
        Result<std::optional<ReportOutline>> read = readReportOutline(path);
        if (!read) {
            std::fprintf(stderr, "sightline: %s\n", read.error().c_str());
            return std::nullopt;
        }
        if (read.value()) return std::move(*read.value());
    }
    std::optional<Trace> trace = openTraceOrReport(path);
    if (!trace) return std::nullopt;
    if (trace->storedFormat.major == 1 && trace->storedFormat.minor == 0) // 1.0 stores no spans
        std::fprintf(stderr,
            "Note: this report was written by an older Sightline; rewrite it with "
            "'sightline import %s -o NEW.rep' and NEW.rep opens faster.\n",
            path.c_str());
    return outlineOf(std::move(*trace));
}

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
    const std::optional<ReportOutline> outline = outlineFile(files[0]);
    if (!outline) return 1;
    const Trace& base = outline->base;
    const ReportMetadata& m = base.metadata;

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
    for (const auto& gpu : base.gpus)
        std::printf("  GPU %-16u %s, cc %u.%u, %u SMs, %.1f GB, %s, bus %s\n", gpu.device.value,
            gpu.name.c_str(), gpu.computeMajor, gpu.computeMinor, gpu.smCount, double(gpu.memoryBytes) / 1e9,
            gpu.uuid.c_str(), gpu.busId.c_str());

    const TimeRange span = outline->span.value_or(TimeRange {});
    std::printf("\nTime span: %.6f s (%lld ns to %lld ns)\n", double(span.duration()) / 1e9,
        static_cast<long long>(span.start), static_cast<long long>(span.end));
    std::printf("Processes: %zu, threads: %zu, GPUs: %zu, streams: %zu, rows: %zu\n", base.processes.size(),
        base.threads.size(), base.gpus.size(), base.streams.size(), outline->tracks.size());
    std::printf("\nEvents: %llu\n", static_cast<unsigned long long>(outline->eventCount()));
    for (int k = 0; k < kTrackKindCount; ++k)
        std::printf("  %-24s %llu\n", eventKind(TrackKind(k)).title,
            static_cast<unsigned long long>(outline->eventCount(TrackKind(k))));
    if (outline->cpuSamples > 0 || outline->threadStates > 0)
        std::printf("  %-24s %llu samples, %llu thread states\n", "CPU profile",
            static_cast<unsigned long long>(outline->cpuSamples),
            static_cast<unsigned long long>(outline->threadStates));

    if (!outline->counters.empty()) {
        std::printf("\nCounter series: %zu\n", outline->counters.size());
        for (const CounterOutline& counter : outline->counters) {
            const CounterSeries& series = counter.series;
            const Duration length = counter.span ? counter.span->duration() : 0;
            const bool ofProcess = series.source == CounterSource::Process;
            const char* what = ofProcess                    ? "process counter"
                : series.source == CounterSource::GpuMemory ? "memory in use"
                                                            : "GPU metrics";
            const std::string label
                = series.unit.empty() ? series.name : series.name + " [" + series.unit + "]";
            std::printf("  %s %-3u %-18s %llu samples over %.3f s (%s)\n", ofProcess ? "PID" : "GPU",
                ofProcess ? series.pid.value : series.device.value, label.c_str(),
                static_cast<unsigned long long>(counter.samples), double(length) / 1e9, what);
        }
    }

    std::printf("\nDiagnostics: %s\n", base.diagnostics.empty() ? "none" : "");
    constexpr const char* kSeverity[] = {"info", "warning", "error"};
    for (const auto& d : base.diagnostics)
        std::printf("  [%s] %s: %s\n", kSeverity[int(d.severity) % 3], d.source.c_str(), d.text.c_str());
    return 0;
}

} // namespace sightline::cli
