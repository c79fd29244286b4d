#include "model/nsys/sqlite_schema.h"

namespace sightline::nsys {
namespace {

constexpr std::string_view kInt = "INTEGER";
constexpr std::string_view kText = "TEXT";
constexpr std::string_view kReal = "REAL";
constexpr Constraint kNotNull = Constraint::NotNull;
constexpr Constraint kKey = Constraint::PrimaryKey;

constexpr ColumnSpec kStringIdsColumns[] = {{"id", kInt, kKey}, {"value", kText, kNotNull}};

constexpr ColumnSpec kThreadNamesColumns[]
    = {{"nameId", kInt, kNotNull}, {"priority", kInt}, {"globalTid", kInt}};

constexpr ColumnSpec kProcessesColumns[] = {{"globalPid", kInt}, {"pid", kInt}, {"name", kText}};

constexpr ColumnSpec kTargetInfoGpuColumns[] = {{"vmId", kInt, kNotNull}, {"id", kInt, kNotNull},
    {"name", kText}, {"busLocation", kText}, {"isDiscrete", kInt}, {"l2CacheSize", kInt},
    {"totalMemory", kInt}, {"memoryBandwidth", kInt}, {"clockRate", kInt}, {"smCount", kInt},
    {"pwGpuId", kInt}, {"uuid", kText}, {"luid", kInt}, {"chipName", kText}, {"cuDevice", kInt},
    {"ctxswDevPath", kText}, {"ctrlDevPath", kText}, {"revision", kInt}, {"nodeMask", kInt},
    {"constantMemory", kInt}, {"maxIPC", kInt}, {"maxRegistersPerBlock", kInt}, {"maxShmemPerBlock", kInt},
    {"maxShmemPerBlockOptin", kInt}, {"maxShmemPerSm", kInt}, {"maxRegistersPerSm", kInt},
    {"threadsPerWarp", kInt}, {"asyncEngines", kInt}, {"maxWarpsPerSm", kInt}, {"maxBlocksPerSm", kInt},
    {"maxThreadsPerBlock", kInt}, {"maxBlockDimX", kInt}, {"maxBlockDimY", kInt}, {"maxBlockDimZ", kInt},
    {"maxGridDimX", kInt}, {"maxGridDimY", kInt}, {"maxGridDimZ", kInt}, {"computeMajor", kInt},
    {"computeMinor", kInt}, {"smMajor", kInt}, {"smMinor", kInt}};

constexpr ColumnSpec kContextInfoColumns[] = {{"nullStreamId", kInt, kNotNull}, {"hwId", kInt, kNotNull},
    {"vmId", kInt, kNotNull}, {"processId", kInt, kNotNull}, {"deviceId", kInt, kNotNull},
    {"contextId", kInt, kNotNull}, {"parentContextId", kInt}, {"isGreenContext", kInt}};

constexpr ColumnSpec kCudaStreamColumns[] = {{"streamId", kInt, kNotNull}, {"hwId", kInt, kNotNull},
    {"vmId", kInt, kNotNull}, {"processId", kInt, kNotNull}, {"contextId", kInt, kNotNull},
    {"priority", kInt, kNotNull}, {"flag", kInt, kNotNull}};

constexpr ColumnSpec kSessionStartColumns[]
    = {{"utcEpochNs", kInt}, {"utcTime", kText}, {"localTime", kText}, {"systemClockNs", kInt}};

constexpr ColumnSpec kSystemEnvColumns[] = {{"globalVid", kInt}, {"devStateName", kText, kNotNull},
    {"name", kText, kNotNull}, {"nameEnum", kInt, kNotNull}, {"value", kText, kNotNull}};

constexpr ColumnSpec kAnalysisDetailsColumns[] = {{"globalVid", kInt, kNotNull}, {"duration", kInt, kNotNull},
    {"startTime", kInt, kNotNull}, {"stopTime", kInt, kNotNull}};

constexpr ColumnSpec kNameValueColumns[] = {{"name", kText, kNotNull}, {"value", kText}};

constexpr ColumnSpec kGpuMetricsColumns[] = {
    {"timestamp", kInt}, {"typeId", kInt, kNotNull}, {"metricId", kInt, kNotNull}, {"value", kInt, kNotNull}};
constexpr ColumnSpec kTargetInfoGpuMetricsColumns[]
    = {{"typeId", kInt, kNotNull}, {"sourceId", kInt, kNotNull}, {"typeName", kText, kNotNull},
        {"metricId", kInt, kNotNull}, {"metricName", kText, kNotNull}};

constexpr ColumnSpec kMemoryUsageColumns[] = {{"start", kInt, kNotNull}, {"globalPid", kInt, kNotNull},
    {"deviceId", kInt, kNotNull}, {"contextId", kInt, kNotNull}, {"address", kInt, kNotNull},
    {"pc", kInt, kNotNull}, {"bytes", kInt, kNotNull}, {"memKind", kInt, kNotNull},
    {"memoryOperationType", kInt, kNotNull}, {"name", kText}, {"correlationId", kInt}};

constexpr ColumnSpec kDiagnosticColumns[] = {{"timestamp", kInt, kNotNull}, {"timestampType", kInt, kNotNull},
    {"source", kInt, kNotNull}, {"severity", kInt, kNotNull}, {"text", kText, kNotNull}, {"globalPid", kInt}};

constexpr ColumnSpec kRuntimeColumns[] = {{"start", kInt, kNotNull}, {"end", kInt, kNotNull},
    {"eventClass", kInt, kNotNull}, {"globalTid", kInt}, {"correlationId", kInt}, {"nameId", kInt, kNotNull},
    {"returnValue", kInt, kNotNull}, {"callchainId", kInt}};

constexpr ColumnSpec kKernelColumns[] = {{"start", kInt, kNotNull}, {"end", kInt, kNotNull},
    {"deviceId", kInt, kNotNull}, {"contextId", kInt, kNotNull}, {"greenContextId", kInt},
    {"streamId", kInt, kNotNull}, {"correlationId", kInt}, {"globalPid", kInt},
    {"demangledName", kInt, kNotNull}, {"shortName", kInt, kNotNull}, {"mangledName", kInt},
    {"launchType", kInt}, {"cacheConfig", kInt}, {"registersPerThread", kInt, kNotNull},
    {"gridX", kInt, kNotNull}, {"gridY", kInt, kNotNull}, {"gridZ", kInt, kNotNull},
    {"blockX", kInt, kNotNull}, {"blockY", kInt, kNotNull}, {"blockZ", kInt, kNotNull},
    {"staticSharedMemory", kInt, kNotNull}, {"dynamicSharedMemory", kInt, kNotNull},
    {"localMemoryPerThread", kInt, kNotNull}, {"localMemoryTotal", kInt, kNotNull},
    {"gridId", kInt, kNotNull}, {"sharedMemoryExecuted", kInt}, {"graphNodeId", kInt},
    {"sharedMemoryLimitConfig", kInt}, {"qmdBulkReleaseDone", kInt}, {"qmdPreexitDone", kInt},
    {"qmdLastCtaDone", kInt}, {"graphId", kInt}, {"clusterX", kInt}, {"clusterY", kInt}, {"clusterZ", kInt},
    {"clusterSchedulingPolicy", kInt}, {"maxPotentialClusterSize", kInt}, {"maxActiveClusters", kInt},
    {"sharedMemoryRequestedPercentage", kInt}, {"tensorSizeMinusOneElements", kText, kNotNull}};

constexpr ColumnSpec kMemcpyColumns[] = {{"start", kInt, kNotNull}, {"end", kInt, kNotNull},
    {"deviceId", kInt, kNotNull}, {"contextId", kInt, kNotNull}, {"greenContextId", kInt},
    {"streamId", kInt, kNotNull}, {"correlationId", kInt}, {"globalPid", kInt}, {"bytes", kInt, kNotNull},
    {"copyKind", kInt, kNotNull}, {"deprecatedSrcId", kInt}, {"srcKind", kInt}, {"dstKind", kInt},
    {"srcDeviceId", kInt}, {"srcContextId", kInt}, {"dstDeviceId", kInt}, {"dstContextId", kInt},
    {"migrationCause", kInt}, {"graphNodeId", kInt}, {"virtualAddress", kInt}, {"copyCount", kInt}};

constexpr ColumnSpec kMemsetColumns[] = {{"start", kInt, kNotNull}, {"end", kInt, kNotNull},
    {"deviceId", kInt, kNotNull}, {"contextId", kInt, kNotNull}, {"greenContextId", kInt},
    {"streamId", kInt, kNotNull}, {"correlationId", kInt}, {"globalPid", kInt}, {"value", kInt, kNotNull},
    {"bytes", kInt, kNotNull}, {"graphNodeId", kInt}, {"memKind", kInt}};

constexpr ColumnSpec kSyncColumns[] = {{"start", kInt, kNotNull}, {"end", kInt, kNotNull},
    {"deviceId", kInt, kNotNull}, {"contextId", kInt, kNotNull}, {"greenContextId", kInt},
    {"streamId", kInt, kNotNull}, {"correlationId", kInt}, {"globalPid", kInt}, {"deprecatedSyncType", kInt},
    {"syncType", kInt, kNotNull}, {"eventId", kInt, kNotNull}, {"eventSyncId", kInt}};

constexpr ColumnSpec kNvtxColumns[] = {{"start", kInt, kNotNull}, {"end", kInt},
    {"eventType", kInt, kNotNull}, {"rangeId", kInt}, {"category", kInt}, {"color", kInt}, {"text", kText},
    {"globalTid", kInt}, {"endGlobalTid", kInt}, {"textId", kInt}, {"domainId", kInt}, {"uint64Value", kInt},
    {"int64Value", kInt}, {"doubleValue", kReal}, {"uint32Value", kInt}, {"int32Value", kInt},
    {"floatValue", kReal}, {"jsonTextId", kInt}, {"jsonText", kText}, {"binaryData", kText}};

constexpr ColumnSpec kOsrtColumns[] = {{"start", kInt, kNotNull}, {"end", kInt, kNotNull},
    {"eventClass", kInt, kNotNull}, {"globalTid", kInt}, {"nameId", kInt, kNotNull},
    {"returnValue", kInt, kNotNull}, {"nestingLevel", kInt}, {"callchainId", kInt}, {"argumentsId", kInt}};

constexpr ColumnSpec kOsrtCallchainColumns[] = {{"id", kInt, kNotNull}, {"symbol", kInt, kNotNull},
    {"module", kInt, kNotNull}, {"kernelMode", kInt}, {"thumbCode", kInt}, {"unresolved", kInt},
    {"specialEntry", kInt}, {"originalIP", kInt}, {"unwindMethod", kInt}, {"stackDepth", kInt, kNotNull}};

constexpr ColumnSpec kCompositeEventColumns[] = {{"id", kInt, kKey}, {"start", kInt, kNotNull}, {"cpu", kInt},
    {"threadState", kInt}, {"globalTid", kInt}, {"cpuCycles", kInt, kNotNull}};

constexpr ColumnSpec kSamplingCallchainColumns[] = {{"id", kInt, kNotNull}, {"symbol", kInt, kNotNull},
    {"module", kInt, kNotNull}, {"kernelMode", kInt}, {"thumbCode", kInt}, {"unresolved", kInt},
    {"specialEntry", kInt}, {"originalIP", kInt}, {"unwindMethod", kInt}, {"stackDepth", kInt, kNotNull}};

constexpr ColumnSpec kSchedColumns[] = {
    {"start", kInt, kNotNull}, {"cpu", kInt, kNotNull}, {"isSchedIn", kInt, kNotNull}, {"globalTid", kInt}};

constexpr ColumnSpec kCudaCallchainColumns[] = {{"id", kInt, kNotNull}, {"symbol", kInt, kNotNull},
    {"module", kInt, kNotNull}, {"unresolved", kInt}, {"originalIP", kInt}, {"stackDepth", kInt, kNotNull}};

constexpr ColumnSpec kEnumColumns[] = {{"id", kInt, kKey}, {"name", kText}, {"label", kText}};

template <class E> void addEnumRows(EnumTable& table, int count, int idOffset = 0)
{
    for (int i = 0; i < count; ++i)
        table.rows.push_back({i + idOffset, std::string(enumName(E(i))), std::string(label(E(i)))});
}

void addSameNameRows(EnumTable& table, std::initializer_list<std::pair<int, std::string_view>> rows)
{
    for (auto [id, name] : rows)
        table.rows.push_back({id, std::string(name), std::string(name)});
}

} // namespace

const TableSpec kStringIds {table::kStringIds, kStringIdsColumns};
const TableSpec kThreadNames {table::kThreadNames, kThreadNamesColumns};
const TableSpec kProcesses {table::kProcesses, kProcessesColumns};
const TableSpec kTargetInfoGpu {table::kTargetInfoGpu, kTargetInfoGpuColumns};
const TableSpec kTargetInfoCudaContextInfo {table::kTargetInfoCudaContextInfo, kContextInfoColumns};
const TableSpec kTargetInfoCudaStream {table::kTargetInfoCudaStream, kCudaStreamColumns};
const TableSpec kTargetInfoSessionStartTime {table::kTargetInfoSessionStartTime, kSessionStartColumns};
const TableSpec kTargetInfoSystemEnv {table::kTargetInfoSystemEnv, kSystemEnvColumns};
const TableSpec kAnalysisDetails {table::kAnalysisDetails, kAnalysisDetailsColumns};
const TableSpec kMetaDataCapture {table::kMetaDataCapture, kNameValueColumns};
const TableSpec kMetaDataExport {table::kMetaDataExport, kNameValueColumns};
const TableSpec kDiagnosticEvent {table::kDiagnosticEvent, kDiagnosticColumns};
const TableSpec kCudaRuntime {table::kCudaRuntime, kRuntimeColumns};
const TableSpec kCudaKernel {table::kCudaKernel, kKernelColumns};
const TableSpec kCudaMemcpy {table::kCudaMemcpy, kMemcpyColumns};
const TableSpec kCudaMemset {table::kCudaMemset, kMemsetColumns};
const TableSpec kGpuMetrics {table::kGpuMetrics, kGpuMetricsColumns};
const TableSpec kTargetInfoGpuMetrics {table::kTargetInfoGpuMetrics, kTargetInfoGpuMetricsColumns};
const TableSpec kCudaGpuMemoryUsageEvents {table::kCudaGpuMemoryUsageEvents, kMemoryUsageColumns};
const TableSpec kCudaSynchronization {table::kCudaSynchronization, kSyncColumns};
const TableSpec kNvtxEvents {table::kNvtxEvents, kNvtxColumns};
const TableSpec kOsrtApi {table::kOsrtApi, kOsrtColumns};
const TableSpec kOsrtCallchains {
    table::kOsrtCallchains, kOsrtCallchainColumns, "PRIMARY KEY (id, stackDepth)"};
const TableSpec kCompositeEvents {table::kCompositeEvents, kCompositeEventColumns};
const TableSpec kSamplingCallchains {
    table::kSamplingCallchains, kSamplingCallchainColumns, "PRIMARY KEY (id, stackDepth)"};
const TableSpec kSchedEvents {table::kSchedEvents, kSchedColumns};
const TableSpec kCudaCallchains {
    table::kCudaCallchains, kCudaCallchainColumns, "PRIMARY KEY (id, stackDepth)"};

std::string createTableSql(const TableSpec& table)
{
    std::string sql = "CREATE TABLE " + std::string(table.name) + " (";
    for (size_t i = 0; i < table.columns.size(); ++i) {
        const ColumnSpec& column = table.columns[i];
        if (i > 0) sql += ", ";
        sql += std::string(column.name) + " " + std::string(column.type);
        if (column.constraint == Constraint::NotNull) sql += " NOT NULL";
        if (column.constraint == Constraint::PrimaryKey) sql += " NOT NULL PRIMARY KEY";
    }
    if (!table.tableConstraint.empty()) sql += ", " + std::string(table.tableConstraint);
    return sql + ")";
}

std::string insertSql(const TableSpec& table)
{
    std::string sql = "INSERT INTO " + std::string(table.name) + " VALUES (";
    for (size_t i = 0; i < table.columns.size(); ++i)
        sql += i > 0 ? ", ?" : "?";
    return sql + ")";
}

std::vector<const TableSpec*> dataTables()
{
    return {&kStringIds, &kThreadNames, &kProcesses, &kTargetInfoGpu, &kTargetInfoCudaContextInfo,
        &kTargetInfoCudaStream, &kTargetInfoSessionStartTime, &kTargetInfoSystemEnv, &kAnalysisDetails,
        &kMetaDataCapture, &kMetaDataExport, &kDiagnosticEvent, &kCudaRuntime, &kCudaKernel, &kCudaMemcpy,
        &kCudaMemset, &kCudaSynchronization, &kNvtxEvents, &kOsrtApi, &kOsrtCallchains,
        &kTargetInfoGpuMetrics, &kGpuMetrics, &kCudaGpuMemoryUsageEvents, &kCompositeEvents,
        &kSamplingCallchains, &kSchedEvents, &kCudaCallchains};
}

TableSpec enumTableSpec(std::string_view tableName)
{
    return {tableName, kEnumColumns};
}

std::vector<EnumTable> enumTables()
{
    std::vector<EnumTable> tables;
    tables.reserve(16); // the references below stay valid while the tables are added

    EnumTable& copyKinds = tables.emplace_back(EnumTable {"ENUM_CUDA_MEMCPY_OPER", {}});
    addEnumRows<CopyKind>(copyKinds, kCopyKindCount);

    EnumTable& memoryKinds = tables.emplace_back(EnumTable {"ENUM_CUDA_MEM_KIND", {}});
    addEnumRows<MemoryKind>(memoryKinds, kMemoryKindCount);

    EnumTable& launchTypes = tables.emplace_back(EnumTable {"ENUM_CUDA_KERNEL_LAUNCH_TYPE", {}});
    launchTypes.rows.push_back({0, "CUDA_KERNEL_LAUNCH_TYPE_UNKNOWN", "Unknown"});
    addEnumRows<LaunchType>(launchTypes, kLaunchTypeCount, launchTypeValue(LaunchType::Regular));

    EnumTable& syncTypes = tables.emplace_back(EnumTable {"ENUM_CUPTI_SYNC_TYPE", {}});
    addEnumRows<SyncType>(syncTypes, kSyncTypeCount);

    EnumTable& eventTypes = tables.emplace_back(EnumTable {"ENUM_NSYS_EVENT_TYPE", {}});
    addSameNameRows(eventTypes,
        {{kEventTypeNvtxCategory, "NvtxCategory"}, {kEventTypeNvtxMark, "NvtxMark"}, {35, "NvtxPushRange"},
            {36, "NvtxPopRange"}, {37, "NvtxStartRange"}, {38, "NvtxEndRange"}, {39, "NvtxThread"},
            {kEventTypeNvtxPushPopRange, "NvtxPushPopRange"},
            {kEventTypeNvtxStartEndRange, "NvtxStartEndRange"},
            {kEventTypeNvtxDomainCreate, "NvtxDomainCreate"}, {76, "NvtxDomainDestroy"}});

    EnumTable& eventClasses = tables.emplace_back(EnumTable {"ENUM_NSYS_EVENT_CLASS", {}});
    eventClasses.rows = {
        {kEventClassCudaRuntime, "TRACE_PROCESS_EVENT_CUDA_RUNTIME", std::string(label(ApiClass::Runtime))},
        {kEventClassCudaDriver, "TRACE_PROCESS_EVENT_CUDA_DRIVER", std::string(label(ApiClass::Driver))},
        {kEventClassOsRuntime, "TRACE_PROCESS_EVENT_OS_RUNTIME", "OSRT runtime"}};

    EnumTable& streamTypes = tables.emplace_back(EnumTable {"ENUM_CUPTI_STREAM_TYPE", {}});
    streamTypes.rows
        = {{kStreamFlagUnknown, "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_UNKNOWN", "Unknown stream type"},
            {1, "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_DEFAULT", "Default stream"},
            {2, "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NON_BLOCKING", "Non-blocking stream"},
            {kStreamFlagNull, "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL", "Null stream"}};

    EnumTable& severities = tables.emplace_back(EnumTable {"ENUM_DIAGNOSTIC_SEVERITY_LEVEL", {}});
    severities.rows = {{0, "UnknownLevel", "Unknown"}, {kDiagnosticSeverityInfo, "Info", "Info"},
        {kDiagnosticSeverityWarning, "Warning", "Warning"}, {kDiagnosticSeverityError, "Error", "Error"},
        {4, "Verbose", "Verbose"}};

    EnumTable& sources = tables.emplace_back(EnumTable {"ENUM_DIAGNOSTIC_SOURCE_TYPE", {}});
    sources.rows
        = {{0, "UnknownSource", "Unknown source"}, {kDiagnosticSourceInjection, "Injection", "Injection"},
            {2, "Daemon", "Daemon"}, {kDiagnosticSourceAnalysis, "Analysis", "Analysis"}};

    EnumTable& timestampSources = tables.emplace_back(EnumTable {"ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE", {}});
    timestampSources.rows = {{0, "UnknownTimestamp", "Unknown timestamp"},
        {1, "TargetTimestamp", "Target timestamp"}, {2, "HostTimestamp", "Host timestamp"}};
    return tables;
}

int nvtxEventType(NvtxStyle style)
{
    switch (style) {
    case NvtxStyle::PushPop:
        return kEventTypeNvtxPushPopRange;
    case NvtxStyle::StartEnd:
        return kEventTypeNvtxStartEndRange;
    case NvtxStyle::Mark:
        return kEventTypeNvtxMark;
    }
    return kEventTypeNvtxPushPopRange; // not reached for valid styles
}

int eventClass(ApiClass apiClass)
{
    return apiClass == ApiClass::Driver ? kEventClassCudaDriver : kEventClassCudaRuntime;
}

} // namespace sightline::nsys
