#include "spool_builder.h"

#include <algorithm>
#include <fstream>

namespace sightline::test {

SpoolBuilder::SpoolBuilder(uint32_t pid, spool::TickSource ticks, uint32_t ppid)
{
    const spool::FileHeader header = spool::makeFileHeader(pid, ppid, ticks);
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

} // namespace sightline::test
