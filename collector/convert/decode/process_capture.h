// Decoding one process's recording from its spool file(s) into a ProcessCapture
// (decoded_process.h) on the session clock (nanoseconds since the launcher started the target). NVTX pairs
// are matched here: pops with the latest push of the same thread and domain, ends with their start by range
// id whatever the thread. Ranges still open when the process ended are closed at its last timestamp and
// counted. Names are interned into the TraceBuilder's string table; NVTX domains get the builder's ids.
//
// The files are decoded in chunks on every core (chunk_decoder.h) and the chunks joined in
// order, so the result, string ids included, is the one a single pass would give. NVTX events
// and OS calls, the bulk of a recording, stay in their chunks' batches (in order) rather than
// being copied into one array.
#pragma once

#include "collector/convert/decode/clock_map.h"
#include "collector/convert/decode/decoded_process.h"
#include "collector/convert/decode/spool_reader.h"
#include "model/construct/trace_builder.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sightline::collector {

// Decodes the spool files of one process (several when it exec'ed: in order of writing).
ProcessCapture decodeProcess(const std::vector<const SpoolFile*>& files, const ClockMap& clock,
    const DecodeOptions& options, TraceBuilder& builder);

} // namespace sightline::collector
