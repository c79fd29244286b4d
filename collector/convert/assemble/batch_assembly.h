// Adds a process's NVTX events and OS-runtime calls, the bulk of most recordings, kept in
// batches by the decoder (process_capture.h), to the TraceBuilder on every core. The trace is
// the one adding them one at a time in batch order would give: each track receives its events
// in that order and NVTX attributes get their ids in the order they are first met. Three passes:
// count each batch's events per track (in parallel), place them (in order: tracks, attribute
// ids, where each batch's events start in each track), then copy (in parallel).
#pragma once

#include "collector/convert/assemble/capture_window.h"
#include "collector/convert/decode/decoded_process.h"

namespace sightline::collector {

// Both return how many events the capture windows left out.
size_t addNvtxBatches(const ProcessCapture& p, const CaptureWindows& windows, TraceBuilder& builder);
size_t addOsCallBatches(const ProcessCapture& p, const CaptureWindows& windows, TraceBuilder& builder);

} // namespace sightline::collector
