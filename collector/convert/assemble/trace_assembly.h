// Hands the decoded processes to the TraceBuilder: entities, then events inside the capture
// windows. On the way:
//  - a driver API call nested in a runtime call on the same thread is the runtime's own work
//    and is dropped (a GPU operation correlated to it is re-pointed at the runtime call);
//  - a GPU operation is kept with its launching API call (or, without one, by its own times);
//  - synchronisation events and streams get their device from the context table, and context
//    synchronisation (no stream) goes on the context's null stream;
//  - losses become one diagnostic sentence each.
#pragma once

#include "collector/convert/assemble/capture_window.h"
#include "collector/convert/decode/decoded_process.h"

#include <vector>

namespace sightline::collector {

struct AssemblyStats
{
    size_t events = 0;
    size_t droppedNestedDriverCalls = 0;
    size_t outsideCaptureRange = 0;
};

AssemblyStats assembleTrace(
    std::vector<ProcessCapture>& processes, const CaptureWindows& windows, TraceBuilder& builder);

} // namespace sightline::collector
