// The launcher's half on synthetic spool files: CUPTI records decoded by the injection
// library's decoder, NVTX and OS-runtime records on the TSC clock, damaged files, capture
// windows and exec'ed images, merged into a Trace by mergeSpools.
#include "../../test_paths.h"
#include "collector/convert/assemble/spool_merge.h"
#include "collector/convert/decode/spool_reader.h"
#include "collector/inject/cupti/cupti_decode.h"
#include "collector/spool/os_functions.h"
#include "collector_test_support.h"
#include "model/stats/counter_stats.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <map>

using namespace sightline;
using namespace sightline::test;
using sightline::collector::mergeSpools;
using sightline::collector::SessionInfo;

namespace {

// Names as the injection library would intern them; written out as String records.
class TextEnvironment final : public inject::cupti::DecodeEnvironment
{
public:
    uint32_t internKernelName(const char* mangled) override { return id(mangled); }
    uint32_t internText(const char* text) override { return id(text); }
    uint32_t apiName(spool::ApiClass, uint32_t cbid) override
    {
        static const std::map<uint32_t, std::string> names {
            {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, "cudaLaunchKernel"},
            {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, "cudaMemcpyAsync"},
            {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, "cuLaunchKernel"},
            {CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, "cuMemAlloc"}};
        return id(names.at(cbid));
    }
    uint32_t id(const std::string& text)
    {
        auto [it, added] = ids.emplace(text, uint32_t(ids.size() + 1));
        return it->second;
    }
    void writeStrings(SpoolBuilder& spool) const
    {
        for (const auto& [text, id] : ids)
            spool.addString(id, text);
    }
    std::map<std::string, uint32_t> ids;
};

void addDecoded(SpoolBuilder& spool, TextEnvironment& env, const void* cuptiRecord)
{
    inject::cupti::DecodedRecord out;
    const auto result = inject::cupti::decodeActivity(
        *static_cast<const CUpti_Activity*>(cuptiRecord), {130001, 0}, env, out);
    REQUIRE(result == inject::cupti::DecodeResult::Record);
    spool.addRaw(out.bytes, out.size);
}

CUpti_ActivityAPI apiRecord(
    CUpti_ActivityKind kind, uint32_t cbid, uint64_t start, uint64_t end, uint32_t corr)
{
    CUpti_ActivityAPI a {};
    a.kind = kind;
    a.cbid = cbid;
    a.start = start, a.end = end, a.threadId = 1001, a.correlationId = corr;
    return a;
}

SessionInfo session(const std::filesystem::path& dir, int64_t origin, uint32_t pid)
{
    SessionInfo s;
    s.spoolDir = dir.string();
    s.start = {0, origin, 1'700'000'000'000'000'000};
    s.end = {0, origin + 1'000'000'000, 0};
    s.targetPid = pid;
    s.command = {"./app"};
    s.queryHost = false;
    return s;
}

std::vector<EventRef> eventsOf(const Trace& trace, TrackKind kind)
{
    std::vector<EventRef> refs;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t)
        if (trace.tracks[t].key.kind == kind)
            for (uint32_t i = 0; i < trace.tracks[t].size(); ++i)
                refs.push_back({TrackId(t), i});
    return refs;
}

} // namespace

