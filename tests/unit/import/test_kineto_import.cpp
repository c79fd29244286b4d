// The Chrome trace importer on small hand-written PyTorch profiler documents: every category,
// the older category names, flows instead of correlation args, GPU rows owned by the right
// process, exact timestamps, and the clear errors.
#include "../../test_paths.h"
#include "../export/export_fixture.h"
#include "import_support.h"
#include "model/export/exporters.h"
#include "model/import/importers.h"
#include "model/trace/event_access.h"

#include <catch2/catch.hpp>

using namespace sightline;
using namespace sightline::test;

namespace {

constexpr const char* kCurrentKineto = R"JSON({"schemaVersion": 1,
 "deviceProperties": [{"id": 0, "name": "NVIDIA H200", "totalGlobalMem": 150109880320, "computeMajor": 9,
                       "computeMinor": 0, "numSms": 132}],
 "cuda_runtime_version": 12040, "cupti_version": 22, "host_name": "node1",
 "traceEvents": [
  {"ph": "X", "cat": "python_function", "name": "train.py(10): main", "pid": 100, "tid": 100, "ts": 1000.000, "dur": 500.000},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 100, "tid": 100, "ts": 1000.5, "dur": 400},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 100, "tid": 100, "ts": 1001.25, "dur": 100.125},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 100, "tid": 100, "ts": 1002.001, "dur": 5.5,
   "args": {"External id": 3, "cbid": 211, "correlation": 7}},
  {"ph": "s", "id": 7, "pid": 100, "tid": 100, "ts": 1002.001, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "kernel", "name": "gemm_kernel", "pid": 0, "tid": 7, "ts": 1010.0, "dur": 20.333,
   "args": {"queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 7, "registers per thread": 128,
            "shared memory": 49152, "blocks per SM": 1.0, "grid": [132, 1, 1], "block": [256, 1, 1]}},
  {"ph": "f", "id": 7, "pid": 0, "tid": 7, "ts": 1010.0, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7, "ts": 1040,
   "dur": 3, "args": {"device": 0, "context": 1, "stream": 7, "correlation": 8, "bytes": 4096}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 100, "tid": 100, "ts": 1035, "dur": 8,
   "args": {"correlation": 8}},
  {"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 7, "ts": 1050, "dur": 1,
   "args": {"device": 0, "context": 1, "stream": 7, "correlation": 9, "bytes": 16}},
  {"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "pid": 100, "tid": 101, "ts": 1060, "dur": 2,
   "args": {"correlation": 10}},
  {"ph": "X", "cat": "cuda_sync", "name": "Stream Wait Event", "pid": 0, "tid": 7, "ts": 1070, "dur": 2,
   "args": {"device": 0, "context": 1, "stream": 7, "correlation": 11, "wait_on_cuda_event_id": 5,
            "cuda_sync_kind": "Stream Wait Event"}},
  {"ph": "X", "cat": "cuda_sync", "name": "Context Sync", "pid": 0, "tid": -1, "ts": 1080, "dur": 2,
   "args": {"device": 0, "context": 1, "stream": 4294967295, "correlation": 12}},
  {"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#1", "pid": 0, "tid": 7, "ts": 1009, "dur": 60,
   "args": {"External id": 3}},
  {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 100, "tid": 100, "ts": 1003,
   "args": {"Bytes": 16}},
  {"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": "Spans", "tid": "PyTorch Profiler", "ts": 900, "dur": 1000},
  {"ph": "i", "name": "Iteration Start: PyTorch Profiler", "s": "g", "pid": "Traces", "tid": "Trace PyTorch Profiler", "ts": 900},
  {"ph": "X", "cat": "overhead", "name": "Activity Buffer Request", "pid": -1, "tid": 0, "ts": 1000, "dur": 3},
  {"ph": "X", "cat": "weird_new_category", "name": "x", "pid": 100, "tid": 100, "ts": 1000, "dur": 3},
  {"ph": "C", "name": "counter", "pid": 100, "tid": 100, "ts": 1000, "args": {"v": 1}},
  {"name": "process_name", "ph": "M", "ts": 1000, "pid": 100, "tid": 0, "args": {"name": "python3"}},
  {"name": "thread_name", "ph": "M", "ts": 1000, "pid": 100, "tid": 100, "args": {"name": "thread 100 (python3)"}},
  {"name": "process_name", "ph": "M", "ts": 1000, "pid": 0, "tid": 0, "args": {"name": "python3"}},
  {"name": "process_labels", "ph": "M", "ts": 1000, "pid": 0, "tid": 0, "args": {"labels": "GPU 0"}},
  {"name": "thread_name", "ph": "M", "ts": 1000, "pid": 0, "tid": 7, "args": {"name": "stream 7 "}}
 ],
 "baseTimeNanoseconds": 1700000000000000000}
)JSON";

