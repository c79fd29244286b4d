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

ClockMap buildClockMap(const SessionInfo& session, const std::vector<const SpoolFile*>& files)
{
    ClockMap clock;
    for (const SpoolFile* file : files) {
        if (file->header.tickSource != spool::TickSource::Tsc) continue;
        for (const spool::ClockSyncRecord* pair : file->clockPairs())
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

// Times the phases of a conversion into MergedReport::phaseSeconds.
class PhaseClock
{
public:
    explicit PhaseClock(MergedReport& merged)
        : m_merged(merged)
    { }
    void lap(const char* phase)
    {
        const auto now = std::chrono::steady_clock::now();
        m_merged.phaseSeconds.emplace_back(phase, std::chrono::duration<double>(now - m_last).count());
        m_last = now;
    }

private:
    MergedReport& m_merged;
    std::chrono::steady_clock::time_point m_last = std::chrono::steady_clock::now();
};

// Every process decoded: one per pid that has spool files, in pid order, and the target's even
// when nothing was recorded inside it.
std::vector<ProcessCapture> decodeProcesses(const SessionInfo& session,
    const std::vector<const SpoolFile*>& files, const ClockMap& clock, TraceBuilder& builder)
{
    std::map<uint32_t, std::vector<const SpoolFile*>> byProcess;
    for (const SpoolFile* file : files)
        byProcess[file->header.pid].push_back(file);
    const DecodeOptions decode {session.start.monotonicNs, session.options.osrtThresholdNs};
    std::vector<ProcessCapture> processes;
    for (const auto& [pid, processFiles] : byProcess)
        processes.push_back(decodeProcess(processFiles, clock, decode, builder));
    const bool tracedInside = std::find(session.options.metadata.begin(), session.options.metadata.end(),
                                  std::pair<std::string, std::string>("trace", "none"))
        == session.options.metadata.end();
    if (byProcess.count(session.targetPid) == 0) {
        // Nothing recorded for the target itself (a static or setuid program ignores the
        // injection): it still appears, with its command line.
        ProcessCapture target;
        const std::string name = session.command.empty()
            ? std::string()
            : std::filesystem::path(session.command.front()).filename().string();
        target.process = {Pid(session.targetPid), name, session.command};
        if (tracedInside)
            target.diagnostics.push_back({Severity::Warning, "collector",
                "Nothing was recorded inside process " + std::to_string(session.targetPid)
                    + " (a static or setuid program does not load the collector)."});
        processes.push_back(std::move(target));
    }
    return processes;
}

// The report's metadata: the session's, the host's facts and the processes'.
void describeSession(const SessionInfo& session, std::vector<ProcessCapture>& processes,
    TraceBuilder& builder, PhaseClock& phases)
{
    const bool sawGpu = std::any_of(
        processes.begin(), processes.end(), [](const ProcessCapture& p) { return !p.gpus.empty(); });
    const HostFacts host = session.queryHost ? collectHostFacts(sawGpu) : HostFacts {};
    phases.lap("host facts");
    for (ProcessCapture& p : processes)
        completeGpus(p.gpus, host.gpus);
    fillMetadata(session, processes, builder.metadata());
    applyHostFacts(host, builder.metadata());
    if (builder.metadata().hostname.empty() && !processes.empty())
        builder.metadata().hostname = processes.front().hostname;
}

// The events inside the capture windows, GPU metrics and memory usage into the builder.
void addEvents(const SessionInfo& session, std::vector<ProcessCapture>& processes,
    const std::vector<Diagnostic>& problems, TraceBuilder& builder, MergedReport& merged)
{
    const Timestamp sessionEnd = session.end.monotonicNs - session.start.monotonicNs;
    const CaptureWindows windows
        = CaptureWindows::compute(session.options.capture, processes, builder, sessionEnd);
    if (session.options.capture.mode != CaptureMode::None && windows.windows().empty())
        builder.addDiagnostic({Severity::Warning, "collector",
            "The capture range never opened (no cudaProfilerStart, or no NVTX range of that "
            "name), so the report holds no events."});
    for (const Diagnostic& d : problems)
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
}

// What the trace is made of, before it is built.
struct Assembly
{
    TraceBuilder builder;
    std::vector<ProcessCapture> processes;
};

Assembly assemble(
    const SpoolCursor& cursor, const SessionInfo& session, MergedReport& merged, PhaseClock& phases)
{
    Assembly a;
    const std::vector<const SpoolFile*> files = cursor.files();
    merged.spoolFiles = files.size();
    a.processes = decodeProcesses(session, files, buildClockMap(session, files), a.builder);
    phases.lap("decode spools");
    describeSession(session, a.processes, a.builder, phases);
    addEvents(session, a.processes, cursor.problems(), a.builder, merged);
    phases.lap("assemble events");
    const Timestamp sessionEnd = session.end.monotonicNs - session.start.monotonicNs;
    const std::string cpuFile = session.spoolDir + "/" + spool::cpu_recording::kFileName;
    if (Result<PerfRecording> cpu = readPerfRecording(cpuFile))
        merged.cpu = addCpuProfile(
            cpu.value(), session.start.monotonicNs, sessionEnd, a.processes, session.options.cpu, a.builder);
    else
        a.builder.addDiagnostic({Severity::Warning, "cpu sampling", cpu.error()});
    phases.lap("cpu samples");
    return a;
}

// Builds the trace while what is no longer needed (the decoded events, and the mapped spool
// files when the cursor is spent: hundreds of megabytes take a while) is freed.
template <class... Spent> void build(Assembly& a, MergedReport& merged, PhaseClock& phases, Spent&&... spent)
{
    {
        std::jthread release([processes = std::move(a.processes), ... spent = std::move(spent)] {});
        merged.trace = a.builder.build();
    }
    phases.lap("build trace");
}

} // namespace

MergedReport assembleReport(const SpoolCursor& cursor, const SessionInfo& session)
{
    MergedReport merged;
    PhaseClock phases(merged);
    Assembly a = assemble(cursor, session, merged, phases);
    build(a, merged, phases);
    return merged;
}

MergedReport mergeSpools(const SessionInfo& session)
{
    MergedReport merged;
    PhaseClock phases(merged);
    SpoolCursor cursor(session.spoolDir, session.spoolChunkBytes);
    cursor.advance();
    phases.lap("read spools");
    Assembly a = assemble(cursor, session, merged, phases);
    build(a, merged, phases, std::move(cursor));
    return merged;
}

} // namespace sightline::collector
