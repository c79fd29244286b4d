// Chrome traces of other shapes that carry CUDA work: nsys2json's bare arrays with named rows,
// PyTorch 1.8's Kineto (capitalised categories, tids written as strings, "async" launch flows),
// and gpu_user_annotation ranges with no context of their own. Each fixture is generated here
// with exactly the fields and value types those files have.
#include "../../test_paths.h"
#include "../support/hta_annotation_trace.h"
#include "import_support.h"
#include "model/import/importers.h"
#include "model/trace/event_access.h"

#include <catch2/catch.hpp>

using namespace sightline;
using namespace sightline::test;

namespace {

Trace importText(const std::string& name, const std::string& text)
{
    const auto path = scratchDir("foreign-" + name) / "trace.json";
    writeFile(path, text);
    Result<Trace> imported = importChromeTrace(path.string());
    INFO(imported.error());
    REQUIRE(imported);
    return std::move(imported.value());
}

const Track* findTrack(const Trace& trace, TrackKind kind)
{
    for (const Track& t : trace.tracks)
        if (t.key.kind == kind && t.size() > 0) return &t;
    return nullptr;
}

TrackId idOf(const Trace& trace, const Track* track)
{
    return TrackId(uint32_t(track - trace.tracks.data()));
}

std::string nameAt(const Trace& trace, const Track& track, uint32_t index)
{
    return std::string(trace.strings[track.events.name[index]]);
}

// nsys2json: a bare array, rows named "Device N" / "CUDA API Thread T" / "Stream S" / "NVTX
// Kernel Thread T", times in fractional microseconds.
std::string nsys2json()
{
    std::string out = "[";
    const auto event = [&](const std::string& name, const char* category, double ts, double dur,
                           const std::string& tid, const std::string& args) {
        if (out.size() > 1) out += ",\n";
        out += R"({"name": ")" + name + R"(", "ph": "X", "cat": ")" + category + R"(", "ts": )"
            + std::to_string(ts) + R"(, "dur": )" + std::to_string(dur) + R"(, "tid": ")" + tid
            + R"(", "pid": "Device 0", "args": )" + args + "}";
    };
    // Sorted by (pid, tid) as the script writes them.
    for (int i = 0; i < 3; ++i)
        event("cudaLaunchKernel_v7000", "cuda_api", 1000.5 + 100 * i, 4.25, "CUDA API Thread 24129",
            R"({"correlationId": )" + std::to_string(104037 + i) + "}");
    event("nccl_step", "nvtx-kernel", 1020.0, 150.0, "NVTX Kernel Thread 24129", "{}");
    for (int i = 0; i < 3; ++i)
        event(i == 1 ? "elementwise" : "gemm", "cuda", 1020.0 + 100 * i, 50.0, "Stream 82",
            R"({"correlationId": )" + std::to_string(104037 + i) + "}");
    return out + "]";
}

} // namespace

