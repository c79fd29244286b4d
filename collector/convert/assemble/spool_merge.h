// Turns a session's spool folder into a Trace: the spool files, read by a SpoolCursor
// (spool_cursor.h), are grouped by process (an exec'ed image writes `<pid>.<n>.spool` after
// `<pid>.spool`), every clock is mapped onto the session's, each process is decoded, the
// capture windows are applied and the metadata filled (host, GPUs, versions, options, start
// time). Unreadable spool files become diagnostics, not failures: a report is always produced.
// mergeSpools reads the folder to its end and assembles once; assembleReport assembles what a
// cursor has read so far (a recording still running), leaving the cursor to advance further.
#pragma once

#include "collector/convert/assemble/capture_window.h"
#include "collector/convert/assemble/spool_cursor.h"
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

// Reads every spool file of session.spoolDir to its end, then assembles the report.
MergedReport mergeSpools(const SessionInfo& session);
// The report of the records `cursor` has read, with `session`'s end as the session's end.
MergedReport assembleReport(const SpoolCursor& cursor, const SessionInfo& session);

} // namespace sightline::collector
