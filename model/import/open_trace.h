// Opening any trace file the model can read, chosen by content rather than by extension: a
// Sightline report (.rep magic), an Nsight Systems SQLite export ("SQLite format 3" header), or
// a Chrome trace / PyTorch profiler JSON file (gzip magic, or text starting with '{' or '[').
// Progress, cancel, thread count and deriveTracks in `options` apply to every kind; failures are
// one sentence naming the file.
#pragma once

#include "model/format/report_io.h"

namespace sightline {

enum class TraceFileKind { Report, NsysSqlite, ChromeTrace, Unknown };

// What the file's first bytes say it is (Unknown also when it cannot be read or is empty).
TraceFileKind sniffTraceFile(const std::string& path);

Result<Trace> openTrace(const std::string& path, const ReadOptions& options = {});

} // namespace sightline