TEST_CASE("CUPTI records become kernels, copies and API calls joined by correlation")
{
    const auto dir = scratchDir("collector-cuda-pipeline");
    SpoolBuilder spool(500);
    TextEnvironment env;
    CUpti_ActivityContext3 context {};
    context.kind = CUPTI_ACTIVITY_KIND_CONTEXT, context.contextId = 1, context.deviceId = 0,
    context.nullStreamId = 7;
    addDecoded(spool, env, &context);
    CUpti_ActivityDevice5 device {};
    device.kind = CUPTI_ACTIVITY_KIND_DEVICE, device.id = 0, device.name = "NVIDIA H200",
    device.numMultiprocessors = 132;
    addDecoded(spool, env, &device);
    const auto launch = apiRecord(
        CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 10000, 12000, 5);
    const auto nested
        = apiRecord(CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 10500, 11500, 6);
    const auto alloc
        = apiRecord(CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, 20000, 21000, 9);
    const auto copy = apiRecord(
        CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, 15500, 17500, 8);
    // A driver call of another thread during the copy: not nested in it, so kept.
    const auto otherThread = [] {
        auto a
            = apiRecord(CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, 16000, 16500, 10);
        a.threadId = 1002;
        return a;
    }();
    // In the order CUPTI delivers them, as each call ends: a nested call before its enclosing one.
    for (const auto* api : {&nested, &launch, &otherThread, &copy, &alloc})
        addDecoded(spool, env, api);
    CUpti_ActivityKernel10 kernel {};
    kernel.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    kernel.start = 13000, kernel.end = 15000, kernel.contextId = 1, kernel.streamId = 14,
    kernel.correlationId = 6;
    kernel.gridX = 64, kernel.gridY = kernel.gridZ = 1, kernel.blockX = 256,
    kernel.blockY = kernel.blockZ = 1;
    kernel.name = "_Z6reducePKfPfi";
    addDecoded(spool, env, &kernel);
    CUpti_ActivityMemcpy6 memcpy {};
    memcpy.kind = CUPTI_ACTIVITY_KIND_MEMCPY, memcpy.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
    memcpy.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE, memcpy.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    memcpy.bytes = 1 << 20, memcpy.start = 16000, memcpy.end = 17000, memcpy.contextId = 1,
    memcpy.streamId = 14;
    memcpy.correlationId = 8;
    addDecoded(spool, env, &memcpy);
    CUpti_ActivitySynchronization2 sync {};
    sync.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
    sync.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE;
    sync.start = 18000, sync.end = 19000, sync.contextId = 1,
    sync.streamId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
    addDecoded(spool, env, &sync);
    env.writeStrings(spool);
    spool.writeTo((dir / "500.spool").string());

    const Trace trace = mergeSpools(session(dir, 1000, 500)).trace;

    const auto kernels = eventsOf(trace, TrackKind::Kernels);
    REQUIRE(kernels.size() == 1);
    const KernelEvent k = kernelAt(trace, kernels[0]);
    CHECK(trace.strings[k.name] == "reduce(float const*, float*, int)");
    CHECK(trace.strings[k.launch.shortName] == "reduce");
    CHECK(trace.strings[k.launch.mangledName] == "_Z6reducePKfPfi");
    CHECK((k.start == 12000 && k.end == 14000));
    CHECK((k.launch.grid[0] == 64 && k.launch.block[0] == 256));
    CHECK(trace.track(kernels[0].track).key.stream == StreamId(14));
    // The kernel was correlated with the nested driver call; it now points at cudaLaunchKernel.
    CHECK(k.correlation == CorrelationId(5));
    const auto launcher = trace.correlation.launchingCall(trace, kernels[0]);
    REQUIRE(launcher);
    const ApiCall call = apiCallAt(trace, *launcher);
    CHECK(trace.strings[call.name] == "cudaLaunchKernel");
    CHECK(call.start <= k.start);

    std::vector<std::string> apiNames;
    for (EventRef ref : eventsOf(trace, TrackKind::CudaApi))
        apiNames.emplace_back(trace.strings[apiCallAt(trace, ref).name]);
    std::sort(apiNames.begin(), apiNames.end());
    CHECK(apiNames
        == std::vector<std::string> {"cuMemAlloc", "cuMemAlloc", "cudaLaunchKernel", "cudaMemcpyAsync"});

    const auto memory = eventsOf(trace, TrackKind::Memory);
    REQUIRE(memory.size() == 1);
    const MemoryEvent m = memoryAt(trace, memory[0]);
    CHECK((m.op.copyKind == CopyKind::HtoD && m.op.srcKind == MemoryKind::Pageable
        && m.op.dstKind == MemoryKind::Device));
    CHECK(m.bytes == (1u << 20));

    const auto syncs = eventsOf(trace, TrackKind::Synchronization);
    REQUIRE(syncs.size() == 1);
    CHECK(trace.track(syncs[0].track).key.stream == StreamId(7)); // the context's null stream
    CHECK(syncAt(trace, syncs[0]).op.type == SyncType::ContextSynchronize);
    REQUIRE(trace.findGpu(DeviceId(0)));
    CHECK(trace.findGpu(DeviceId(0))->name == "NVIDIA H200");
    CHECK(trace.findGpu(DeviceId(0))->smCount == 132);
}

