// The Nsight Systems SQLite export schema, as data: each table Sightline writes, with nsys'
// column names, types and NOT NULL constraints in nsys' order (EXPORT_SCHEMA_VERSION 3.x as
// written by nsys 2024-2026), plus the numeric values nsys uses in those columns and the
// contents of the ENUM_* tables. CREATE TABLE and INSERT statements are generated from these
// specs, so a table's columns are listed exactly once. The SQLite importer reads the same names.
#pragma once

#include "model/core/enums.h"
#include "model/core/event_kinds.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::nsys {

enum class Constraint : uint8_t { Nullable, NotNull, PrimaryKey };

struct ColumnSpec
{
    std::string_view name;
    std::string_view type; // "INTEGER", "TEXT" or "REAL"
    Constraint constraint = Constraint::Nullable;
};

struct TableSpec
{
    std::string_view name;
    std::span<const ColumnSpec> columns;
    std::string_view tableConstraint = {}; // e.g. "PRIMARY KEY (id, stackDepth)"
};

std::string createTableSql(const TableSpec& table);
// "INSERT INTO name VALUES (?, ?, ...)" with one placeholder per column.
std::string insertSql(const TableSpec& table);

// The names of the tables above, for the importer and the exporter alike.
namespace table {
inline constexpr const char* kStringIds = "StringIds";
inline constexpr const char* kThreadNames = "ThreadNames";
inline constexpr const char* kProcesses = "PROCESSES";
inline constexpr const char* kTargetInfoGpu = "TARGET_INFO_GPU";
inline constexpr const char* kTargetInfoCudaContextInfo = "TARGET_INFO_CUDA_CONTEXT_INFO";
inline constexpr const char* kTargetInfoCudaStream = "TARGET_INFO_CUDA_STREAM";
inline constexpr const char* kTargetInfoSessionStartTime = "TARGET_INFO_SESSION_START_TIME";
inline constexpr const char* kTargetInfoSystemEnv = "TARGET_INFO_SYSTEM_ENV";
inline constexpr const char* kAnalysisDetails = "ANALYSIS_DETAILS";
inline constexpr const char* kMetaDataCapture = "META_DATA_CAPTURE";
inline constexpr const char* kMetaDataExport = "META_DATA_EXPORT";
inline constexpr const char* kDiagnosticEvent = "DIAGNOSTIC_EVENT";
// The tables of events, as the table of event kinds names them.
inline constexpr const char* kCudaRuntime = eventKind(TrackKind::CudaApi).nsysTable;
inline constexpr const char* kCudaKernel = eventKind(TrackKind::Kernels).nsysTable;
inline constexpr const char* kCudaMemcpy = eventKind(TrackKind::Memory).nsysTable;
inline constexpr const char* kCudaMemset = eventKind(TrackKind::Memory).nsysTableVariant;
inline constexpr const char* kCudaSynchronization = eventKind(TrackKind::Synchronization).nsysTable;
inline constexpr const char* kNvtxEvents = eventKind(TrackKind::Nvtx).nsysTable;
inline constexpr const char* kOsrtApi = eventKind(TrackKind::OsRuntime).nsysTable;
inline constexpr const char* kOsrtCallchains = "OSRT_CALLCHAINS";
inline constexpr const char* kCompositeEvents = "COMPOSITE_EVENTS";
inline constexpr const char* kSamplingCallchains = "SAMPLING_CALLCHAINS";
inline constexpr const char* kSchedEvents = "SCHED_EVENTS";
inline constexpr const char* kCudaCallchains = "CUDA_CALLCHAINS";
inline constexpr const char* kGpuMetrics = "GPU_METRICS";
inline constexpr const char* kTargetInfoGpuMetrics = "TARGET_INFO_GPU_METRICS";
inline constexpr const char* kCudaGpuMemoryUsageEvents = "CUDA_GPU_MEMORY_USAGE_EVENTS";
// Read by the importer only: tables Sightline does not write, or their older names.
inline constexpr const char* kTargetInfoCudaNullStream = "TARGET_INFO_CUDA_NULL_STREAM";
inline constexpr const char* kExportMetaData = "EXPORT_META_DATA";
} // namespace table

