#include "collector_test_support.h"

#include "../../test_paths.h"
#include "../support/run_command.h"

#include <fstream>

namespace sightline::test {

SpoolBuilder::SpoolBuilder(uint32_t pid, spool::TickSource ticks, uint32_t ppid)
{
    spool::FileHeader header {};
    std::memcpy(header.magic, spool::kFileMagic, sizeof(header.magic));
    header.formatMajor = spool::kFormatMajor;
    header.formatMinor = spool::kFormatMinor;
    header.headerBytes = sizeof(header);
    header.tickSource = ticks;
    header.pid = pid;
    header.ppid = ppid;
    addRaw(&header, sizeof(header));
}

void SpoolBuilder::addRaw(const void* data, size_t bytes)
{
    const size_t at = m_bytes.size();
    m_bytes.resize(at + bytes);
    std::memcpy(m_bytes.data() + at, data, bytes);
}

void SpoolBuilder::addString(uint32_t id, std::string_view text)
{
    spool::StringRecord r {};
    r.id = id;
    r.textBytes = uint32_t(text.size());
    add(spool::RecordType::String, r, text);
}

void SpoolBuilder::addProcessText(spool::ProcessTextKind kind, std::string_view text)
{
    spool::ProcessTextRecord r {};
    r.kind = kind;
    r.textBytes = uint32_t(text.size());
    add(spool::RecordType::ProcessText, r, text);
}

void SpoolBuilder::addClockSync(uint64_t ticks, int64_t monotonicNs)
{
    spool::ClockSyncRecord r {};
    r.ticks = ticks;
    r.monotonicNs = monotonicNs;
    add(spool::RecordType::ClockSync, r);
}

void SpoolBuilder::writeTo(const std::string& path, size_t cutAt) const
{
    std::ofstream out(path, std::ios::binary);
    out.write(
        reinterpret_cast<const char*>(m_bytes.data()), std::streamsize(std::min(cutAt, m_bytes.size())));
}

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
