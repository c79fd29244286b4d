// Which events light up with a selected one, as Nsight Systems highlights them: a GPU
// operation brings its launching CUDA API call and every other GPU operation of that call;
// an API call brings the GPU work it launched. Flow links (model/core/flows.h) bring the
// events at their other end, either way. Other events stand alone.
#pragma once

#include "model/trace/trace.h"

#include <optional>
#include <vector>

namespace sightline::views {

// The events correlated with `selected`, without `selected` itself; sorted, no duplicates.
std::vector<EventRef> correlatedEvents(const Trace& trace, EventRef selected);

// Whether a flow link runs from `from` to `to` (the connector gets an arrowhead at `to`).
bool flowRuns(const Trace& trace, EventRef from, EventRef to);

// The CUDA API call that launched a GPU operation, if the trace has it.
std::optional<EventRef> launchingCall(const Trace& trace, EventRef gpuOperation);

} // namespace sightline::views