extern const TableSpec kStringIds;
extern const TableSpec kThreadNames;
extern const TableSpec kProcesses;
extern const TableSpec kTargetInfoGpu;
extern const TableSpec kTargetInfoCudaContextInfo;
extern const TableSpec kTargetInfoCudaStream;
extern const TableSpec kTargetInfoSessionStartTime;
extern const TableSpec kTargetInfoSystemEnv;
extern const TableSpec kAnalysisDetails;
extern const TableSpec kMetaDataCapture;
extern const TableSpec kMetaDataExport;
extern const TableSpec kDiagnosticEvent;
extern const TableSpec kCudaRuntime;
extern const TableSpec kCudaKernel;
extern const TableSpec kCudaMemcpy;
extern const TableSpec kCudaMemset;
extern const TableSpec kGpuMetrics; // timestamp, typeId, metricId, value
extern const TableSpec kTargetInfoGpuMetrics; // typeId, sourceId, typeName, metricId, metricName
extern const TableSpec kCudaGpuMemoryUsageEvents; // start, ..., bytes, memKind, memoryOperationType
// GPU_METRICS' typeId of a GPU's metrics: this plus its device number (sourceId is the device).
inline constexpr int64_t kGpuMetricsTypeBase = 0x10000;
extern const TableSpec kCudaSynchronization;
extern const TableSpec kNvtxEvents;
extern const TableSpec kOsrtApi;
extern const TableSpec kOsrtCallchains;
// The CPU side, with the columns of nsys 2022.2 (schema 2.9): thread samples and their call
// stacks (stackDepth 0 is the leaf), scheduling, and the backtraces of CUDA calls.
extern const TableSpec kCompositeEvents; // id, start, cpu, threadState, globalTid, cpuCycles
extern const TableSpec kSamplingCallchains; // id, symbol, module, kernelMode, ..., stackDepth
extern const TableSpec kSchedEvents; // start, cpu, isSchedIn, globalTid
extern const TableSpec kCudaCallchains; // id, symbol, module, unresolved, originalIP, stackDepth

// Every table above, in creation order (the ENUM_* tables come from enumTables()).
std::vector<const TableSpec*> dataTables();

// ENUM_* tables: (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT).
struct EnumRow
{
    int64_t id = 0;
    std::string name;
    std::string label;
};
struct EnumTable
{
    std::string_view tableName;
    std::vector<EnumRow> rows;
};
std::vector<EnumTable> enumTables();
// The spec of an ENUM_* table; `tableName` must outlive it (the names of enumTables() do).
TableSpec enumTableSpec(std::string_view tableName);

// The version written to META_DATA_EXPORT.
constexpr std::string_view kSchemaVersion = "3.28.1";
constexpr int kSchemaVersionMajor = 3, kSchemaVersionMinor = 28, kSchemaVersionMicro = 1;

// META_DATA_CAPTURE rows of CPU sampling: nsys' rate, and Sightline's exact period.
inline constexpr const char* kCaptureSamplingRateHz = "RATE_HZ";
inline constexpr const char* kCaptureSamplingPeriodNs = "SIGHTLINE_SAMPLING_PERIOD_NS";

// ENUM_NSYS_EVENT_CLASS values.
constexpr int kEventClassCudaRuntime = 0;
constexpr int kEventClassCudaDriver = 1;
constexpr int kEventClassOsRuntime = 27;

// ENUM_NSYS_EVENT_TYPE values used in NVTX_EVENTS.eventType.
constexpr int kEventTypeNvtxCategory = 33;
constexpr int kEventTypeNvtxMark = 34;
constexpr int kEventTypeNvtxPushPopRange = 59;
constexpr int kEventTypeNvtxStartEndRange = 60;
constexpr int kEventTypeNvtxDomainCreate = 75;

int nvtxEventType(NvtxStyle style);
int eventClass(ApiClass apiClass);

// ENUM_CUDA_KERNEL_LAUNCH_TYPE has 0 = unknown, so nsys' value is LaunchType + 1.
constexpr int launchTypeValue(LaunchType type)
{
    return int(type) + 1;
}

// ENUM_CUPTI_STREAM_TYPE values used in TARGET_INFO_CUDA_STREAM.flag.
constexpr int kStreamFlagUnknown = 0;
constexpr int kStreamFlagNull = 3;

// TARGET_INFO_SYSTEM_ENV.nameEnum values.
constexpr int kSystemEnvCpuCores = 1;
constexpr int kSystemEnvCpuDescription = 13;
constexpr int kSystemEnvNvDriverVersion = 205;
constexpr int kSystemEnvOsDescription = 605;
constexpr int kSystemEnvHostname = 619;

// ENUM_DIAGNOSTIC_SEVERITY_LEVEL and ENUM_DIAGNOSTIC_SOURCE_TYPE values.
constexpr int kDiagnosticSeverityInfo = 1, kDiagnosticSeverityWarning = 2, kDiagnosticSeverityError = 3;
constexpr int kDiagnosticSourceInjection = 1, kDiagnosticSourceAnalysis = 3;

} // namespace sightline::nsys