// PyTorch 1.8-style category names, a bare array, no correlation args (flows only), two
// processes, and NVTX ranges as Sightline's exporter writes them, one never closed.
constexpr const char* kOldKineto = R"JSON([
 {"ph": "X", "cat": "Operator", "name": "aten::add", "pid": 200, "tid": 201, "ts": 5, "dur": 10},
 {"ph": "X", "cat": "Runtime", "name": "cudaLaunchKernel", "pid": 200, "tid": 201, "ts": 6, "dur": 2, "args": {"cbid": 211}},
 {"ph": "s", "id": "0x10", "pid": 200, "tid": 201, "ts": 6, "cat": "ac2g", "name": "ac2g"},
 {"ph": "X", "cat": "Kernel", "name": "add_kernel", "pid": 1, "tid": 3, "ts": 20, "dur": 4, "args": {"device": 1, "stream": 3}},
 {"ph": "f", "id": "0x10", "pid": 1, "tid": 3, "ts": 20, "cat": "ac2g", "name": "ac2g", "bp": "e"},
 {"ph": "X", "cat": "Memcpy", "name": "Memcpy DtoH (Device -> Pinned)", "pid": 1, "tid": 3, "ts": 30, "dur": 2,
  "args": {"device": 1, "stream": 3, "bytes": 8}},
 {"ph": "X", "cat": "Runtime", "name": "cudaMemcpyAsync", "pid": 300, "tid": 301, "ts": 29, "dur": 5, "args": {}},
 {"ph": "s", "id": 17, "pid": 300, "tid": 301, "ts": 29, "cat": "ac2g"},
 {"ph": "f", "id": 17, "pid": 1, "tid": 3, "ts": 30, "cat": "ac2g", "bp": "e"},
 {"ph": "X", "cat": "Memset", "name": "Memset (Device)", "pid": 1, "tid": 3, "ts": 40, "dur": 1,
  "args": {"device": 1, "stream": 3, "bytes": 4}},
 {"ph": "b", "cat": "nvtx", "name": "load", "id": 4, "pid": 200, "tid": 201, "ts": 7,
  "args": {"domain": "io", "color": "0xFF76B900", "category": 2, "payload type": "int64", "payload": -3, "end thread": 202}},
 {"ph": "e", "cat": "nvtx", "name": "load", "id": 4, "pid": 200, "tid": 201, "ts": 12},
 {"ph": "b", "cat": "nvtx", "name": "open", "id": 5, "pid": 200, "tid": 201, "ts": 8},
 {"ph": "e", "cat": "nvtx", "name": "stray", "id": 99, "pid": 200, "tid": 201, "ts": 9}
])JSON";

const Track* trackOf(const Trace& trace, TrackKind kind, uint32_t tidOrStream, std::string_view domain = {})
{
    for (const Track& t : trace.tracks) {
        if (t.key.kind != kind) continue;
        const bool gpu = isGpuKind(kind) || t.key.stream.value != 0;
        if ((gpu ? t.key.stream.value : t.key.tid.value) != tidOrStream) continue;
        if (kind == TrackKind::Nvtx && !gpu && trace.domainName(t.key.domain) != domain) continue;
        return &t;
    }
    return nullptr;
}

