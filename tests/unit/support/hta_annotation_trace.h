// A Chrome trace of the shape HolisticTraceAnalysis' rank-0 trace has for GPU annotations: a
// cudaLaunchKernel on a CPU thread, its kernel on stream 7 of device 0 (with device, context and
// stream in its args), and a `gpu_user_annotation` range over it written with pid = device 0,
// tid = stream 7 and only an External id for args. The import test and the timeline test read
// the same text.
#pragma once

namespace sightline::test {

inline constexpr const char* kHtaAnnotatedStreamJson = R"JSON({"schemaVersion": 1, "traceEvents": [
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 4096, "tid": 4096, "ts": 1712195495505570.0, "dur": 6.5,
 "args": {"External id": 112, "cbid": 211, "correlation": 135071}},
{"ph": "X", "cat": "kernel", "name": "CatArrayBatchedCopy", "pid": 0, "tid": 7, "ts": 1712195495505583.0, "dur": 4.928,
 "args": {"External id": 112, "queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 135071,
          "registers per thread": 30, "shared memory": 0, "grid": [4, 106, 1], "block": [128, 1, 1]}},
{"ph": "X", "cat": "gpu_user_annotation", "name": "## backward ##", "pid": 0, "tid": 7, "ts": 1712195495505581.5,
 "dur": 28.226, "args": {"External id": 21205}},
{"name": "thread_name", "ph": "M", "ts": 1712195495505000, "pid": 0, "tid": 7, "args": {"name": "stream 7 "}}
]}
)JSON";

} // namespace sightline::test
