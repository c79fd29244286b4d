// Reading one spool file (spool/spool_format.h) back: the file is mapped (not copied: a busy
// recording is hundreds of megabytes), the header is checked, then the file is split into
// records read in place. A file cut short ends in a partial record, which is dropped and noted
// (`truncated`); anything malformed before that stops the reading the same way, so a damaged
// spool still yields every record before the damage.
#pragma once

#include "collector/spool/spool_format.h"
#include "model/core/result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::collector {

class SpoolFile
{
public:
    SpoolFile() = default;
    SpoolFile(SpoolFile&& other) noexcept;
    SpoolFile& operator=(SpoolFile&& other) noexcept;
    SpoolFile(const SpoolFile&) = delete;
    SpoolFile& operator=(const SpoolFile&) = delete;
    ~SpoolFile();

    std::string path;
    spool::FileHeader header {};
    bool truncated = false; // the last record was partial (or malformed) and dropped

    size_t recordCount() const { return m_count; }
    // Calls fn(const spool::RecordHeader&) for every complete record, in file order.
    template <class Fn> void forEach(Fn&& fn) const
    {
        for (size_t offset = m_first; offset < m_end;) {
            const auto& record = *reinterpret_cast<const spool::RecordHeader*>(m_bytes + offset);
            fn(record);
            offset += record.bytes;
        }
    }
    template <class R> static const R& as(const spool::RecordHeader& record)
    {
        return reinterpret_cast<const R&>(record);
    }
    // The text carried by a record type that has one; empty otherwise.
    static std::string_view text(const spool::RecordHeader& record);

    // Gathered while the file is checked, so readers need no extra pass over it:
    size_t count(spool::RecordType type) const { return m_typeCounts[uint16_t(type) % kTypeSlots]; }
    // The String and NvtxDomain records, which other records refer to.
    const std::vector<const spool::RecordHeader*>& tables() const { return m_tables; }
    const std::vector<const spool::ClockSyncRecord*>& clockPairs() const { return m_clockPairs; }

private:
    friend Result<SpoolFile> readSpoolFile(const std::string& path);
    const unsigned char* m_bytes = nullptr; // the mapped file (page aligned)
    size_t m_size = 0;
    size_t m_first = 0; // the first record
    size_t m_end = 0; // past the last complete record
    size_t m_count = 0;
    static constexpr size_t kTypeSlots = 64;
    size_t m_typeCounts[kTypeSlots] = {};
    std::vector<const spool::RecordHeader*> m_tables;
    std::vector<const spool::ClockSyncRecord*> m_clockPairs;
};

Result<SpoolFile> readSpoolFile(const std::string& path);

// The spool files in a folder (`*.spool`), sorted by name.
std::vector<std::string> listSpoolFiles(const std::string& folder);

} // namespace sightline::collector