TrackId idOf(const Trace& trace, const Track* track)
{
    return TrackId(uint32_t(track - trace.tracks.data()));
}

bool hasDiagnostic(const Trace& trace, const std::string& part)
{
    for (const Diagnostic& d : trace.diagnostics)
        if (d.text.find(part) != std::string::npos) return true;
    return false;
}

Trace importText(const std::string& name, const std::string& text, bool gzip = false)
{
    const auto path = scratchDir("kineto-" + name) / (gzip ? "trace.json.gz" : "trace.json");
    gzip ? writeGzipFile(path, text) : writeFile(path, text);
    Result<Trace> imported = importChromeTrace(path.string());
    INFO(imported.error());
    REQUIRE(imported);
    return std::move(imported.value());
}

} // namespace

TEST_CASE("A current PyTorch profiler trace imports every category")
{
    const Trace trace = importText("current", kCurrentKineto, true);
    // t = 0 is the earliest imported event (the profiler's own span is not one).
    const Track* python = trackOf(trace, TrackKind::Nvtx, 100, "python_function");
    REQUIRE(python);
    CHECK(python->events.start[0] == 0);
    CHECK(trace.metadata.startTimeUtcNs == 1700000000000000000 + 1000000);

    SECTION("CPU ops, annotations, Python functions and instants are ranges on their thread")
    {
        const Track* ops = trackOf(trace, TrackKind::Nvtx, 100, "cpu_op");
        REQUIRE(ops);
        const NvtxEvent mm = nvtxAt(trace, {idOf(trace, ops), 0});
        CHECK(trace.strings[mm.name] == "aten::mm");
        CHECK(mm.start == 1250); // 1001.25 us - 1000 us
        CHECK(mm.end - mm.start == 100125); // 100.125 us, every nanosecond kept
        CHECK(mm.attributes.style == NvtxStyle::PushPop);
        REQUIRE(trackOf(trace, TrackKind::Nvtx, 100, "user_annotation"));
        const Track* instants = trackOf(trace, TrackKind::Nvtx, 100, "cpu_instant_event");
        REQUIRE(instants);
        CHECK(nvtxAt(trace, {idOf(trace, instants), 0}).attributes.style == NvtxStyle::Mark);
    }

    SECTION("GPU activities keep their launch configuration, kinds and launching call")
    {
        const Track* kernels = trackOf(trace, TrackKind::Kernels, 7);
        REQUIRE(kernels);
        CHECK(kernels->key.pid.value == 100); // the process that launched it, not Kineto's "pid 0"
        CHECK(kernels->key.device.value == 0);
        CHECK(kernels->key.context.value == 1);
        const KernelEvent k = kernelAt(trace, {idOf(trace, kernels), 0});
        CHECK(trace.strings[k.name] == "gemm_kernel");
        CHECK(k.start == 10000);
        CHECK(k.end == 30333);
        CHECK(k.launch.grid == std::array<uint32_t, 3> {132, 1, 1});
        CHECK(k.launch.block == std::array<uint32_t, 3> {256, 1, 1});
        CHECK(k.launch.registersPerThread == 128);
        CHECK(k.launch.staticSharedMemory + k.launch.dynamicSharedMemory == 49152);
        const auto call = trace.correlation.launchingCall(trace, {idOf(trace, kernels), 0});
        REQUIRE(call);
        CHECK(trace.strings[trace.track(call->track).events.name[call->index]] == "cudaLaunchKernel");

        const Track* memory = trackOf(trace, TrackKind::Memory, 7);
        REQUIRE(memory);
        REQUIRE(memory->size() == 2);
        const MemoryEvent copy = memoryAt(trace, {idOf(trace, memory), 0});
        CHECK(copy.op.kind == MemoryOpKind::Memcpy);
        CHECK(copy.op.copyKind == CopyKind::HtoD);
        CHECK(copy.op.srcKind == MemoryKind::Pageable);
        CHECK(copy.op.dstKind == MemoryKind::Device);
        CHECK(copy.bytes == 4096);
        const MemoryEvent set = memoryAt(trace, {idOf(trace, memory), 1});
        CHECK(set.op.kind == MemoryOpKind::Memset);
        CHECK(set.op.srcKind == MemoryKind::Device);
        CHECK(set.bytes == 16);

        const Track* sync = trackOf(trace, TrackKind::Synchronization, 7);
        REQUIRE(sync);
        const SyncEvent wait = syncAt(trace, {idOf(trace, sync), 0});
        CHECK(wait.op.type == SyncType::StreamWaitEvent);
        CHECK(wait.op.eventId == 5);
        const Track* context = trackOf(trace, TrackKind::Synchronization, 4294967295u);
        REQUIRE(context);
        CHECK(syncAt(trace, {idOf(trace, context), 0}).op.type == SyncType::ContextSynchronize);

        const Track* driver = trackOf(trace, TrackKind::CudaApi, 101);
        REQUIRE(driver);
        CHECK(apiCallAt(trace, {idOf(trace, driver), 0}).result.apiClass == ApiClass::Driver);
    }

    SECTION("GPU user annotations are ranges on their stream, with no made-up thread")
    {
        const Track* annotations = trackOf(trace, TrackKind::Nvtx, 7);
        REQUIRE(annotations);
        CHECK(annotations->key.device.value == 0);
        CHECK(annotations->key.pid.value == 100);
        const NvtxEvent step = nvtxAt(trace, {idOf(trace, annotations), 0});
        CHECK(trace.strings[step.name] == "ProfilerStep#1");
        CHECK(trace.domainName(step.attributes.domain) == "gpu_user_annotation");
        for (const Thread& t : trace.threads)
            CHECK(t.tid.value != 0);
    }

    SECTION("names, GPUs, metadata and what was skipped")
    {
        REQUIRE(trace.processes.size() == 1);
        CHECK(trace.processes[0].name == "python3");
        for (const Thread& t : trace.threads)
            CHECK(t.name == (t.tid.value == 100 ? "thread 100 (python3)" : ""));
        REQUIRE(trace.gpus.size() == 1);
        CHECK(trace.gpus[0].name == "NVIDIA H200");
        CHECK(trace.gpus[0].smCount == 132);
        CHECK(trace.gpus[0].memoryBytes == 150109880320);
        CHECK(trace.metadata.cudaVersion == "12.4");
        CHECK(trace.metadata.cuptiVersion == "22");
        CHECK(trace.metadata.hostname == "node1");
        CHECK(hasDiagnostic(trace, "weird_new_category (1)"));
        CHECK(hasDiagnostic(trace, "\"C\" (1)"));
        CHECK(!hasDiagnostic(trace, "overhead"));
        CHECK(trace.eventCount() == 13);
    }
}

