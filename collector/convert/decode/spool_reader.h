// Reading one spool file (spool/spool_format.h) back: the file is mapped (not copied: a busy
// recording is hundreds of megabytes), the header is checked, then the file is split into
// records read in place. A file cut short ends in a partial record, which is dropped and noted
// (`truncated`); anything malformed before that stops the reading the same way, so a damaged
// spool still yields every record before the damage. The records are found on every core
// (spool_scan.h) and split into chunks of about `chunkBytes` (whole records), which the launcher
// decodes in parallel.
#pragma once

#include "collector/convert/decode/spool_scan.h"
#include "collector/spool/spool_format.h"
#include "model/common/result.h"

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

    size_t recordCount() const { return m_scan.count; }
    // Calls fn(const spool::RecordHeader&) for every complete record, in file order.
    template <class Fn> void forEach(Fn&& fn) const
    {
        if (!m_scan.chunks.empty()) forEachBetween(m_scan.chunks.front().first, m_scan.end, fn);
    }

    // The chunks: consecutive runs of whole records that together are the file's records.
    size_t chunkCount() const { return m_scan.chunks.size(); }
    template <class Fn> void forEachInChunk(size_t chunk, Fn&& fn) const
    {
        forEachBetween(m_scan.chunks[chunk].first, chunkEnd(chunk), fn);
    }
    // Records of a type in one chunk.
    size_t count(size_t chunk, spool::RecordType type) const
    {
        const size_t slot = uint16_t(type) % SpoolScan::kTypeSlots;
        const auto& chunks = m_scan.chunks;
        const size_t after
            = chunk + 1 < chunks.size() ? chunks[chunk + 1].typeCountsBefore[slot] : m_scan.typeCounts[slot];
        return after - chunks[chunk].typeCountsBefore[slot];
    }
    template <class R> static const R& as(const spool::RecordHeader& record)
    {
        return reinterpret_cast<const R&>(record);
    }
    // The text carried by a record type that has one; empty otherwise.
    static std::string_view text(const spool::RecordHeader& record);

    // Gathered while the file is checked, so readers need no extra pass over it:
    size_t count(spool::RecordType type) const
    {
        return m_scan.typeCounts[uint16_t(type) % SpoolScan::kTypeSlots];
    }
    // The String and NvtxDomain records, which other records refer to.
    const std::vector<const spool::RecordHeader*>& tables() const { return m_scan.tables; }
    const std::vector<const spool::ClockSyncRecord*>& clockPairs() const { return m_scan.clockPairs; }

    static constexpr size_t kDefaultChunkBytes = size_t(4) << 20;

private:
    friend Result<SpoolFile> readSpoolFile(const std::string& path, size_t chunkBytes);
    template <class Fn> void forEachBetween(size_t offset, size_t end, Fn&& fn) const
    {
        while (offset < end) {
            const auto& record = *reinterpret_cast<const spool::RecordHeader*>(m_bytes + offset);
            fn(record);
            offset += record.bytes;
        }
    }
    size_t chunkEnd(size_t chunk) const
    {
        return chunk + 1 < m_scan.chunks.size() ? m_scan.chunks[chunk + 1].first : m_scan.end;
    }

    const unsigned char* m_bytes = nullptr; // the mapped file (page aligned)
    size_t m_size = 0;
    SpoolScan m_scan;
};

Result<SpoolFile> readSpoolFile(const std::string& path, size_t chunkBytes = SpoolFile::kDefaultChunkBytes);

// The spool files in a folder (`*.spool`), sorted by name.
std::vector<std::string> listSpoolFiles(const std::string& folder);

} // namespace sightline::collector