TEST_CASE("nsys2json's arrays import as CUDA API calls, kernels on their streams and ranges on the GPU")
{
    const Trace trace = importText("nsys2json", nsys2json());
    CHECK(trace.eventCount() == 7);
    for (const Diagnostic& d : trace.diagnostics)
        CHECK_THAT(d.text, !Catch::Contains("Skipped"));

    const Track* calls = findTrack(trace, TrackKind::CudaApi);
    REQUIRE(calls);
    CHECK(calls->key.tid.value == 24129);
    CHECK(calls->size() == 3);
    CHECK(nameAt(trace, *calls, 0) == "cudaLaunchKernel_v7000");
    CHECK(calls->events.start[0] == 0);

    const Track* kernels = findTrack(trace, TrackKind::Kernels);
    REQUIRE(kernels);
    CHECK(kernels->key.device.value == 0);
    CHECK(kernels->key.stream.value == 82);
    CHECK(kernels->key.pid == calls->key.pid);
    REQUIRE(kernels->size() == 3);
    for (uint32_t i = 0; i < 3; ++i) {
        const auto launch = trace.correlation.launchingCall(trace, {idOf(trace, kernels), i});
        REQUIRE(launch);
        CHECK(launch->track == idOf(trace, calls));
        CHECK(launch->index == i);
    }

    // The range stretched over the kernels is drawn on the GPU, on the stream of its first kernel.
    const Track* range = findTrack(trace, TrackKind::Nvtx);
    REQUIRE(range);
    CHECK(range->key.tid.value == 0);
    CHECK(range->key.device.value == 0);
    CHECK(range->key.stream.value == 82);
    CHECK(range->key.context == kernels->key.context);
    CHECK(nameAt(trace, *range, 0) == "nccl_step");
    CHECK(range->events.start[0] == kernels->events.start[0]);
    CHECK(range->duration(0) == 150'000);

    const Process* process = trace.findProcess(calls->key.pid);
    REQUIRE(process);
    CHECK(process->name == "Device 0");
}

namespace {

// The same profile as PyTorch 1.8 and as today's profiler write it: host rows (a numeric pid
// with the tid as a string in 1.8), GPU rows ("stream 7" in 1.8), correlation args, and the
// launch flows ("async" / "launch" in 1.8, "ac2g" today).
std::string torchTrace(bool pytorch18)
{
    const auto category = [&](const char* old, const char* current) { return pytorch18 ? old : current; };
    const std::string hostTid = pytorch18 ? R"("25738")" : "25738";
    const std::string gpuTid = pytorch18 ? R"("stream 7")" : "7";
    const std::string flow
        = pytorch18 ? R"("cat": "async", "name": "launch")" : R"("cat": "ac2g", "name": "ac2g")";
    std::string out = R"({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "Tesla V100-SXM2-16GB",
 "totalGlobalMem": 16945512448, "computeMajor": 7, "computeMinor": 0, "numSms": 80}], "traceEvents": [)";
    const auto add = [&](const std::string& event) { out += (out.back() == '[' ? "\n" : ",\n") + event; };
    add(R"({"ph": "X", "cat": ")" + std::string(category("Operator", "cpu_op"))
        + R"(", "name": "aten::conv2d", "pid": 25738, "tid": )" + hostTid
        + R"(, "ts": 1621401187223000, "dur": 400, "args": {"Device": 25738, "External id": 31}})");
    struct Launch
    {
        const char* call;
        const char* gpuCategory[2];
        const char* gpuName;
        int correlation;
        int cbid;
        const char* extra;
    };
    const Launch launches[] = {
        {"cudaMemcpyAsync", {"Memcpy", "gpu_memcpy"}, "Memcpy HtoD (Pageable -> Device)", 311, 41,
            R"(, "bytes": 640)"},
        {"cudaLaunchKernel", {"Kernel", "kernel"},
            "void implicit_convolve_sgemm<float, float, 128, 5, 5, 3, 3, 3, 1, false, false, true>", 333, 211,
            R"(, "registers per thread": 72, "shared memory": 13824, "grid": [1, 2, 1], "block": [128, 1, 1])"},
        {"cudaMemsetAsync", {"Memset", "gpu_memset"}, "Memset (Device)", 338, 51, R"(, "bytes": 16)"},
    };
    int64_t ts = 1621401187223010;
    for (const Launch& l : launches) {
        const std::string correlation = std::to_string(l.correlation);
        add(R"({"ph": "X", "cat": ")" + std::string(category("Runtime", "cuda_runtime")) + R"(", "name": ")"
            + l.call + R"(", "pid": 25738, "tid": )" + hostTid + R"(, "ts": )" + std::to_string(ts)
            + R"(, "dur": 20, "args": {"cbid": )" + std::to_string(l.cbid) + R"(, "correlation": )"
            + correlation + R"(, "external id": 31, "external ts": 1621401187223000}})");
        add(R"({"ph": "s", "id": )" + correlation + R"(, "pid": 25738, "tid": 25738, "ts": )"
            + std::to_string(ts) + ", " + flow + "}");
        const std::string gpuTs = std::to_string(ts + 40);
        add(R"({"ph": "X", "cat": ")" + std::string(l.gpuCategory[pytorch18 ? 0 : 1]) + R"(", "name": ")"
            + l.gpuName + R"(", "pid": 0, "tid": )" + gpuTid + R"(, "ts": )" + gpuTs
            + R"(, "dur": 3, "args": {"device": 0, "context": 1, "stream": 7, "correlation": )" + correlation
            + R"(, "external id": 31)" + l.extra + "}}");
        add(R"({"ph": "f", "id": )" + correlation + R"(, "pid": 0, "tid": )" + gpuTid + R"(, "ts": )" + gpuTs
            + ", " + flow + R"(, "bp": "e"})");
        ts += 100;
    }
    add(R"JSON({"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": "Spans", "tid": "PyTorch Profiler",
 "ts": 1621401187222000, "dur": 2000
})JSON");
    add(R"({"name": "thread_name", "ph": "M", "ts": 1621401187222000, "pid": 25738, "tid": )" + hostTid
        + R"JSON(, "args": {"name": "thread 25738 (python)"}})JSON");
    return out + "\n]}";
}

} // namespace

