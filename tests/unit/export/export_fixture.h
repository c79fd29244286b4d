// A trace holding every event kind the exporters handle, built with the TraceBuilder: two
// processes on two GPUs (one device shared by both, with a stream id used in both), CUDA
// runtime calls with nested driver calls correlated to kernels, copies (HtoD pageable, DtoH
// pinned, DtoD, peer), memsets and synchronizations; NVTX push/pop ranges with colours,
// categories and every payload type, start/end ranges ending on another thread, marks, named
// domains (one unused); nested OS runtime calls; timestamps with sub-microsecond parts; names
// with commas, quotes, backslashes, line breaks, UTF-8 and one invalid UTF-8 byte.
#pragma once

#include "model/trace/trace.h"

#include <map>
#include <string>

namespace sightline::test {

// A kernel name that needs escaping in JSON and quoting in CSV (valid UTF-8).
extern const std::string kTrickyKernelName;
// A kernel name holding a byte that is not valid UTF-8.
extern const std::string kInvalidUtf8KernelName;

Trace makeEveryKindTrace();

// Exports `trace` to SQLite in a fresh scratch folder named `name`; returns the file's path.
// Throws with the exporter's sentence when the export fails, so the test reports it.
std::string exportToScratch(const Trace& trace, const std::string& name);

// Expected figures computed straight from the trace's columns.
struct KindTotals
{
    size_t count = 0;
    int64_t totalDuration = 0;
};
// Per name (via the trace's string table, repaired as the exports write names) for tracks of one kind.
std::map<std::string, KindTotals> totalsByName(const Trace& trace, TrackKind kind);
KindTotals totalsOf(const Trace& trace, TrackKind kind);
// Memory operations split into copies and sets.
size_t memcpyCount(const Trace& trace);
size_t memsetCount(const Trace& trace);

} // namespace sightline::test
