#include "collector_test_support.h"

#include "../../test_paths.h"
#include "../support/run_command.h"

#include <fstream>

namespace sightline::test {

std::string profileCommand()
{
    return shellQuote((binDir() / "sightline").string()) + " profile";
}

std::vector<NvtxRow> nvtxRows(const Trace& trace, Pid pid, Tid tid, DomainId domain)
{
    std::vector<NvtxRow> rows;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
        const Track& track = trace.tracks[t];
        if (track.key.kind != TrackKind::Nvtx || track.key.pid != pid || track.key.tid != tid
            || track.key.domain != domain)
            continue;
        for (uint32_t i = 0; i < track.size(); ++i) {
            const NvtxEvent e = nvtxAt(trace, {TrackId(t), i});
            rows.push_back({e, track.laneOf(i), std::string(trace.strings[e.name])});
        }
    }
    return rows;
}

std::vector<OsCall> osCalls(const Trace& trace, Pid pid, Tid tid)
{
    std::vector<OsCall> calls;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
        const Track& track = trace.tracks[t];
        if (track.key.kind == TrackKind::OsRuntime && track.key.pid == pid && track.key.tid == tid)
            for (uint32_t i = 0; i < track.size(); ++i)
                calls.push_back(osCallAt(trace, {TrackId(t), i}));
    }
    return calls;
}

std::vector<std::string> osCallNames(const Trace& trace, Pid pid, Tid tid)
{
    std::vector<std::string> names;
    for (const OsCall& c : osCalls(trace, pid, tid))
        names.emplace_back(trace.strings[c.name]);
    return names;
}

const NvtxDomain* findDomain(const Trace& trace, std::string_view name)
{
    for (const NvtxDomain& d : trace.domains)
        if (d.name == name) return &d;
    return nullptr;
}

} // namespace sightline::test