TEST_CASE("An early Kineto trace correlates through flows and finds each activity's process")
{
    const Trace trace = importText("old", kOldKineto);
    const Track* kernels = trackOf(trace, TrackKind::Kernels, 3);
    REQUIRE(kernels);
    CHECK(kernels->key.pid.value == 200);
    CHECK(kernels->key.device.value == 1);
    const auto launch = trace.correlation.launchingCall(trace, {idOf(trace, kernels), 0});
    REQUIRE(launch);
    CHECK(trace.strings[trace.track(launch->track).events.name[launch->index]] == "cudaLaunchKernel");

    bool copyFound = false;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
        const Track& track = trace.tracks[t];
        if (track.key.kind != TrackKind::Memory || track.key.pid.value != 300) continue;
        copyFound = true;
        const auto call = trace.correlation.launchingCall(trace, {TrackId(t), 0});
        REQUIRE(call);
        CHECK(trace.strings[trace.track(call->track).events.name[call->index]] == "cudaMemcpyAsync");
        CHECK(memoryAt(trace, {TrackId(t), 0}).op.dstKind == MemoryKind::Pinned);
    }
    CHECK(copyFound);
    CHECK(hasDiagnostic(trace, "Correlated 2 GPU activities"));
    CHECK(trace.eventCount(TrackKind::Memory) == 2);

    const Track* operators = trackOf(trace, TrackKind::Nvtx, 201, "cpu_op");
    REQUIRE(operators);
    CHECK(operators->events.start[0] == 0);
    CHECK(trace.metadata.startTimeUtcNs == 0); // microseconds since an unknown origin

    const Track* io = trackOf(trace, TrackKind::Nvtx, 201, "io");
    REQUIRE(io);
    const NvtxEvent load = nvtxAt(trace, {idOf(trace, io), 0});
    CHECK(load.attributes.style == NvtxStyle::StartEnd);
    CHECK(load.end - load.start == 5000);
    CHECK(load.attributes.color == 0xFF76B900u);
    CHECK(load.attributes.hasColor);
    CHECK(load.attributes.category == 2);
    CHECK(load.attributes.payloadType == PayloadType::Int64);
    CHECK(int64_t(load.attributes.payload) == -3);
    CHECK(load.attributes.endThread.value == 202);
    CHECK(hasDiagnostic(trace, "1 ranges without an end were closed at the end of the trace"));
    CHECK(hasDiagnostic(trace, "Ignored 1 range ends"));
}