TEST_CASE("A PyTorch 1.8 trace imports exactly as the same profile written by today's profiler")
{
    const Trace old = importText("torch18", torchTrace(true));
    const Trace current = importText("torch-current", torchTrace(false));
    CHECK(old.eventCount() == 7);
    CHECK(old.eventCount(TrackKind::CudaApi) == 3);
    CHECK(old.eventCount(TrackKind::Kernels) == 1);
    CHECK(old.eventCount(TrackKind::Memory) == 2);
    for (const Diagnostic& d : old.diagnostics)
        CHECK_THAT(d.text, !Catch::Contains("numeric process"));
    CHECK(old.flows.empty()); // the launch flows are the correlation, not links of their own
    SemanticCompareOptions options;
    options.metadata = false; // the trace schema's wording aside
    CHECK(semanticDifference(current, old, options) == "");

    const Track* calls = findTrack(old, TrackKind::CudaApi);
    REQUIRE(calls);
    CHECK(calls->key.tid.value == 25738);
    const Track* kernels = findTrack(old, TrackKind::Kernels);
    REQUIRE(kernels);
    const auto launch = old.correlation.launchingCall(old, {idOf(old, kernels), 0});
    REQUIRE(launch);
    CHECK(nameAt(old, old.track(launch->track), launch->index) == "cudaLaunchKernel");
    const Thread* thread = old.findThread(Tid(25738));
    REQUIRE(thread);
    CHECK(thread->name == "thread 25738 (python)");
}

TEST_CASE("gpu_user_annotation ranges go on their stream, in the context of its kernels")
{
    // As HolisticTraceAnalysis' rank-0 trace writes them: pid = device, tid = stream, and only
    // an External id for args, while the kernels say device, context and stream.
    const Trace trace = importText("gpu-annotation", test::kHtaAnnotatedStreamJson);
    const Track* kernels = findTrack(trace, TrackKind::Kernels);
    const Track* range = findTrack(trace, TrackKind::Nvtx);
    REQUIRE(kernels);
    REQUIRE(range);
    CHECK(range->key.tid.value == 0);
    CHECK(range->key.device == kernels->key.device);
    CHECK(range->key.context == kernels->key.context);
    CHECK(range->key.stream == kernels->key.stream);
    CHECK(range->key.pid == kernels->key.pid);
    CHECK(nameAt(trace, *range, 0) == "## backward ##");
    CHECK(
        trace.domainName(nvtxAt(trace, {idOf(trace, range), 0}).attributes.domain) == "gpu_user_annotation");
    // No thread 0 of the device's process is made up for it.
    CHECK(trace.findThread(Tid(0)) == nullptr);
}
