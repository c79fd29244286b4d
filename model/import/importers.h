// Importers of other tools' recordings into a Trace:
//  - importNsysSqlite: Nsight Systems SQLite exports (`nsys export --type sqlite`), every schema
//    from 2.x to 3.28, and Sightline's own SQLite export;
//  - importChromeTrace: Chrome trace JSON, plain or gzip, as PyTorch's profiler (Kineto) writes
//    it, and Sightline's own JSON export.
// Both stream their input (memory does not grow with the file beyond the events themselves),
// report progress in bytes of the input file, stop when options.cancel is set, and record
// import caveats as Diagnostics with source "import". Every failure is one sentence naming the
// file. Times are nanoseconds from t = 0 at the session start (the earliest event for JSON),
// with metadata.startTimeUtcNs the wall-clock time of t = 0 when the file says it.
#pragma once

#include "model/format/report_io.h"

namespace sightline {

// Every time an importer hands over lies in [0, kImportedTimeLimit), as a report holds them
// (2^62 ns is 146 years); rows and events outside it are skipped and counted in a diagnostic.
inline constexpr Timestamp kImportedTimeLimit = Timestamp(1) << 62;

Result<Trace> importNsysSqlite(const std::string& path, const ReadOptions& options = {});
Result<Trace> importChromeTrace(const std::string& path, const ReadOptions& options = {});

} // namespace sightline
