// Shared by the timeline tests: generated traces (built once per size and kept), and small
// helpers that pick events of a kind from them.
#pragma once

#include "model/trace/trace.h"

#include <functional>
#include <memory>
#include <optional>

namespace sightline::testing {

// A generated report of `events` events (seed 1), built once per size for the test run.
std::shared_ptr<const Trace> generatedTrace(uint64_t events = 40000);

// The first event of a kind (in track order, then index order) satisfying `accept`.
std::optional<EventRef> findEvent(
    const Trace& trace, TrackKind kind, const std::function<bool(const Track&, EventRef)>& accept = {});

} // namespace sightline::testing
