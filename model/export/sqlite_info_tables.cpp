// The descriptive tables of the SQLite export: processes, threads, GPUs, CUDA contexts and
// streams, the session start time and span, the report metadata, diagnostics and the export's
// own metadata. Facts nsys has a place for go there (hostname and OS in TARGET_INFO_SYSTEM_ENV,
// the profiled command line in META_DATA_CAPTURE's PROCESS_0 rows); the few nsys has no place
// for (tool versions, producer, collection options) are META_DATA_CAPTURE rows named SIGHTLINE_*.
#include "model/export/sqlite_tables.h"
#include "model/nsys/global_id.h"

#include <chrono>
#include <ctime>

namespace sightline::sqlite_export {
namespace {

constexpr int64_t kVmId = 0; // the VM id Sightline writes in every global id

std::string isoUtcTime(int64_t epochNanoseconds)
{
    const std::time_t seconds = std::time_t(epochNanoseconds / 1'000'000'000);
    std::tm parts {};
    gmtime_r(&seconds, &parts);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &parts);
    return text;
}

// nsys prints GPU UUIDs without nvidia-smi's "GPU-" prefix.
std::string_view nsysUuid(std::string_view uuid)
{
    return uuid.starts_with("GPU-") ? uuid.substr(4) : uuid;
}

void writeProcessesAndThreads(SqliteDatabase& db, const Trace& trace, ExportStrings& strings)
{
    SqliteInsert processes(db, nsys::kProcesses);
    for (const Process& p : trace.processes)
        processes.integer(globalPid(p.pid)).integer(p.pid.value).text(p.name).insertRow();

    SqliteInsert threads(db, nsys::kThreadNames);
    for (const Thread& t : trace.threads)
        threads.integer(strings.idOf(t.name)).null().integer(globalTid(t.pid, t.tid)).insertRow();
}

void writeGpus(SqliteDatabase& db, const Trace& trace)
{
    SqliteInsert rows(db, nsys::kTargetInfoGpu);
    for (const Gpu& g : trace.gpus) {
        rows.integer(kVmId)
            .integer(g.device.value)
            .text(g.name)
            .text(g.busId)
            .null(2) // isDiscrete, l2CacheSize
            .integer(int64_t(g.memoryBytes))
            .null() // memoryBandwidth
            .integer(int64_t(g.coreClockKHz) * 1000) // clockRate (Hz)
            .integer(g.smCount)
            .null() // pwGpuId
            .text(nsysUuid(g.uuid))
            .null(2) // luid, chipName
            .integer(g.device.value) // cuDevice
            .null(22) // ctxswDevPath ... maxGridDimZ
            .integer(g.computeMajor)
            .integer(g.computeMinor)
            .integer(g.computeMajor) // smMajor
            .integer(g.computeMinor) // smMinor
            .insertRow();
    }
}

void writeContextsAndStreams(SqliteDatabase& db, const Trace& trace)
{
    SqliteInsert contexts(db, nsys::kTargetInfoCudaContextInfo);
    for (const CudaContext& c : trace.contexts) {
        int64_t nullStream = 0;
        for (const CudaStream& s : trace.streams)
            if (s.isDefault && s.pid == c.pid && s.device == c.device && s.context == c.context)
                nullStream = s.stream.value;
        contexts.integer(nullStream)
            .integer(0) // hwId
            .integer(kVmId)
            .integer(c.pid.value)
            .integer(c.device.value)
            .integer(c.context.value)
            .null() // parentContextId
            .integer(0) // isGreenContext
            .insertRow();
    }

    SqliteInsert streams(db, nsys::kTargetInfoCudaStream);
    for (const CudaStream& s : trace.streams) {
        streams.integer(s.stream.value)
            .integer(0) // hwId
            .integer(kVmId)
            .integer(s.pid.value)
            .integer(s.context.value)
            .integer(uint32_t(s.priority)) // nsys stores the priority as an unsigned 32-bit value
            .integer(s.isDefault ? nsys::kStreamFlagNull : nsys::kStreamFlagUnknown)
            .insertRow();
    }
}

void writeSessionTables(SqliteDatabase& db, const Trace& trace)
{
    const ReportMetadata& m = trace.metadata;
    SqliteInsert start(db, nsys::kTargetInfoSessionStartTime);
    const std::string utc = isoUtcTime(m.startTimeUtcNs);
    start.integer(m.startTimeUtcNs).text(utc).text(utc).integer(0).insertRow();

    SqliteInsert details(db, nsys::kAnalysisDetails);
    const Timestamp first = std::min<Timestamp>(0, trace.span.start);
    const Timestamp last = std::max(first, trace.span.end);
    details.integer(kVmId).integer(last - first).integer(first).integer(last).insertRow();

    SqliteInsert env(db, nsys::kTargetInfoSystemEnv);
    auto addEnv = [&](std::string_view name, int nameEnum, std::string_view value) {
        env.integer(kVmId).text("Local").text(name).integer(nameEnum).text(value).insertRow();
    };
    const std::string cores = std::to_string(m.cpuCores);
    addEnv("CpuCores", nsys::kSystemEnvCpuCores, cores);
    addEnv("CpuDescription", nsys::kSystemEnvCpuDescription, m.cpuModel);
    addEnv("NvDriverVersion", nsys::kSystemEnvNvDriverVersion, m.driverVersion);
    addEnv("OsDescription", nsys::kSystemEnvOsDescription, m.osName);
    addEnv("Hostname", nsys::kSystemEnvHostname, m.hostname);
}

void writeCaptureMetadata(SqliteDatabase& db, const Trace& trace)
{
    const ReportMetadata& m = trace.metadata;
    SqliteInsert rows(db, nsys::kMetaDataCapture);
    auto add
        = [&](const std::string& name, std::string_view value) { rows.text(name).text(value).insertRow(); };
    add("SIGHTLINE_TOOL_VERSION", m.toolVersion);
    add("SIGHTLINE_PRODUCER", m.producer);
    add("SIGHTLINE_CUDA_VERSION", m.cudaVersion);
    add("SIGHTLINE_CUPTI_VERSION", m.cuptiVersion);
    for (const auto& [key, value] : m.options)
        add("SIGHTLINE_OPTION:" + key, value);

    // The launched command as nsys records it, then every process's own command line.
    auto addCommandLine = [&](const std::string& prefix, const std::vector<std::string>& args) {
        if (args.empty()) return;
        add(prefix + "COMMAND", args[0]);
        for (size_t i = 1; i < args.size(); ++i)
            add(prefix + "ARGUMENT_" + std::to_string(i - 1), args[i]);
    };
    addCommandLine("PROCESS_0:", m.commandLine);
    add("PROCESS_0:WORKING_DIR", m.workingDirectory);
    for (const auto& [key, value] : m.environment)
        add("PROCESS_0:ENVIRONMENT_VARIABLE", key + "=\"" + value + "\"");
    int index = 1;
    for (const Process& p : trace.processes) {
        if (p.commandLine.empty()) continue;
        const std::string prefix = "PROCESS_" + std::to_string(index++) + ":";
        add(prefix + "PID", std::to_string(p.pid.value));
        addCommandLine(prefix, p.commandLine);
    }
}

void writeDiagnostics(SqliteDatabase& db, const Trace& trace)
{
    SqliteInsert rows(db, nsys::kDiagnosticEvent);
    for (const Diagnostic& d : trace.diagnostics) {
        const int severity = d.severity == Severity::Error ? nsys::kDiagnosticSeverityError
            : d.severity == Severity::Warning              ? nsys::kDiagnosticSeverityWarning
                                                           : nsys::kDiagnosticSeverityInfo;
        const int source
            = d.source == "collector" ? nsys::kDiagnosticSourceInjection : nsys::kDiagnosticSourceAnalysis;
        rows.integer(0).integer(0).integer(source).integer(severity).text(d.text).null().insertRow();
    }
}

void writeExportMetadata(SqliteDatabase& db, const ExportOptions& options, const std::string& outputPath)
{
    SqliteInsert rows(db, nsys::kMetaDataExport);
    auto add
        = [&](std::string_view name, const std::string& value) { rows.text(name).text(value).insertRow(); };
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    add("EXPORT_PRODUCT_NAME", "Sightline");
    add("EXPORT_PRODUCT_VERSION", SIGHTLINE_VERSION);
    add("EXPORT_SCHEMA_VERSION", std::string(nsys::kSchemaVersion));
    add("EXPORT_SCHEMA_VERSION_MAJOR", std::to_string(nsys::kSchemaVersionMajor));
    add("EXPORT_SCHEMA_VERSION_MINOR", std::to_string(nsys::kSchemaVersionMinor));
    add("EXPORT_SCHEMA_VERSION_MICRO", std::to_string(nsys::kSchemaVersionMicro));
    add("EXPORT_TIME_UTC", isoUtcTime(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count()));
    add("EXPORT_PARAM_EXPORT_TYPE", "SQLite");
    if (!options.sourcePath.empty()) add("EXPORT_PARAM_INPUT_PATH", options.sourcePath);
    add("EXPORT_PARAM_OUTPUT_PATH", outputPath);
    add("EXPORT_PARAM_OVERWRITE", options.overwrite ? "true" : "false");
    add("EXPORT_PARAM_LAZY", "false");
}

} // namespace

void writeEntityTables(SqliteDatabase& db, const Trace& trace, ExportStrings& strings)
{
    writeProcessesAndThreads(db, trace, strings);
    writeGpus(db, trace);
    writeContextsAndStreams(db, trace);
}

void writeMetadataTables(
    SqliteDatabase& db, const Trace& trace, const ExportOptions& options, const std::string& outputPath)
{
    writeSessionTables(db, trace);
    writeCaptureMetadata(db, trace);
    writeDiagnostics(db, trace);
    writeExportMetadata(db, options, outputPath);
}

} // namespace sightline::sqlite_export
