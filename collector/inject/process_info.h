// Describes the process at the top of its spool file: command line, executable, working
// directory, host, short name, and the environment variables the report keeps (the launcher's
// list plus the MPI/torchrun rank variables). Runs on the writer, never on a hot path.
#pragma once

#include "collector/inject/spool_file.h"
#include "collector/spool/clock_sync.h"

namespace sightline::inject {

void writeProcessInfo(SpoolFile& file, const char* keepEnvList);
void writeClockSync(SpoolFile& file, const spool::ClockPair& pair);
// A record with text written straight to the file (tid 0 unless given).
void writeTextRecord(SpoolFile& file, spool::RecordType type, uint32_t firstWord, const char* text,
    uint32_t textBytes, uint32_t tid = 0);

} // namespace sightline::inject
