// Processes, threads, GPUs, CUDA contexts and streams. nsys lists every process of the machine
// (PROCESSES) and every thread it saw (ThreadNames); Sightline keeps the ones that own events,
// except in files Sightline itself exported, which list exactly the report's entities.
#include "model/import/nsys/nsys_importer.h"
#include "model/nsys/global_id.h"
#include "model/nsys/sqlite_schema.h"

namespace sightline::nsys_import {
namespace {

// ENUM_CUPTI_STREAM_TYPE value of the NULL (default) stream.
constexpr int64_t kNullStreamFlag = 3;

} // namespace

void Importer::readProcesses()
{
    if (!m_db.hasTable(nsys::table::kProcesses)) return;
    constexpr Column kColumns[] = {{"globalPid", false}, {"pid", false}, {"name", false}};
    SqliteRows rows = select(nsys::table::kProcesses, kColumns);
    while (rows.next()) {
        const uint32_t pid
            = rows.isNull(1) ? pidOfGlobalId(rows.integerOr(0, 0)).value : uint32_t(rows.integer(1));
        Process& process = m_processes[pid];
        process.pid = Pid(pid);
        process.name = rows.text(2);
    }
}

void Importer::readThreadNames()
{
    if (!m_db.hasTable(nsys::table::kThreadNames)) return;
    constexpr Column kColumns[] = {{"nameId", true}, {"globalTid", true}};
    SqliteRows rows = select(nsys::table::kThreadNames, kColumns);
    while (rows.next()) {
        const int64_t thread = rows.integer(1);
        m_threadNames[{pidOfGlobalId(thread).value, tidOfGlobalId(thread).value}]
            = std::string(textOf(rows.integer(0)));
    }
}

void Importer::addProcessesAndThreads()
{
    std::set<uint32_t> pidsWithEvents;
    for (const auto& [pid, tid] : m_tracks.hostThreads())
        pidsWithEvents.insert(pid);
    for (const auto& [pid, device, context] : m_tracks.gpuContexts())
        pidsWithEvents.insert(pid);
    // Threads with samples or scheduling but no events exist too, named or not.
    for (const auto& [pid, tid] : m_cpuThreads) {
        pidsWithEvents.insert(pid);
        m_processes.try_emplace(pid, Process {Pid(pid), {}, {}});
        m_threadNames.try_emplace({pid, tid});
    }
    for (auto& [pid, process] : m_processes)
        if (m_fromSightline || pidsWithEvents.count(pid)) m_builder.addProcess(std::move(process));
    for (auto& [thread, name] : m_threadNames)
        if (m_fromSightline || m_tracks.hostThreads().count(thread) || m_cpuThreads.count(thread))
            m_builder.addThread({Pid(thread.first), Tid(thread.second), std::move(name)});
}

void Importer::readGpus()
{
    if (!m_db.hasTable(nsys::table::kTargetInfoGpu)) return;
    enum { kId, kCuDevice, kName, kBus, kMemory, kClock, kSms, kUuid, kMajor, kMinor };
    constexpr Column kColumns[] = {{"id", false}, {"cuDevice", false}, {"name", false},
        {"busLocation", false}, {"totalMemory", false}, {"clockRate", false}, {"smCount", false},
        {"uuid", false}, {"computeMajor", false}, {"computeMinor", false}};
    SqliteRows rows = select(nsys::table::kTargetInfoGpu, kColumns);
    while (rows.next()) {
        Gpu gpu;
        // Activity rows name GPUs by CUDA device ordinal, which is cuDevice (id is nsys' own).
        gpu.device
            = DeviceId(uint32_t(rows.isNull(kCuDevice) ? rows.integerOr(kId, 0) : rows.integer(kCuDevice)));
        gpu.name = rows.text(kName);
        gpu.busId = rows.text(kBus);
        gpu.memoryBytes = uint64_t(rows.integerOr(kMemory, 0));
        gpu.coreClockKHz = uint32_t(rows.integerOr(kClock, 0) / 1000); // nsys stores Hz
        gpu.smCount = uint32_t(rows.integerOr(kSms, 0));
        // nsys writes UUIDs without the "GPU-" that nvidia-smi (and the model) puts first.
        const std::string_view uuid = rows.text(kUuid);
        gpu.uuid
            = uuid.empty() || uuid.starts_with("GPU-") ? std::string(uuid) : std::string("GPU-").append(uuid);
        gpu.computeMajor = uint32_t(rows.integerOr(kMajor, 0));
        gpu.computeMinor = uint32_t(rows.integerOr(kMinor, 0));
        m_builder.addGpu(std::move(gpu));
    }
}

void Importer::readContextsAndStreams()
{
    for (const auto& [pid, device, context] : m_tracks.gpuContexts())
        m_contextDevices[{pid, context}] = device;
    if (m_db.hasTable(nsys::table::kTargetInfoCudaContextInfo)) {
        constexpr Column kColumns[] = {{"processId", true}, {"deviceId", true}, {"contextId", true}};
        SqliteRows rows = select(nsys::table::kTargetInfoCudaContextInfo, kColumns);
        while (rows.next()) {
            const CudaContext context {Pid(uint32_t(rows.integer(0))), DeviceId(uint32_t(rows.integer(1))),
                ContextId(uint32_t(rows.integer(2)))};
            m_contextDevices[{context.pid.value, context.context.value}] = context.device.value;
            m_builder.addContext(context);
        }
    }
    // Schema 2.x names each context's default stream in a table of its own.
    if (m_db.hasTable(nsys::table::kTargetInfoCudaNullStream)) {
        constexpr Column kColumns[]
            = {{"streamId", true}, {"processId", true}, {"deviceId", true}, {"contextId", true}};
        SqliteRows rows = select(nsys::table::kTargetInfoCudaNullStream, kColumns);
        while (rows.next()) {
            const CudaStream stream {Pid(uint32_t(rows.integer(1))), DeviceId(uint32_t(rows.integer(2))),
                ContextId(uint32_t(rows.integer(3))), StreamId(uint32_t(rows.integer(0))), 0, true};
            m_contextDevices[{stream.pid.value, stream.context.value}] = stream.device.value;
            m_builder.addStream(stream);
        }
    }
    if (!m_db.hasTable(nsys::table::kTargetInfoCudaStream)) return;
    constexpr Column kColumns[] = {
        {"streamId", true}, {"processId", true}, {"contextId", true}, {"priority", false}, {"flag", false}};
    SqliteRows rows = select(nsys::table::kTargetInfoCudaStream, kColumns);
    while (rows.next()) {
        const uint32_t pid = uint32_t(rows.integer(1));
        const uint32_t context = uint32_t(rows.integer(2));
        const auto device = m_contextDevices.find({pid, context});
        if (device == m_contextDevices.end()) continue; // a context with no known GPU: nothing to place
        CudaStream stream;
        stream.pid = Pid(pid);
        stream.device = DeviceId(device->second);
        stream.context = ContextId(context);
        stream.stream = StreamId(uint32_t(rows.integer(0)));
        stream.priority = int32_t(uint32_t(rows.integerOr(3, 0))); // nsys stores it as unsigned
        stream.isDefault = rows.integerOr(4, 0) == kNullStreamFlag;
        m_builder.addStream(stream);
    }
}

} // namespace sightline::nsys_import
