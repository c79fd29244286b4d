#include "collector/convert/assemble/spool_merge.h"

#include "collector/convert/assemble/gpu_metrics_assembly.h"
#include "collector/convert/assemble/host_metadata.h"
#include "collector/convert/assemble/memory_usage_assembly.h"
#include "collector/convert/decode/clock_map.h"
#include "collector/convert/decode/process_capture.h"
#include "collector/convert/decode/spool_reader.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <thread>

namespace sightline::collector {

namespace {

// Image number of a spool file: 0 for "<pid>.spool", n for "<pid>.<n>.spool".
int imageIndex(const std::string& path)
{
    const std::string stem = std::filesystem::path(path).stem().string(); // "<pid>" or "<pid>.<n>"
    const size_t dot = stem.find('.');
    if (dot == std::string::npos) return 0;
    try {
        return std::stoi(stem.substr(dot + 1));
    } catch (...) {
        return 0;
    }
}

struct SpoolSet
{
    std::vector<SpoolFile> files;
    std::vector<Diagnostic> problems;
};

SpoolSet readAll(const std::string& folder, size_t chunkBytes)
{
    SpoolSet set;
    std::vector<std::string> paths = listSpoolFiles(folder);
    std::stable_sort(paths.begin(), paths.end(),
        [](const std::string& a, const std::string& b) { return imageIndex(a) < imageIndex(b); });
    for (const std::string& path : paths) {
        Result<SpoolFile> file = readSpoolFile(path, chunkBytes);
        if (file)
            set.files.push_back(std::move(file.value()));
        else
            set.problems.push_back({Severity::Warning, "collector", file.error()});
    }
    return set;
}

ClockMap buildClockMap(const SessionInfo& session, const std::vector<SpoolFile>& files)
{
    ClockMap clock;
    for (const SpoolFile& file : files) {
        if (file.header.tickSource != spool::TickSource::Tsc) continue;
        for (const spool::ClockSyncRecord* pair : file.clockPairs())
            clock.addPair(pair->ticks, pair->monotonicNs);
    }
    if (session.launcherTicks == spool::TickSource::Tsc) {
        clock.addPair(session.start.ticks, session.start.monotonicNs);
        clock.addPair(session.end.ticks, session.end.monotonicNs);
    }
    clock.finish();
    return clock;
}

void fillMetadata(const SessionInfo& session, const std::vector<ProcessCapture>& processes, ReportMetadata& m)
{
    m.toolVersion = std::string("sightline ") + SIGHTLINE_VERSION;
    m.producer = "sightline profile";
    m.commandLine = session.command;
    m.workingDirectory = session.workingDirectory;
    m.startTimeUtcNs = session.start.realtimeNs;
    m.options = session.options.metadata;
    uint32_t cupti = 0;
    for (const ProcessCapture& p : processes) {
        cupti = std::max(cupti, p.cuptiVersion);
        if (p.process.pid.value == session.targetPid) m.environment = p.environment;
    }
    m.cuptiVersion = cuptiVersionText(cupti);
    for (const auto& [name, value] : session.options.environment)
        if (std::none_of(
                m.environment.begin(), m.environment.end(), [&](const auto& kv) { return kv.first == name; }))
            m.environment.emplace_back(name, value);
}

} // namespace

MergedReport mergeSpools(const SessionInfo& session)
{
    MergedReport merged;
    auto lap = [&merged, last = std::chrono::steady_clock::now()](const char* phase) mutable {
        const auto now = std::chrono::steady_clock::now();
        merged.phaseSeconds.emplace_back(phase, std::chrono::duration<double>(now - last).count());
        last = now;
    };
    SpoolSet set = readAll(session.spoolDir, session.spoolChunkBytes);
    lap("read spools");
    merged.spoolFiles = set.files.size();
    const ClockMap clock = buildClockMap(session, set.files);

    TraceBuilder builder;
    std::map<uint32_t, std::vector<const SpoolFile*>> byProcess;
    for (const SpoolFile& file : set.files)
        byProcess[file.header.pid].push_back(&file);
    const DecodeOptions decode {session.start.monotonicNs, session.options.osrtThresholdNs};
    std::vector<ProcessCapture> processes;
    bool sawGpu = false;
    for (const auto& [pid, files] : byProcess) {
        processes.push_back(decodeProcess(files, clock, decode, builder));
        sawGpu = sawGpu || !processes.back().gpus.empty();
    }
    const bool tracedInside = std::find(session.options.metadata.begin(), session.options.metadata.end(),
                                  std::pair<std::string, std::string>("trace", "none"))
        == session.options.metadata.end();
    if (byProcess.count(session.targetPid) == 0) {
        // Nothing recorded for the target itself (a static or setuid program ignores the
        // injection): it still appears, with its command line.
        ProcessCapture target;
        target.process = {Pid(session.targetPid),
            std::filesystem::path(session.command.front()).filename().string(), session.command};
        if (tracedInside)
            target.diagnostics.push_back({Severity::Warning, "collector",
                "Nothing was recorded inside process " + std::to_string(session.targetPid)
                    + " (a static or setuid program does not load the collector)."});
        processes.push_back(std::move(target));
    }

    lap("decode spools");
    const HostFacts host = session.queryHost ? collectHostFacts(sawGpu) : HostFacts {};
    lap("host facts");
    for (ProcessCapture& p : processes)
        completeGpus(p.gpus, host.gpus);
    fillMetadata(session, processes, builder.metadata());
    applyHostFacts(host, builder.metadata());
    if (builder.metadata().hostname.empty() && !processes.empty())
        builder.metadata().hostname = processes.front().hostname;

    const Timestamp sessionEnd = session.end.monotonicNs - session.start.monotonicNs;
    const CaptureWindows windows
        = CaptureWindows::compute(session.options.capture, processes, builder, sessionEnd);
    if (session.options.capture.mode != CaptureMode::None && windows.windows().empty())
        builder.addDiagnostic({Severity::Warning, "collector",
            "The capture range never opened (no cudaProfilerStart, or no NVTX range of that "
            "name), so the report holds no events."});
    for (const Diagnostic& d : set.problems)
        builder.addDiagnostic(d);
    merged.stats = assembleTrace(processes, windows, builder);
    std::vector<Gpu> gpus;
    for (const ProcessCapture& p : processes)
        gpus.insert(gpus.end(), p.gpus.begin(), p.gpus.end());
    addGpuMetrics(
        readGpuMetricsFiles(session.spoolDir), session.start.monotonicNs, sessionEnd, gpus, builder);
    if (const size_t unmatched = addMemoryUsage(processes, sessionEnd, builder); unmatched > 0)
        builder.addDiagnostic({Severity::Info, "collector",
            std::to_string(unmatched)
                + " GPU memory releases were of memory allocated before recording began; the memory row "
                  "counts from zero."});
    merged.events = builder.eventCount();
    lap("assemble events");
    const std::string cpuFile = session.spoolDir + "/" + spool::cpu_recording::kFileName;
    if (Result<PerfRecording> cpu = readPerfRecording(cpuFile))
        merged.cpu = addCpuProfile(
            cpu.value(), session.start.monotonicNs, sessionEnd, processes, session.options.cpu, builder);
    else
        builder.addDiagnostic({Severity::Warning, "cpu sampling", cpu.error()});
    lap("cpu samples");
    {
        // The decoded events and the mapped spool files are no longer needed: they are freed
        // (hundreds of megabytes take a while) as the trace is built.
        std::jthread release([processes = std::move(processes), files = std::move(set.files)] {});
        merged.trace = builder.build();
    }
    lap("build trace");
    return merged;
}

} // namespace sightline::collector