TEST_CASE("NVTX and OS-runtime records on the TSC clock become nested, cross-thread and filtered events")
{
    const auto dir = scratchDir("collector-host-pipeline");
    // ticks = 3 * ns + 1000 (a 3 GHz TSC), sampled at two points like the writer does.
    auto ticks = [](int64_t ns) { return uint64_t(3 * ns + 1000); };
    SpoolBuilder spool(600, spool::TickSource::Tsc);
    spool.addClockSync(ticks(0), 0);
    spool.addClockSync(ticks(1'000'000), 1'000'000);
    spool.addString(3, "registered");
    spool::NvtxDomainRecord domain {};
    domain.domain = 1;
    domain.textBytes = 3;
    spool.add(spool::RecordType::NvtxDomain, domain, "dom");
    auto push = [&](uint32_t tid, int64_t ns, std::string_view text, uint32_t domainId = 0) {
        spool::NvtxPushRecord r {};
        r.ticks = ticks(ns);
        r.fields.domain = domainId;
        r.fields.messageKind = spool::NvtxMessageKind::Inline;
        r.fields.textBytes = uint32_t(text.size());
        r.fields.hasColor = 1;
        r.fields.color = 0xFF112233u;
        spool.add(spool::RecordType::NvtxPush, r, text, tid);
    };
    auto pop = [&](uint32_t tid, int64_t ns, uint32_t domainId = 0) {
        spool::NvtxPopRecord r {};
        r.ticks = ticks(ns);
        r.domain = domainId;
        spool.add(spool::RecordType::NvtxPop, r, {}, tid);
    };
    push(1, 100, "a");
    push(1, 200, "b");
    pop(1, 300);
    pop(1, 400);
    spool::NvtxStartRecord start {};
    start.ticks = ticks(150), start.rangeId = 77,
    start.fields.messageKind = spool::NvtxMessageKind::Registered;
    start.fields.registeredId = 3, start.fields.domain = 1, start.fields.category = 5;
    spool.add(spool::RecordType::NvtxStart, start, {}, 1);
    spool::NvtxEndRecord end {};
    end.ticks = ticks(500), end.rangeId = 77;
    spool.add(spool::RecordType::NvtxEnd, end, {}, 2);
    pop(3, 550); // no push: counted and ignored
    push(1, 600, "open"); // never popped: closed at the last event
    spool::OsCallRecord shortCall {};
    shortCall.startTicks = ticks(1000), shortCall.endTicks = ticks(1500),
    shortCall.function = uint16_t(spool::OsFunction::read);
    spool.add(spool::RecordType::OsCall, shortCall, {}, 2);
    spool::OsCallRecord longCall {};
    longCall.startTicks = ticks(2000), longCall.endTicks = ticks(5000),
    longCall.function = uint16_t(spool::OsFunction::write), longCall.result = 64;
    spool.add(spool::RecordType::OsCall, longCall, {}, 2);
    spool::ThreadNameRecord name {};
    name.source = spool::ThreadNameSource::Nvtx, name.textBytes = 6;
    spool.add(spool::RecordType::ThreadName, name, "worker", 2);
    spool.addProcessText(spool::ProcessTextKind::ProcessName, "python3");
    spool.writeTo((dir / "600.spool").string());

    SessionInfo info = session(dir, 0, 600);
    info.options.osrtThresholdNs = 1000;
    const Trace trace = mergeSpools(info).trace;

    const auto rows = nvtxRows(trace, Pid(600), Tid(1), DomainId());
    std::map<std::string, NvtxRow> byName;
    for (const auto& row : rows)
        byName[row.name] = row;
    REQUIRE(byName.count("a"));
    REQUIRE(byName.count("b"));
    CHECK((byName["a"].event.start == 100 && byName["a"].event.end == 400 && byName["a"].lane == 0));
    CHECK((byName["b"].event.start == 200 && byName["b"].event.end == 300 && byName["b"].lane == 1));
    CHECK(byName["a"].event.attributes.color == 0xFF112233u);
    CHECK(byName["open"].event.end == 5000); // the process's last event
    const NvtxDomain* dom = findDomain(trace, "dom");
    REQUIRE(dom);
    const auto domainRows = nvtxRows(trace, Pid(600), Tid(1), dom->id);
    REQUIRE(domainRows.size() == 1);
    CHECK(domainRows[0].name == "registered");
    CHECK((domainRows[0].event.start == 150 && domainRows[0].event.end == 500));
    CHECK(domainRows[0].event.attributes.endThread == Tid(2));
    CHECK(domainRows[0].event.attributes.style == NvtxStyle::StartEnd);
    CHECK(domainRows[0].event.attributes.category == 5);

    CHECK(osCallNames(trace, Pid(600), Tid(2)) == std::vector<std::string> {"write"});
    const Thread* worker = trace.findThread(Tid(2));
    REQUIRE(worker);
    CHECK(worker->name == "worker");
    bool unmatched = false, open = false;
    for (const Diagnostic& d : trace.diagnostics) {
        unmatched = unmatched || d.text.find("no matching start") != std::string::npos;
        open = open || d.text.find("still open") != std::string::npos;
    }
    CHECK(unmatched);
    CHECK(open);
}

