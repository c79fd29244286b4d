// Turns a session's spool folder into a Trace: reads every spool file, groups them by process
// (an exec'ed image writes `<pid>.<n>.spool` after `<pid>.spool`), maps every clock onto the
// session's, decodes each process, applies the capture windows, and fills the metadata (host,
// GPUs, versions, options, start time). Unreadable spool files become diagnostics, not
// failures: a report is always produced.
#pragma once

#include "collector/convert/assemble/capture_window.h"
#include "collector/convert/assemble/trace_assembly.h"
#include "collector/convert/cpu/cpu_assembly.h"
#include "collector/convert/decode/spool_reader.h"
#include "collector/spool/clock_sync.h"
#include "model/trace/trace.h"

#include <string>
#include <utility>
#include <vector>

namespace sightline::collector {

// What the conversion needs of the options the recording was made with.
struct ConversionOptions
{
    int64_t osrtThresholdNs = 1000; // OS-runtime calls shorter than this are dropped
    CaptureSpec capture;
    KeyValueList metadata; // the options as the report records them
    std::vector<std::pair<std::string, std::string>> environment; // set for the target (-e)
    CpuConversionOptions cpu;
};

struct SessionInfo
{
    std::string spoolDir;
    spool::TickSource launcherTicks = spool::TickSource::MonotonicNs;
    spool::ClockPair start; // time 0 of the report
    spool::ClockPair end; // when the target was seen to exit
    uint32_t targetPid = 0;
    std::vector<std::string> command;
    std::string workingDirectory;
    ConversionOptions options;
    bool queryHost = true; // collect host facts (nvidia-smi...); tests turn it off
    size_t spoolChunkBytes = SpoolFile::kDefaultChunkBytes; // the unit of parallel decoding
};

struct MergedReport
{
    Trace trace;
    size_t spoolFiles = 0;
    size_t events = 0;
    AssemblyStats stats;
    CpuAssemblyStats cpu;
    std::vector<std::pair<std::string, double>> phaseSeconds; // where the time went, in order
};

MergedReport mergeSpools(const SessionInfo& session);

} // namespace sightline::collector
