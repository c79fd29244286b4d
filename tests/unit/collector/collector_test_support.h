// Helpers for the collector tests: writing synthetic spool files record by record (to test the
// launcher without the injection library), running `sightline profile`, and reading a loaded
// report's events back per track kind.
#pragma once

#include "collector/spool/spool_format.h"
#include "model/core/event_access.h"
#include "model/core/trace.h"

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::test {

// Builds a spool file in memory exactly as the injection library lays it out.
class SpoolBuilder
{
public:
    SpoolBuilder(uint32_t pid, spool::TickSource ticks = spool::TickSource::MonotonicNs, uint32_t ppid = 1);

    // Appends a record struct whose header is filled here; `text` follows it.
    template <class R> R& add(spool::RecordType type, R record, std::string_view text = {}, uint32_t tid = 0)
    {
        const uint32_t bytes = spool::paddedRecordBytes(sizeof(R), uint32_t(text.size()));
        record.header = {type, uint16_t(bytes), tid};
        const size_t at = m_bytes.size();
        m_bytes.resize(at + bytes, 0);
        std::memcpy(m_bytes.data() + at, &record, sizeof(R));
        std::memcpy(m_bytes.data() + at + sizeof(R), text.data(), text.size());
        return *reinterpret_cast<R*>(m_bytes.data() + at);
    }
    void addRaw(const void* data, size_t bytes);
    void addString(uint32_t id, std::string_view text);
    void addProcessText(spool::ProcessTextKind kind, std::string_view text);
    void addClockSync(uint64_t ticks, int64_t monotonicNs);

    const std::vector<unsigned char>& bytes() const { return m_bytes; }
    void writeTo(const std::string& path, size_t cutAt = SIZE_MAX) const;

private:
    std::vector<unsigned char> m_bytes;
};

// "sightline profile" once the CLI has the command, else the test driver around runProfile.
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
