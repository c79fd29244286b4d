// Helpers for the collector tests: synthetic spool files (spool_builder.h), running
// `sightline profile`, and reading a loaded report's events back per track kind.
#pragma once

#include "model/trace/event_access.h"
#include "model/trace/trace.h"
#include "spool_builder.h"

#include <string>
#include <string_view>
#include <vector>

namespace sightline::test {

// The `sightline profile` command of the build (the CLI's runProfile over collector::profile).
std::string profileCommand();

// The events of one kind on the host tracks of (pid, tid), in track order, with their lane.
struct NvtxRow
{
    NvtxEvent event;
    uint32_t lane = 0;
    std::string name;
};
std::vector<NvtxRow> nvtxRows(const Trace& trace, Pid pid, Tid tid, DomainId domain);
std::vector<OsCall> osCalls(const Trace& trace, Pid pid, Tid tid);
std::vector<std::string> osCallNames(const Trace& trace, Pid pid, Tid tid);
const NvtxDomain* findDomain(const Trace& trace, std::string_view name);

} // namespace sightline::test