TEST_CASE("Sightline's own Chrome trace export imports with every event kind")
{
    const Trace original = makeEveryKindTrace();
    const auto path = scratchDir("kineto-own-export") / "every.json";
    REQUIRE(exportChromeTrace(original, path.string()).ok());
    Result<Trace> imported = importChromeTrace(path.string());
    INFO(imported.error());
    REQUIRE(imported);
    for (int kind = 0; kind < kTrackKindCount; ++kind)
        CHECK(imported->eventCount(TrackKind(kind)) == original.eventCount(TrackKind(kind)));
    CHECK(imported->metadata.hostname == original.metadata.hostname);
    CHECK(imported->metadata.startTimeUtcNs == original.metadata.startTimeUtcNs + original.span.start);
    // Kernels keep their names and every launch detail (times move with t = 0; the name that is
    // not valid UTF-8 was written with replacement characters).
    auto withoutTimes = [](const Trace& trace, const Track& track) {
        std::vector<std::string> lines;
        for (const std::string& line : eventLines(trace, track))
            if (line.find('\xFF') == std::string::npos && line.find("\xEF\xBF\xBD") == std::string::npos)
                lines.push_back(line.substr(line.find('\'')));
        std::sort(lines.begin(), lines.end());
        return lines;
    };
    size_t compared = 0;
    for (const Track& track : original.tracks) {
        if (track.key.kind != TrackKind::Kernels) continue;
        for (const Track& other : imported->tracks)
            if (other.key == track.key) {
                CHECK(withoutTimes(original, track) == withoutTimes(imported.value(), other));
                ++compared;
            }
    }
    CHECK(compared
        == size_t(std::count_if(original.tracks.begin(), original.tracks.end(),
            [](const Track& t) { return t.key.kind == TrackKind::Kernels; })));
}

