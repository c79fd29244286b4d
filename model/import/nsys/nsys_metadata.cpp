// Report metadata from the export's name/value tables: META_DATA_EXPORT (EXPORT_META_DATA before
// schema 3), META_DATA_CAPTURE (the profiled command, collection options; SIGHTLINE_* rows from
// Sightline's exporter), TARGET_INFO_SYSTEM_ENV (host, OS, CPU, driver), the session start
// time, the analysed span, and nsys' own diagnostics.
#include "model/import/nsys/nsys_importer.h"
#include "model/nsys/global_id.h"
#include "model/nsys/sqlite_schema.h"
#include "model/text/text_format.h"

#include <charconv>
#include <cstdint>
#include <map>

namespace sightline::nsys_import {
namespace {

std::optional<int64_t> integerText(std::string_view text)
{
    int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

// Older exports write the driver version without dots ("52510517" for 525.105.17): three
// digits of major version, two of patch level, the minor version between.
std::string driverVersionText(std::string text)
{
    const bool digitsOnly = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
    if (!digitsOnly || (text.size() != 7 && text.size() != 8)) return text;
    return text.substr(0, 3) + "." + text.substr(3, text.size() - 5) + "." + text.substr(text.size() - 2);
}

// A command line as the rows give it: the command at 0, argument n at n + 1. Kept by position
// (a file may name argument 99,999 of a thousand processes), listed in order without gaps.
using CommandLineParts = std::map<int64_t, std::string>;

std::vector<std::string> inOrder(CommandLineParts parts)
{
    std::vector<std::string> list;
    list.reserve(parts.size());
    for (auto& [position, text] : parts)
        list.push_back(std::move(text));
    return list;
}

} // namespace

void Importer::readExportMetadata()
{
    const char* table = m_db.hasTable(nsys::table::kMetaDataExport) ? nsys::table::kMetaDataExport
                                                                    : nsys::table::kExportMetaData;
    if (!m_db.hasTable(table)) return;
    constexpr Column kColumns[] = {{"name", true}, {"value", false}};
    SqliteRows rows = select(table, kColumns);
    std::string product, version;
    while (rows.next()) {
        const std::string_view name = rows.text(0), value = rows.text(1);
        if (name == "EXPORT_SCHEMA_VERSION")
            m_schemaVersion = value;
        else if (name == "EXPORT_PRODUCT_NAME")
            product = value;
        else if (name == "EXPORT_PRODUCT_VERSION")
            version = value;
    }
    m_fromSightline = product == "Sightline";
    ReportMetadata& m = m_builder.metadata();
    m.producer = "nsys sqlite import";
    if (!product.empty()) m.toolVersion = product + (version.empty() ? "" : " " + version);
    const int64_t major = integerText(m_schemaVersion.substr(0, m_schemaVersion.find('.'))).value_or(0);
    if (major > 3)
        m_builder.addDiagnostic({Severity::Warning, "import",
            "The file was exported with schema " + m_schemaVersion
                + ", newer than the 3.x that Sightline knows; some data may be missing."});
}

void Importer::readCaptureMetadata()
{
    if (!m_db.hasTable(nsys::table::kMetaDataCapture)) return;
    constexpr Column kColumns[] = {{"name", true}, {"value", false}};
    SqliteRows rows = select(nsys::table::kMetaDataCapture, kColumns);
    ReportMetadata& m = m_builder.metadata();
    std::map<int64_t, uint32_t> pidOfProcessIndex; // PROCESS_n -> its PID row
    std::map<int64_t, CommandLineParts> commandLines; // PROCESS_n -> command line
    std::string captured;
    while (rows.next()) {
        const std::string_view name = rows.text(0);
        const std::string value(rows.text(1));
        if (name == "SIGHTLINE_TOOL_VERSION")
            m.toolVersion = value;
        else if (name == "SIGHTLINE_PRODUCER")
            m.producer = value;
        else if (name == "SIGHTLINE_CUDA_VERSION")
            m.cudaVersion = value;
        else if (name == "SIGHTLINE_CUPTI_VERSION")
            m.cuptiVersion = value;
        else if (name.starts_with("SIGHTLINE_OPTION:"))
            m.options.emplace_back(std::string(name.substr(17)), value);
        else if (name == "CAPTURE_EVENT_TYPE")
            captured += (captured.empty() ? "" : ",") + value;
        else if (name == nsys::kCaptureSamplingPeriodNs)
            m_capturedSamplingPeriod = std::max<int64_t>(0, integerText(value).value_or(0));
        else if (name == nsys::kCaptureSamplingRateHz && m_capturedSamplingPeriod == 0)
            if (const int64_t hz = integerText(value).value_or(0); hz > 0)
                m_capturedSamplingPeriod = (1'000'000'000 + hz / 2) / hz;
        if (!name.starts_with("PROCESS_")) continue;
        // PROCESS_<n>:<field>
        const size_t colon = name.find(':');
        const std::optional<int64_t> index = integerText(name.substr(8, colon - 8));
        if (!index || colon == std::string_view::npos) continue;
        const std::string_view field = name.substr(colon + 1);
        if (field == "COMMAND")
            commandLines[*index][0] = value;
        else if (field.starts_with("ARGUMENT_")) {
            if (const auto argument = integerText(field.substr(9));
                argument && *argument >= 0 && *argument < INT64_MAX)
                commandLines[*index][*argument + 1] = value;
        } else if (field == "PID") {
            pidOfProcessIndex[*index] = uint32_t(integerText(value).value_or(0));
        } else if (*index == 0 && field == "WORKING_DIR") {
            m.workingDirectory = value;
        } else if (*index == 0 && field == "ENVIRONMENT_VARIABLE") {
            const size_t equals = value.find('=');
            std::string variable = value.substr(equals == std::string::npos ? value.size() : equals + 1);
            if (variable.size() >= 2 && variable.front() == '"' && variable.back() == '"')
                variable = variable.substr(1, variable.size() - 2);
            m.environment.emplace_back(value.substr(0, equals), std::move(variable));
        }
    }
    if (!captured.empty() && !m_fromSightline) m.options.emplace_back("nsys capture", captured);
    // PROCESS_0 is the launched command; the others are processes nsys (or Sightline) lists.
    for (auto& [index, commandLine] : commandLines) {
        if (index == 0) {
            m.commandLine = inOrder(std::move(commandLine));
        } else if (const auto pid = pidOfProcessIndex.find(index);
                   pid != pidOfProcessIndex.end() && pid->second) {
            Process& process = m_processes[pid->second];
            process.pid = Pid(pid->second);
            process.commandLine = inOrder(std::move(commandLine));
        }
    }
}

void Importer::readSystemEnvironment()
{
    if (!m_db.hasTable(nsys::table::kTargetInfoSystemEnv)) return;
    constexpr Column kColumns[] = {{"name", true}, {"value", true}};
    SqliteRows rows = select(nsys::table::kTargetInfoSystemEnv, kColumns);
    ReportMetadata& m = m_builder.metadata();
    std::map<std::string, std::string, std::less<>> values; // the first value of each name
    while (rows.next())
        values.try_emplace(std::string(rows.text(0)), std::string(rows.text(1)));
    auto get = [&](std::string_view name) {
        const auto it = values.find(name);
        return it == values.end() ? std::string() : it->second;
    };
    m.hostname = get("Hostname");
    m.osName = get("OsDescription");
    if (const std::string kernel = get("SoftwareReleaseVersion"); !kernel.empty() && !m.osName.empty())
        m.osName += " (Linux " + kernel + ")";
    m.cpuModel = get("CpuDescription");
    m.cpuCores = uint32_t(integerText(get("CpuCores")).value_or(0));
    m.driverVersion = driverVersionText(get("NvDriverVersion"));
    if (m.cudaVersion.empty())
        if (const auto cuda = integerText(get("CudaDriverVersion")); cuda && *cuda > 0)
            m.cudaVersion = cudaVersionText(*cuda);
}

void Importer::readSessionTimes()
{
    if (m_db.hasTable(nsys::table::kTargetInfoSessionStartTime)) {
        constexpr Column kColumns[] = {{"utcEpochNs", false}};
        SqliteRows rows = select(nsys::table::kTargetInfoSessionStartTime, kColumns);
        if (rows.next()) m_builder.metadata().startTimeUtcNs = rows.integerOr(0, 0);
    }
    if (m_db.hasTable(nsys::table::kAnalysisDetails)) {
        constexpr Column kColumns[] = {{"stopTime", false}};
        SqliteRows rows = select(nsys::table::kAnalysisDetails, kColumns);
        while (rows.next())
            if (const std::optional<Timestamp> stop = timeIn(rows, 0))
                m_analysisEnd = std::max(m_analysisEnd, *stop);
    }
}

void Importer::readDiagnostics()
{
    if (!m_db.hasTable(nsys::table::kDiagnosticEvent)) return;
    constexpr Column kColumns[] = {{"severity", false}, {"source", false}, {"text", true}};
    SqliteRows rows = select(nsys::table::kDiagnosticEvent, kColumns);
    while (rows.next()) {
        // ENUM_DIAGNOSTIC_SEVERITY_LEVEL: 1 info, 2 warning, 3 error, 4 verbose;
        // ENUM_DIAGNOSTIC_SOURCE_TYPE: 1 injection, 2 daemon, 3 analysis.
        const int64_t severity = rows.integerOr(0, 1);
        const int64_t source = rows.integerOr(1, 0);
        Diagnostic d;
        d.severity = severity == 3 ? Severity::Error : severity == 2 ? Severity::Warning : Severity::Info;
        d.source = source == 1 ? "collector" : source == 2 ? "daemon" : source == 3 ? "analysis" : "nsys";
        d.text = rows.text(2);
        m_builder.addDiagnostic(std::move(d));
    }
}

} // namespace sightline::nsys_import
