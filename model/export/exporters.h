// Exporting a loaded Trace to other tools' formats:
//  - SQLite with Nsight Systems' table and column names (sqlite_schema.h lists them), so SQL
//    written for `nsys export --type sqlite` files runs unchanged, and every field of every
//    event can be read back by an importer;
//  - Chrome trace JSON (the "traceEvents" format Perfetto UI and chrome://tracing open);
//  - CSV, one file per kind of track, in the Events View's columns (events_text.h).
// Every exporter writes through a temporary file renamed into place at the end, so a failed or
// interrupted export never leaves a partial file behind, and refuses to replace an existing
// file unless asked to. Each returns a Status: success, or one error sentence.
#pragma once

#include "model/common/result.h"
#include "model/trace/trace.h"

#include <string>
#include <string_view>
#include <vector>

namespace sightline {

struct ExportOptions
{
    bool overwrite = false; // replace existing output files
    std::string sourcePath; // the report being exported; recorded in the output's metadata
};

Status exportSqlite(const Trace& trace, const std::string& path, const ExportOptions& options = {});

Status exportChromeTrace(const Trace& trace, const std::string& path, const ExportOptions& options = {});

// `destination` is either a folder (an existing directory, or a path ending in '/'), which then
// receives cuda_api.csv, nvtx.csv, osrt.csv, kernels.csv, memory.csv and sync.csv, or a prefix
// OUT giving OUT_kernels.csv, OUT_memory.csv, ... Each holds every event of its kind as the
// Events View lists them: its columns, start order. A file is written for every kind, with just
// the header row when the trace has no such events.
Status exportCsv(const Trace& trace, const std::string& destination, const ExportOptions& options = {});

// The file names exportCsv writes for `destination`, in a fixed order.
std::vector<std::string> csvExportPaths(const std::string& destination);

} // namespace sightline