TEST_CASE("Broken Chrome traces are refused with one sentence, and cancel stops the import")
{
    const auto dir = scratchDir("kineto-broken");
    const std::string document = kCurrentKineto;
    writeGzipFile(dir / "cut.json.gz", document.substr(0, 200)); // before the first event
    Result<Trace> r = importChromeTrace((dir / "cut.json.gz").string());
    REQUIRE(!r);
    CHECK(r.error()
        == "Cannot import '" + (dir / "cut.json.gz").string()
            + "': the gzip-compressed Chrome trace JSON ends unexpectedly at byte 200 of the "
              "uncompressed data; make sure the file is complete and is a Chrome trace (PyTorch "
              "profiler) file.");
    writeFile(dir / "bad.json", "{\"traceEvents\": [{\"ph\": \"X\" \"cat\": 1}]}");
    r = importChromeTrace((dir / "bad.json").string());
    REQUIRE(!r);
    CHECK_THAT(r.error(), Catch::Contains("is not valid JSON at byte 28 (expected ',' but found '\"')"));
    writeFile(dir / "tail.json", "[] []");
    r = importChromeTrace((dir / "tail.json").string());
    REQUIRE(!r);
    CHECK_THAT(r.error(), Catch::Contains("more text after the end"));

    writeFile(dir / "good.json", document);
    std::atomic<bool> cancel {true};
    ReadOptions options;
    options.cancel = &cancel;
    r = importChromeTrace((dir / "good.json").string(), options);
    REQUIRE(!r);
    CHECK(r.error() == "Importing '" + (dir / "good.json").string() + "' was cancelled.");

    cancel = false;
    uint64_t lastDone = 0, lastTotal = 0;
    options.progress = [&](uint64_t done, uint64_t total) {
        CHECK(done >= lastDone);
        lastDone = done;
        lastTotal = total;
    };
    REQUIRE(importChromeTrace((dir / "good.json").string(), options));
    CHECK(lastTotal == document.size());
    CHECK(lastDone == lastTotal);
}

TEST_CASE("A trace cut short keeps every event before the cut, and says what was lost")
{
    const auto dir = scratchDir("kineto-cut");
    const std::string document = kCurrentKineto;
    writeFile(dir / "whole.json", document);
    const Result<Trace> whole = importChromeTrace((dir / "whole.json").string());
    REQUIRE(whole);
    const size_t firstEventEnd = document.find("dur\": 500.000}") + 15;
    size_t previous = 0;
    for (size_t cut = firstEventEnd; cut < document.rfind(']'); cut += 37) {
        INFO("cut at byte " << cut);
        const bool gzip = cut % 2 == 0;
        const auto path = dir / (gzip ? "cut.json.gz" : "cut.json");
        gzip ? writeGzipFile(path, document.substr(0, cut)) : writeFile(path, document.substr(0, cut));
        const Result<Trace> r = importChromeTrace(path.string());
        REQUIRE(r);
        CHECK(r->eventCount() >= previous); // a later cut keeps at least as much
        CHECK(r->eventCount() <= whole->eventCount());
        previous = r->eventCount();
        REQUIRE_FALSE(r->diagnostics.empty());
        CHECK_THAT(r->diagnostics.back().text,
            Catch::StartsWith("The trace was cut short: the ")
                && Catch::Contains(std::to_string(r->eventCount()) + " events before the cut were imported"));
    }
    CHECK(previous > 0);
}

TEST_CASE("JSON that is not a trace is refused with one sentence, not opened empty")
{
    const auto dir = scratchDir("kineto-not-a-trace");
    for (const char* text : {R"({"hello": 1})", "{}", "[1, 2, 3]", R"({"traceEvent": []})"}) {
        INFO(text);
        writeFile(dir / "other.json", text);
        const Result<Trace> r = importChromeTrace((dir / "other.json").string());
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error(), Catch::StartsWith("Cannot import '") && Catch::Contains("no Chrome trace"));
    }
    // A trace that holds no events is still a trace.
    for (const char* text :
        {R"({"traceEvents": []})", "[]", R"([{"ph": "M", "name": "process_name", "pid": 1}])"}) {
        INFO(text);
        writeFile(dir / "empty.json", text);
        CHECK(importChromeTrace((dir / "empty.json").string()));
    }
}
