// Flow links: arrows from one event to another that a producer drew (Chrome trace flow events
// "s" / "t" / "f", bound to the slices they point at). A chain s -> t1 -> ... -> f becomes one
// link per step. Stored in Trace::flows sorted by (from, to); Trace::flowPartners answers which
// events an event is linked to, either way.
#pragma once

#include "model/core/ids.h"
#include "model/core/track.h"

namespace sightline {

struct FlowLink
{
    EventRef from, to;
    StringId name; // the flow's category as written ("" when it had none)
    friend auto operator<=>(const FlowLink&, const FlowLink&) = default;
};

} // namespace sightline
