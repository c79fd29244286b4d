// The SQLite importer on small hand-written exports: an old (2.x) layout with every NVTX
// feature, the CUDA backtrace rows of eventClass 67, globalTids with a VM id, and the files
// it must refuse with a clear sentence.
#include "../../test_paths.h"
#include "../support/peak_memory.h"
#include "import_support.h"
#include "model/import/importers.h"
#include "model/trace/event_access.h"

#include <catch2/catch.hpp>

using namespace sightline;
using namespace sightline::test;

namespace {

// pid 1230493, threads 1230500 and 1230501, VM id 1 in the upper bits as real nsys writes.
constexpr const char* kOldSchemaExport = R"SQL(
CREATE TABLE EXPORT_META_DATA (name TEXT NOT NULL, value TEXT);
INSERT INTO EXPORT_META_DATA VALUES ('EXPORT_PRODUCT_NAME', 'NVIDIA Nsight Systems'),
    ('EXPORT_PRODUCT_VERSION', '2022.2.1.31'), ('EXPORT_SCHEMA_VERSION', '2.9.1');
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (0, 'cudaLaunchKernel_v7000'), (1, 'saxpy'),
    (2, 'void saxpy(int, float, float*, float*)'), (3, '_Z5saxpyifPfS_'), (4, 'MPI_Send'), (5, 'main'),
    (6, 'cuModuleGetLoadingMode'), (7, 'cudaLaunchKernel'), (8, 'pthread_mutex_lock'), (9, 'cuMemAlloc_v2');
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,
    globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL,
    callchainId INTEGER, name TEXT);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
    (1000, 5000, 0, 302119224788644, 10, 0, 0, NULL, NULL),
    (1000, 5000, 67, 302119224788644, 10, 7, 0, 0, NULL),
    (6000, 7000, 1, 302119224788644, 11, 6, 3, NULL, NULL),
    (8000, 9000, 1, 302119224788644, 12, 9, 0, NULL, NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
    contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
    demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, mangledName INTEGER, launchType INTEGER,
    cacheConfig INTEGER, registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL, gridY INTEGER NOT NULL,
    gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL,
    staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL, localMemoryPerThread INTEGER NOT NULL,
    localMemoryTotal INTEGER NOT NULL, gridId INTEGER NOT NULL, sharedMemoryExecuted INTEGER, graphNodeId INTEGER,
    sharedMemoryLimitConfig INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (7000, 9500, 0, 1, 7, 10, 302119223558144, 2, 1, 3, 1, 0, 24,
    4096, 2, 1, 256, 1, 1, 16, 48, 0, 0, 5, 0, NULL, NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
    contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
    bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL, deprecatedSrcId INTEGER, srcKind INTEGER, dstKind INTEGER,
    srcDeviceId INTEGER, srcContextId INTEGER, dstDeviceId INTEGER, dstContextId INTEGER, migrationCause INTEGER,
    graphNodeId INTEGER, virtualAddress INTEGER, name TEXT);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (10000, 12000, 0, 1, 12, NULL, 302119223558144, 262144000, 1, NULL,
    0, 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER,
    category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER,
    domainId INTEGER, uint64Value INTEGER, int64Value INTEGER, doubleValue REAL, uint32Value INTEGER,
    int32Value INTEGER, floatValue REAL, jsonTextId INTEGER, jsonText TEXT);
INSERT INTO NVTX_EVENTS VALUES
    (2000, 3000, 59, NULL, NULL, NULL, NULL, 302119224788644, NULL, 4, 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    (1500, NULL, 75, NULL, NULL, NULL, 'MPI', 302119224788644, NULL, NULL, 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    (1600, NULL, 39, NULL, NULL, NULL, 'MPI Rank 0', 302119224788644, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    (100, 9000, 59, NULL, 3, 4278255360, 'outer', 302119224788644, NULL, NULL, 0, NULL, NULL, NULL, NULL, -5, NULL, NULL, NULL),
    (200, 800, 59, NULL, NULL, NULL, 'inner', 302119224788644, NULL, NULL, 0, NULL, NULL, 2.5, NULL, NULL, NULL, NULL, NULL),
    (300, 4000, 60, NULL, NULL, NULL, 'async', 302119224788644, 302119224788645, NULL, 0, 77, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    (4500, NULL, 34, NULL, NULL, NULL, 'checkpoint', 302119224788644, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    (9800, NULL, 59, NULL, NULL, NULL, 'never closed', 302119224788645, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    (10, NULL, 33, NULL, 3, NULL, 'a category', 302119224788644, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    (20, 30, 48, NULL, NULL, NULL, 'something newer', 302119224788644, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
CREATE TABLE OSRT_API (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER,
    nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, nestingLevel INTEGER, callchainId INTEGER NOT NULL);
INSERT INTO OSRT_API VALUES (400, 700, 27, 302119224788645, 8, -1, 0, 0);
CREATE TABLE TARGET_INFO_CUDA_NULL_STREAM (streamId INTEGER NOT NULL, hwId INTEGER NOT NULL, vmId INTEGER NOT NULL,
    processId INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL);
INSERT INTO TARGET_INFO_CUDA_NULL_STREAM VALUES (7, 0, 1, 1230493, 0, 1);
CREATE TABLE TARGET_INFO_CUDA_STREAM (streamId INTEGER NOT NULL, hwId INTEGER NOT NULL, vmId INTEGER NOT NULL,
    processId INTEGER NOT NULL, contextId INTEGER NOT NULL, priority INTEGER NOT NULL, flag INTEGER NOT NULL);
INSERT INTO TARGET_INFO_CUDA_STREAM VALUES (12, 0, 1, 1230493, 1, 4294967291, 1), (40, 0, 1, 999, 5, 0, 1);
CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
INSERT INTO PROCESSES VALUES (302119223558144, 1230493, './saxpy-mpi-cuda'), (281474993487872, 1, 'systemd');
CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER);
INSERT INTO ThreadNames VALUES (5, 10, 302119224788644), (5, 10, 302119224788645), (5, 10, 281474993487873);
CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1687813257637297504, '2023-06-26T21:00:57', '');
CREATE TABLE ANALYSIS_DETAILS (globalVid INTEGER NOT NULL, duration INTEGER NOT NULL, startTime INTEGER NOT NULL,
    stopTime INTEGER NOT NULL);
INSERT INTO ANALYSIS_DETAILS VALUES (281474976710656, 50000, 0, 50000);
CREATE TABLE TARGET_INFO_SYSTEM_ENV (globalVid INTEGER NOT NULL, devStateName TEXT NOT NULL, name TEXT NOT NULL,
    nameEnum INTEGER NOT NULL, value TEXT NOT NULL);
INSERT INTO TARGET_INFO_SYSTEM_ENV VALUES (1, 'Local', 'Hostname', 619, 'login03'),
    (1, 'Local', 'OsDescription', 605, 'SUSE Linux Enterprise Server 15 SP4'),
    (1, 'Local', 'SoftwareReleaseVersion', 618, '5.14.21'), (1, 'Local', 'CpuCores', 1, '128'),
    (1, 'Local', 'NvDriverVersion', 205, '52510517'), (1, 'Local', 'CudaDriverVersion', 611, '12000');
CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, busLocation TEXT,
    totalMemory INTEGER, clockRate INTEGER, smCount INTEGER, uuid TEXT, cuDevice INTEGER, computeMajor INTEGER,
    computeMinor INTEGER);
INSERT INTO TARGET_INFO_GPU VALUES (1, 3, 'NVIDIA A100-SXM4-40GB', '0000:03:00.0', 42297524224, 1410000000, 108,
    '74e128b2-90b6-b409-07c8-33bee5ff6f88', 0, 8, 0);
)SQL";

const Track* findTrack(const Trace& trace, TrackKind kind, uint32_t tid, uint32_t domain = 0)
{
    for (const Track& t : trace.tracks)
        if (t.key.kind == kind && t.key.tid.value == tid && t.key.domain.value == domain) return &t;
    return nullptr;
}

const Thread* threadOf(const Trace& trace, uint32_t tid)
{
    for (const Thread& t : trace.threads)
        if (t.tid.value == tid) return &t;
    return nullptr;
}

bool hasDiagnostic(const Trace& trace, const std::string& part)
{
    for (const Diagnostic& d : trace.diagnostics)
        if (d.text.find(part) != std::string::npos) return true;
    return false;
}

// The NVTX event of a given name on a track, with its lane.
std::pair<NvtxEvent, uint32_t> nvtxNamed(const Trace& trace, const Track& track, std::string_view name)
{
    const TrackId id(uint32_t(&track - trace.tracks.data()));
    for (uint32_t i = 0; i < track.size(); ++i)
        if (trace.strings[track.events.name[i]] == name) return {nvtxAt(trace, {id, i}), track.laneOf(i)};
    FAIL("no NVTX event named " << name);
    return {};
}

} // namespace

TEST_CASE("An export in the 2.x layout imports with every NVTX feature")
{
    const auto path = scratchDir("nsys-old-schema") / "old.sqlite";
    makeDatabase(path, kOldSchemaExport);
    Result<Trace> imported = importNsysSqlite(path.string());
    INFO(imported.error());
    REQUIRE(imported);
    const Trace& trace = imported.value();
    constexpr uint32_t kMain = 1230500, kHelper = 1230501;

    SECTION("CUDA calls: version suffixes dropped, backtrace rows skipped, driver calls kept")
    {
        const Track* api = findTrack(trace, TrackKind::CudaApi, kMain);
        REQUIRE(api);
        CHECK(api->key.pid.value == 1230493);
        REQUIRE(api->size() == 3);
        const TrackId id(uint32_t(api - trace.tracks.data()));
        const ApiCall launch = apiCallAt(trace, {id, 0});
        CHECK(trace.strings[launch.name] == "cudaLaunchKernel");
        CHECK(launch.correlation.value == 10);
        const ApiCall driver = apiCallAt(trace, {id, 1});
        CHECK(trace.strings[driver.name] == "cuModuleGetLoadingMode");
        CHECK(driver.result.apiClass == ApiClass::Driver);
        CHECK(driver.result.returnCode == 3);
        CHECK(trace.strings[apiCallAt(trace, {id, 2}).name] == "cuMemAlloc_v2"); // a real name, not a version
        CHECK(hasDiagnostic(trace, "eventClass: 67 (1)"));
    }

    SECTION("kernels and copies keep their fields and find their launch")
    {
        REQUIRE(trace.eventCount(TrackKind::Kernels) == 1);
        for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
            const Track& track = trace.tracks[t];
            if (track.key.kind == TrackKind::Kernels) {
                CHECK(track.key.pid.value == 1230493);
                CHECK(track.key.stream.value == 7);
                const KernelEvent k = kernelAt(trace, {TrackId(t), 0});
                CHECK(trace.strings[k.name] == "void saxpy(int, float, float*, float*)");
                CHECK(trace.strings[k.launch.shortName] == "saxpy");
                CHECK(trace.strings[k.launch.mangledName] == "_Z5saxpyifPfS_");
                CHECK(k.launch.grid == std::array<uint32_t, 3> {4096, 2, 1});
                CHECK(k.launch.block == std::array<uint32_t, 3> {256, 1, 1});
                CHECK(k.launch.registersPerThread == 24);
                CHECK(k.launch.staticSharedMemory == 16);
                CHECK(k.launch.dynamicSharedMemory == 48);
                CHECK(k.launch.launchType == LaunchType::Regular);
                const auto call = trace.correlation.launchingCall(trace, {TrackId(t), 0});
                REQUIRE(call);
                CHECK(trace.strings[trace.track(call->track).events.name[call->index]] == "cudaLaunchKernel");
            }
            if (track.key.kind == TrackKind::Memory) {
                const MemoryEvent m = memoryAt(trace, {TrackId(t), 0});
                CHECK(m.bytes == 262144000);
                CHECK(m.op.copyKind == CopyKind::HtoD);
                CHECK(m.op.srcKind == MemoryKind::Pageable);
                CHECK(m.op.dstKind == MemoryKind::Device);
                CHECK(m.op.srcDevice.value == 0);
                CHECK(m.correlation.value == 0);
            }
        }
    }

    SECTION("NVTX: registered strings, domains named after use, colours, payloads, nesting, marks")
    {
        const Track* mpi = findTrack(trace, TrackKind::Nvtx, kMain, 1);
        REQUIRE(mpi);
        CHECK(trace.domainName(DomainId(1)) == "MPI");
        CHECK(nvtxNamed(trace, *mpi, "MPI_Send").first.attributes.domain.value == 1);

        const Track* main = findTrack(trace, TrackKind::Nvtx, kMain);
        REQUIRE(main);
        const auto [outer, outerLane] = nvtxNamed(trace, *main, "outer");
        CHECK(outerLane == 0);
        CHECK(outer.attributes.hasColor);
        CHECK(outer.attributes.color == 0xFF00FF00u);
        CHECK(outer.attributes.category == 3);
        CHECK(outer.attributes.payloadType == PayloadType::Int32);
        CHECK(outer.attributes.payload == uint32_t(-5));
        CHECK(outer.attributes.endThread.value == kMain);
        const auto [inner, innerLane] = nvtxNamed(trace, *main, "inner");
        CHECK(innerLane == 1);
        CHECK(inner.attributes.payloadType == PayloadType::Double);
        CHECK(std::bit_cast<double>(inner.attributes.payload) == 2.5);
        const auto [async, asyncLane] = nvtxNamed(trace, *main, "async");
        CHECK(async.attributes.style == NvtxStyle::StartEnd);
        CHECK(async.attributes.endThread.value == kHelper);
        CHECK(async.attributes.payloadType == PayloadType::UInt64);
        CHECK(async.attributes.payload == 77);
        const auto [mark, markLane] = nvtxNamed(trace, *main, "checkpoint");
        CHECK(mark.attributes.style == NvtxStyle::Mark);
        CHECK(mark.end == mark.start);

        const Track* helper = findTrack(trace, TrackKind::Nvtx, kHelper);
        REQUIRE(helper);
        const auto [open, openLane] = nvtxNamed(trace, *helper, "never closed");
        CHECK(open.end == 50000); // ANALYSIS_DETAILS.stopTime, past every event
        CHECK(hasDiagnostic(trace, "1 NVTX ranges without an end were closed at the end of the trace"));
        CHECK(hasDiagnostic(trace, "eventType: 48 (1)"));
        CHECK(trace.eventCount(TrackKind::Nvtx) == 6);
    }

    SECTION("entities: only processes and threads with events, NVTX thread names, GPUs, streams")
    {
        REQUIRE(trace.processes.size() == 1);
        CHECK(trace.processes[0].name == "./saxpy-mpi-cuda");
        REQUIRE(threadOf(trace, kMain));
        CHECK(threadOf(trace, kMain)->name == "MPI Rank 0");
        REQUIRE(threadOf(trace, kHelper));
        CHECK(threadOf(trace, kHelper)->name == "main");
        CHECK(trace.threads.size() == 2);

        REQUIRE(trace.gpus.size() == 1);
        const Gpu& gpu = trace.gpus[0];
        CHECK(gpu.device.value == 0);
        CHECK(gpu.uuid == "GPU-74e128b2-90b6-b409-07c8-33bee5ff6f88");
        CHECK(gpu.coreClockKHz == 1410000);
        CHECK(gpu.smCount == 108);
        CHECK(gpu.computeMajor == 8);

        bool defaultStream = false, priorityStream = false;
        for (const CudaStream& s : trace.streams) {
            CHECK(s.pid.value == 1230493); // stream 40 of an unknown context is dropped
            if (s.stream.value == 7) defaultStream = s.isDefault;
            if (s.stream.value == 12) priorityStream = s.priority == -5;
        }
        CHECK(defaultStream);
        CHECK(priorityStream);
    }

    SECTION("metadata")
    {
        const ReportMetadata& m = trace.metadata;
        CHECK(m.toolVersion == "NVIDIA Nsight Systems 2022.2.1.31");
        CHECK(m.producer == "nsys sqlite import");
        CHECK(m.hostname == "login03");
        CHECK(m.osName == "SUSE Linux Enterprise Server 15 SP4 (Linux 5.14.21)");
        CHECK(m.cpuCores == 128);
        CHECK(m.driverVersion == "525.105.17");
        CHECK(m.cudaVersion == "12.0");
        CHECK(m.startTimeUtcNs == 1687813257637297504);
    }
}

TEST_CASE("Files that are not Nsight Systems exports are refused with one sentence")
{
    const auto dir = scratchDir("nsys-refused");

    makeDatabase(dir / "other.sqlite", "CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES ('hi');");
    Result<Trace> r = importNsysSqlite((dir / "other.sqlite").string());
    REQUIRE(!r);
    CHECK_THAT(r.error(),
        Catch::StartsWith("Cannot import '") && Catch::Contains("not an Nsight Systems export")
            && Catch::EndsWith("."));

    makeDatabase(dir / "no-start.sqlite",
        "CREATE TABLE StringIds (id INTEGER, value TEXT); CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL "
        "(begin INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER, streamId INTEGER, demangledName "
        "INTEGER);"
        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1, 2, 0, 1, 7, 0);");
    r = importNsysSqlite((dir / "no-start.sqlite").string());
    REQUIRE(!r);
    CHECK_THAT(r.error(), Catch::Contains("CUPTI_ACTIVITY_KIND_KERNEL has no column 'start'"));

    makeDatabase(dir / "no-strings.sqlite",
        "CREATE TABLE OSRT_API (start INTEGER, end INTEGER, globalTid INTEGER, nameId INTEGER);"
        "INSERT INTO OSRT_API VALUES (1, 2, 3, 4);");
    r = importNsysSqlite((dir / "no-strings.sqlite").string());
    REQUIRE(!r);
    CHECK_THAT(r.error(), Catch::Contains("has no StringIds table"));

    writeFile(dir / "text.sqlite", std::string(4096, 'x'));
    r = importNsysSqlite((dir / "text.sqlite").string());
    REQUIRE(!r);
    CHECK_THAT(
        r.error(), Catch::StartsWith("Cannot import '" + (dir / "text.sqlite").string() + "': SQLite"));

    r = importNsysSqlite((dir / "missing.sqlite").string());
    REQUIRE(!r);
    CHECK_THAT(r.error(), Catch::StartsWith("Cannot open '"));
}

TEST_CASE("The SQLite importer reports progress in file bytes and stops when cancelled")
{
    const auto path = scratchDir("nsys-progress") / "many.sqlite";
    std::string sql
        = "CREATE TABLE StringIds (id INTEGER, value TEXT); INSERT INTO StringIds VALUES (0, 'read');"
          "CREATE TABLE OSRT_API (start INTEGER, end INTEGER, globalTid INTEGER, nameId INTEGER);"
          "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99999)"
          " INSERT INTO OSRT_API SELECT i * 10, i * 10 + 5, 16777217, 0 FROM n;";
    makeDatabase(path, sql);
    const uint64_t size = std::filesystem::file_size(path);

    std::vector<std::pair<uint64_t, uint64_t>> reports;
    ReadOptions options;
    options.progress = [&](uint64_t done, uint64_t total) { reports.emplace_back(done, total); };
    Result<Trace> r = importNsysSqlite(path.string(), options);
    REQUIRE(r);
    CHECK(r->eventCount(TrackKind::OsRuntime) == 100000);
    REQUIRE(reports.size() > 2);
    CHECK(reports.back() == std::pair(size, size));
    for (size_t i = 1; i < reports.size(); ++i)
        CHECK(reports[i].first >= reports[i - 1].first);

    std::atomic<bool> cancel {true};
    options.cancel = &cancel;
    Result<Trace> cancelled = importNsysSqlite(path.string(), options);
    REQUIRE(!cancelled);
    CHECK(cancelled.error() == "Importing '" + path.string() + "' was cancelled.");
}

TEST_CASE("Ids and argument numbers that claim to be huge cost no more memory than the rows hold")
{
    const auto dir = scratchDir("nsys-crafted");
    const long before = peakResidentKilobytes();
    // StringIds whose ids keep doubling (1, 2, 4, ... 2^40) name one OS runtime call each.
    makeDatabase(dir / "doubling.sqlite",
        "CREATE TABLE StringIds (id INTEGER, value TEXT);"
        "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 40)"
        "  INSERT INTO StringIds SELECT 1 << i, 'call' || i FROM n;"
        "CREATE TABLE OSRT_API (start INTEGER, end INTEGER, globalTid INTEGER, nameId INTEGER);"
        "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 40)"
        "  INSERT INTO OSRT_API SELECT i * 10, i * 10 + 5, 302119224788644, 1 << i FROM n;");
    Result<Trace> doubling = importNsysSqlite((dir / "doubling.sqlite").string());
    REQUIRE(doubling);
    REQUIRE(doubling->eventCount() == 41);
    const Track* calls = findTrack(doubling.value(), TrackKind::OsRuntime, 1230500);
    REQUIRE(calls != nullptr);
    CHECK(doubling->strings[calls->events.name[40]] == "call40"); // the largest id still names its call

    // A thousand processes each naming argument 99,999 of their command line, and one with two.
    makeDatabase(dir / "arguments.sqlite",
        "CREATE TABLE StringIds (id INTEGER, value TEXT); INSERT INTO StringIds VALUES (0, 'read');"
        "CREATE TABLE OSRT_API (start INTEGER, end INTEGER, globalTid INTEGER, nameId INTEGER);"
        "INSERT INTO OSRT_API VALUES (1, 2, 302119224788644, 0);"
        "CREATE TABLE META_DATA_CAPTURE (name TEXT, value TEXT);"
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)"
        "  INSERT INTO META_DATA_CAPTURE SELECT 'PROCESS_' || i || ':ARGUMENT_99999', 'x' FROM n;"
        "INSERT INTO META_DATA_CAPTURE VALUES ('PROCESS_0:COMMAND', 'train'),"
        "  ('PROCESS_0:ARGUMENT_1', '--lr'), ('PROCESS_0:ARGUMENT_0', 'main.py'), ('PROCESS_0:ARGUMENT_7', "
        "'3');");
    Result<Trace> arguments = importNsysSqlite((dir / "arguments.sqlite").string());
    REQUIRE(arguments);
    CHECK(arguments->metadata.commandLine == std::vector<std::string> {"train", "main.py", "--lr", "3"});

    CHECK(peakResidentKilobytes() - before < 256 * 1024);

    // One name of 70 MB, longer than any export holds: refused, not read into memory.
    makeDatabase(dir / "long-value.sqlite",
        "CREATE TABLE StringIds (id INTEGER, value TEXT);"
        "INSERT INTO StringIds VALUES (0, CAST(zeroblob(70 * 1024 * 1024) AS TEXT));"
        "CREATE TABLE OSRT_API (start INTEGER, end INTEGER, globalTid INTEGER, nameId INTEGER);"
        "INSERT INTO OSRT_API VALUES (1, 2, 302119224788644, 0);");
    Result<Trace> longValue = importNsysSqlite((dir / "long-value.sqlite").string());
    REQUIRE_FALSE(longValue);
    CHECK_THAT(longValue.error(), Catch::StartsWith("Cannot import '") && Catch::Contains("too big"));
}

TEST_CASE("Synchronization rows go to the GPU of their context, whatever deviceId they carry")
{
    // As Nsight Systems writes a 2-GPU run: process 112's context 2 runs on GPU 1, but its
    // synchronization rows say deviceId 0.
    const auto path = scratchDir("nsys-sync-device") / "two-gpus.sqlite";
    makeDatabase(path,
        "CREATE TABLE StringIds (id INTEGER, value TEXT); INSERT INTO StringIds VALUES (0, 'k');"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, contextId "
        "INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER);"
        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (10, 20, 0, 1, 7, 1, 1862270976, 0),"
        "  (10, 20, 1, 2, 15, 2, 1879048192, 0);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER, end INTEGER, deviceId INTEGER, "
        "contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, syncType INTEGER);"
        "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (30, 40, 0, 1, 7, 3, 1862270976, 1),"
        "  (30, 40, 0, 2, 15, 4, 1879048192, 1);"
        "CREATE TABLE TARGET_INFO_CUDA_STREAM (streamId INTEGER, hwId INTEGER, vmId INTEGER, processId "
        "INTEGER,"
        "  contextId INTEGER, priority INTEGER, flag INTEGER);"
        "INSERT INTO TARGET_INFO_CUDA_STREAM VALUES (7, 0, 1, 111, 1, 0, 1), (15, 0, 1, 112, 2, 0, 1);");
    const Result<Trace> r = importNsysSqlite(path.string());
    REQUIRE(r);
    for (const Track& track : r->tracks) {
        INFO("track of pid " << track.key.pid.value << ", context " << track.key.context.value);
        if (track.key.context.value == 2) CHECK(track.key.device.value == 1);
        if (track.key.context.value == 1) CHECK(track.key.device.value == 0);
    }
    for (const CudaStream& stream : r->streams) {
        INFO("stream " << stream.stream.value);
        CHECK(stream.device.value == (stream.context.value == 2 ? 1u : 0u));
    }
}
