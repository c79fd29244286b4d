// Flow links as lines a test can compare: "name start -> name start (flow name)", so that two
// traces of the same links compare equal whatever their track indexes.
#pragma once

#include "model/trace/trace.h"

#include <string>
#include <vector>

namespace sightline::test {

// "name start" of an event: which slice a flow is bound to.
inline std::string sliceText(const Trace& trace, EventRef ref)
{
    const Track& track = trace.track(ref.track);
    return std::string(trace.strings[track.events.name[ref.index]]) + " "
        + std::to_string(track.events.start[ref.index]);
}

// Every flow link of `trace` as a line, in the trace's order (by source, then destination).
inline std::vector<std::string> flowLines(const Trace& trace)
{
    std::vector<std::string> lines;
    for (const FlowLink& link : trace.flows)
        lines.push_back(sliceText(trace, link.from) + " -> " + sliceText(trace, link.to) + " ("
            + std::string(trace.strings[link.name]) + ")");
    return lines;
}

} // namespace sightline::test
