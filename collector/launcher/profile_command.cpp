#include "collector/launcher/profile_command.h"

#include "collector/convert/assemble/spool_merge.h"
#include "collector/convert/decode/gpu_metrics_reader.h"
#include "collector/launcher/gpu_sampler_process.h"
#include "collector/launcher/inject_environment.h"
#include "collector/launcher/live_progress.h"
#include "collector/launcher/output_path.h"
#include "collector/launcher/profile_options.h"
#include "collector/launcher/target_process.h"
#include "collector/perf/cpu_recorder.h"
#include "collector/spool/cpu_recording_file.h"
#include "model/format/report_io.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <thread>
#include <unistd.h>

namespace sightline::collector {

namespace {

class Progress
{
public:
    explicit Progress(bool quiet)
        : m_quiet(quiet)
    { }
    void say(const std::string& line) const
    {
        if (!m_quiet) std::cerr << line << std::endl;
    }
    static void error(const std::string& sentence) { std::cerr << sentence << std::endl; }

private:
    bool m_quiet;
};

std::string hostName()
{
    char host[256] = {};
    return gethostname(host, sizeof(host) - 1) == 0 ? std::string(host) : std::string("host");
}

Result<std::string> makeSpoolDir()
{
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/sightline-spool-XXXXXX";
    if (mkdtemp(pattern.data())) return pattern;
    return Result<std::string>::failure("sightline profile: cannot create a temporary folder under "
        + pattern.substr(0, pattern.rfind('/')) + " (" + std::strerror(errno)
        + "); check that it is writable, or point TMPDIR at a folder that is.");
}

spool::TickSource launcherTickSource()
{
#if SIGHTLINE_HAS_TSC
    return spool::TickSource::Tsc;
#else
    return spool::TickSource::MonotonicNs;
#endif
}

// The exit code to return when the report could not be written: the target's, unless it
// succeeded, so scripts notice.
int failedReportCode(const TargetExit& exit)
{
    return exit.exitCode != 0 ? exit.exitCode : 1;
}

} // namespace

ProfileOutcome profile(const ProfileOptions& options)
{
    const Progress progress(options.quiet);
    const Result<std::string> library = findInjectionLibrary();
    if (!library) {
        Progress::error(library.error());
        return {1, {}};
    }
    const std::string host = hostName();
    std::string reportPath;
    if (!outputNeedsPid(options.output)) {
        Result<std::string> path = resolveReportPath(options.output, 0, host, options.forceOverwrite);
        if (!path) {
            Progress::error(path.error());
            return {1, {}};
        }
        reportPath = path.value();
    }
    const Result<std::string> madeSpoolDir = makeSpoolDir();
    if (!madeSpoolDir) {
        Progress::error(madeSpoolDir.error());
        return {1, {}};
    }
    const std::string& spoolDir = madeSpoolDir.value();

    const TargetEnvironment env
        = buildTargetEnvironment(options, library.value(), findCuptiLibrary(), spoolDir);
    for (const std::string& warning : env.warnings)
        Progress::error(warning);
    SessionInfo session;
    session.spoolDir = spoolDir;
    session.command = options.command;
    session.options = options.conversion();
    std::error_code cwdError;
    session.workingDirectory = std::filesystem::current_path(cwdError).string();
    session.launcherTicks = launcherTickSource();

    // GPU metrics: the sampler runs beside the target, from before it starts until it exits.
    GpuSamplerProcess sampler;
    std::string samplerProblem;
    if (options.gpuMetrics()) {
        progress.say("Starting GPU metrics sampling...");
        if (Status started = sampler.start(options, spoolDir, findCuptiLibrary()); !started) {
            samplerProblem = started.error();
            Progress::error(samplerProblem);
        }
    }

    progress.say("Collecting data...");
    TargetProcess target;
    session.start = spool::samplePair(session.launcherTicks);
    // CPU samples and thread states: perf events opened on the child before it execs.
    std::unique_ptr<CpuRecorder> cpuRecorder;
    auto startCpuRecording = [&](pid_t child) {
        cpuRecorder = std::make_unique<CpuRecorder>(
            child, options.cpu, spoolDir + "/" + spool::cpu_recording::kFileName);
        for (const std::string& warning : cpuRecorder->warnings())
            Progress::error("sightline profile: " + warning + ".");
    };
    Result<pid_t> started = options.cpu.any()
        ? target.start(options.command, env.entries, options.showOutput, startCpuRecording)
        : target.start(options.command, env.entries, options.showOutput);
    if (!started) {
        Progress::error(started.error());
        std::filesystem::remove_all(spoolDir, cwdError);
        return {127, {}};
    }
    session.targetPid = uint32_t(started.value());
    std::optional<Duration> stopAfter;
    if (options.capture.duration) stopAfter = options.capture.delay.value_or(0) + *options.capture.duration;
    // SIGHTLINE_PROGRESS_INTERVAL=SECONDS: a progress line that often while the target runs.
    const char* intervalText = std::getenv("SIGHTLINE_PROGRESS_INTERVAL");
    const double interval = intervalText ? std::atof(intervalText) : 0.0;
    SpoolEventCounter counter(spoolDir);
    const auto began = std::chrono::steady_clock::now();
    auto reportProgress = [&] {
        char line[128];
        const double elapsed
            = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
        std::snprintf(line, sizeof line, "Collecting data: %.1f s, %llu events so far", elapsed,
            static_cast<unsigned long long>(counter.count()));
        progress.say(line);
    };
    const TargetExit exit = target.wait(stopAfter, reportProgress, Duration(interval * 1e9));
    session.end = spool::samplePair(session.launcherTicks);
    sampler.stop();
    if (cpuRecorder) cpuRecorder->stop();

    if (reportPath.empty()) {
        Result<std::string> path
            = resolveReportPath(options.output, session.targetPid, host, options.forceOverwrite);
        if (!path) {
            Progress::error(path.error());
            return {failedReportCode(exit), {}};
        }
        reportPath = path.value();
    }
    MergedReport merged = mergeSpools(session);
    if (!samplerProblem.empty())
        merged.trace.diagnostics.push_back({Severity::Warning, "collector", samplerProblem});
    // What went wrong with GPU metrics is said here too, not only in the report (a sampler that
    // did not start was said above).
    for (const Diagnostic& d : merged.trace.diagnostics)
        if (d.source == kGpuMetricsSource && d.severity != Severity::Info) Progress::error(d.text);
    progress.say("Processing " + std::to_string(merged.events) + " events from "
        + std::to_string(merged.spoolFiles) + " process recording(s)...");
    // The spool files are read: they go (hundreds of megabytes take a while) as the report is written.
    std::jthread removeSpool;
    if (!std::getenv("SIGHTLINE_KEEP_SPOOL"))
        removeSpool = std::jthread([&spoolDir] {
            std::error_code ignored;
            std::filesystem::remove_all(spoolDir, ignored);
        });
    const auto writeStart = std::chrono::steady_clock::now();
    const Status written = writeReport(merged.trace, reportPath);
    merged.phaseSeconds.emplace_back(
        "write report", std::chrono::duration<double>(std::chrono::steady_clock::now() - writeStart).count());
    if (std::getenv("SIGHTLINE_TIMINGS")) {
        for (const auto& [phase, seconds] : merged.phaseSeconds)
            progress.say("  " + phase + ": " + std::to_string(seconds) + " s");
        progress.say("  cpu: " + std::to_string(merged.cpu.samples) + " samples, "
            + std::to_string(merged.cpu.states) + " thread states, " + std::to_string(merged.cpu.eventStacks)
            + " API call stacks");
    }
    if (removeSpool.joinable()) removeSpool.join();
    if (!written) {
        Progress::error(written.error());
        return {failedReportCode(exit), {}};
    }
    progress.say("Generated: " + reportPath);
    return {exit.exitCode, reportPath};
}

} // namespace sightline::collector