TEST_CASE("a spool cut mid-record keeps what precedes the cut; a foreign file is reported")
{
    const auto dir = scratchDir("collector-damaged-spool");
    SpoolBuilder spool(700);
    for (int i = 0; i < 10; ++i) {
        spool::OsCallRecord call {};
        call.startTicks = uint64_t(i * 10000), call.endTicks = uint64_t(i * 10000 + 5000);
        call.function = uint16_t(spool::OsFunction::sleep);
        spool.add(spool::RecordType::OsCall, call, {}, 700);
    }
    spool.writeTo((dir / "700.spool").string(), spool.bytes().size() - 13);
    SpoolBuilder(701).writeTo((dir / "701.spool").string());
    std::ofstream((dir / "702.spool").string()) << "not a spool file at all, but long enough to be checked";

    const Trace trace = mergeSpools(session(dir, 0, 700)).trace;
    CHECK(osCalls(trace, Pid(700), Tid(700)).size() == 9);
    bool partial = false, foreign = false;
    for (const Diagnostic& d : trace.diagnostics) {
        partial = partial || d.text.find("partial record") != std::string::npos;
        foreign = foreign || d.text.find("not a Sightline spool file") != std::string::npos;
    }
    CHECK(partial);
    CHECK(foreign);

    SpoolBuilder future(703);
    auto bytes = future.bytes();
    bytes[8] = 2; // formatMajor
    std::ofstream((dir / "future.spool").string(), std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    const auto read = collector::readSpoolFile((dir / "future.spool").string());
    REQUIRE_FALSE(read);
    CHECK(read.error().find("version 2") != std::string::npos);
}

TEST_CASE("a cudaProfilerStart/Stop window keeps the calls inside it and the GPU work they launched")
{
    const auto dir = scratchDir("collector-capture-window");
    SpoolBuilder spool(800);
    TextEnvironment env;
    auto control = [&](int64_t ns, bool start) {
        spool::CaptureControlRecord r {};
        r.ticks = uint64_t(ns), r.start = start;
        spool.add(spool::RecordType::CaptureControl, r, {}, 1001);
    };
    control(5000, true);
    control(9000, false);
    const auto inside = apiRecord(
        CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 6000, 7000, 1);
    const auto before = apiRecord(
        CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 1000, 2000, 2);
    addDecoded(spool, env, &inside);
    addDecoded(spool, env, &before);
    for (auto [corr, start] : {std::pair {1u, 9500ull}, std::pair {2u, 5500ull}}) {
        CUpti_ActivityKernel10 k {};
        k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, k.start = start, k.end = start + 200,
        k.correlationId = corr;
        k.streamId = corr == 1 ? 7 : 99; // stream 99 only ever runs work launched outside
        k.name = "late_or_early";
        addDecoded(spool, env, &k);
    }
    env.writeStrings(spool);
    spool.writeTo((dir / "800.spool").string());

    SessionInfo info = session(dir, 0, 800);
    info.options.capture.mode = collector::CaptureMode::CudaProfilerApi;
    const Trace trace = mergeSpools(info).trace;
    const auto kernels = eventsOf(trace, TrackKind::Kernels);
    REQUIRE(kernels.size() == 1);
    CHECK(kernelAt(trace, kernels[0]).correlation == CorrelationId(1)); // ran after Stop, launched inside
    const auto calls = eventsOf(trace, TrackKind::CudaApi);
    REQUIRE(calls.size() == 1);
    CHECK(apiCallAt(trace, calls[0]).start == 6000);
    for (const Track& track : trace.tracks) { // no row for work the window left out
        INFO("track kind " << int(track.key.kind) << ", stream " << track.key.stream.value);
        CHECK(track.size() > 0);
    }
}

TEST_CASE("an exec'ed image of the same process continues its recording")
{
    const auto dir = scratchDir("collector-exec-images");
    SpoolBuilder first(900);
    first.addProcessText(spool::ProcessTextKind::CommandLineArg, "python");
    spool::OsCallRecord call {};
    call.startTicks = 0, call.endTicks = 2000, call.function = uint16_t(spool::OsFunction::sleep);
    first.add(spool::RecordType::OsCall, call, {}, 900);
    first.writeTo((dir / "900.spool").string());
    SpoolBuilder second(900);
    second.addProcessText(spool::ProcessTextKind::CommandLineArg, "/usr/bin/python3.11");
    second.addProcessText(spool::ProcessTextKind::CommandLineArg, "train.py");
    call.startTicks = 5000, call.endTicks = 9000;
    second.add(spool::RecordType::OsCall, call, {}, 900);
    second.writeTo((dir / "900.1.spool").string());

    const Trace trace = mergeSpools(session(dir, 0, 900)).trace;
    REQUIRE(trace.findProcess(Pid(900)));
    CHECK(trace.findProcess(Pid(900))->commandLine
        == std::vector<std::string> {"/usr/bin/python3.11", "train.py"});
    CHECK(osCalls(trace, Pid(900), Tid(900)).size() == 2);
}

TEST_CASE(
    "CUDA memory records become records with their API call and a per-device series of the bytes in use")
{
    const auto dir = scratchDir("collector-memory-usage");
    SpoolBuilder spool(510);
    TextEnvironment env;
    // Allocate 1 MiB and 3 MiB, free the 1 MiB, allocate 2 MiB on device 0; 4 MiB on device 1.
    struct Change
    {
        uint64_t time;
        uint32_t device;
        uint64_t bytes;
        bool release;
    };
    for (const Change& c : {Change {10000, 0, 1 << 20, false}, Change {20000, 0, 3 << 20, false},
             Change {30000, 0, 1 << 20, true}, Change {40000, 0, 2 << 20, false},
             Change {25000, 1, 4 << 20, false}}) {
        CUpti_ActivityMemory4 m {};
        m.kind = CUPTI_ACTIVITY_KIND_MEMORY2;
        m.memoryOperationType = c.release ? CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE
                                          : CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION;
        m.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
        m.timestamp = c.time, m.deviceId = c.device, m.bytes = c.bytes, m.address = 0x7f0000 + c.time;
        m.contextId = 1 + c.device, m.correlationId = uint32_t(c.time / 1000);
        addDecoded(spool, env, &m);
    }
    env.writeStrings(spool);
    spool.writeTo((dir / "510.spool").string());

    const Trace trace = mergeSpools(session(dir, 1000, 510)).trace;
    REQUIRE(trace.counterSeries.size() == 2);
    const CounterSeries& device0 = trace.counterSeries[0];
    CHECK(device0.source == CounterSource::GpuMemory);
    CHECK(device0.unit == "B");
    CHECK(trace.timelineOf(device0).starts == std::vector<Timestamp> {9000, 19000, 29000, 39000});
    CHECK(device0.values == std::vector<double> {1 << 20, 4 << 20, 3 << 20, 5 << 20});
    const std::optional<StatsTable> usage = counterReport("cuda_gpu_mem_usage_sum", trace, std::nullopt);
    REQUIRE(usage);
    REQUIRE(usage->rows.size() == 2);
    CHECK(usage->rows[0] == std::vector<StatsCell> {int64_t(0), int64_t(5 << 20), int64_t(3), int64_t(1)});
    CHECK(usage->rows[1] == std::vector<StatsCell> {int64_t(1), int64_t(4 << 20), int64_t(1), int64_t(0)});

    // Each record is kept, by time, in the process, with what CUPTI said of it.
    REQUIRE(trace.memoryUsage.size() == 5);
    std::vector<Timestamp> times;
    for (const MemoryUsageEvent& e : trace.memoryUsage)
        times.push_back(e.time);
    CHECK(times == std::vector<Timestamp> {9000, 19000, 24000, 29000, 39000});
    const MemoryUsageEvent& release = trace.memoryUsage[3];
    CHECK(release.pid == Pid(510));
    CHECK(release.device == DeviceId(0));
    CHECK(release.context == ContextId(1));
    CHECK(release.release);
    CHECK(release.bytes == 1 << 20);
    CHECK(release.address == 0x7f0000 + 30000);
    CHECK(release.kind == MemoryKind::Device);
    CHECK(release.correlation == CorrelationId(30));
    CHECK(trace.memoryUsage[2].device == DeviceId(1));
    CHECK_FALSE(trace.memoryUsage[2].release);
}
