// Reading one spool file (spool/spool_format.h) back: the file is mapped (not copied: a busy
// recording is hundreds of megabytes), the header is checked, then the file is split into
// records read in place. A file cut short ends in a partial record, which is left unread and
// noted (`truncated`); anything malformed before that stops the reading the same way, so a
// damaged spool still yields every record before the damage. The records are found on every
// core (spool_scan.h) and split into chunks of about `chunkBytes` (whole records), which the
// launcher decodes in parallel.
//
// A file still being written is read again with readAppended(): the bytes past the last
// complete record are mapped on their own and their complete records join those read before
// (earlier mappings stay, so every record read keeps its address). A record cut at the end is
// read once it is whole; the records and chunks are then those of the whole file, split where
// the reads stopped.
#pragma once

#include "collector/convert/decode/spool_scan.h"
#include "collector/spool/spool_format.h"
#include "model/common/result.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::collector {

class SpoolFile
{
public:
    std::string path;
    spool::FileHeader header {};
    bool truncated = false; // the file ends in a partial (or malformed) record, left unread

    // Reads the complete records appended since the last read (the first read checks the
    // header and reads from it).
    Status readAppended(size_t chunkBytes);
    // The offset past the last complete record read: where the next read starts.
    size_t bytesRead() const { return m_end; }

    size_t recordCount() const { return m_count; }
    // Calls fn(const spool::RecordHeader&) for every complete record, in file order.
    template <class Fn> void forEach(Fn&& fn) const
    {
        for (size_t chunk = 0; chunk < m_chunks.size(); ++chunk)
            forEachInChunk(chunk, fn);
    }

    // The chunks: consecutive runs of whole records that together are the file's records.
    size_t chunkCount() const { return m_chunks.size(); }
    template <class Fn> void forEachInChunk(size_t chunk, Fn&& fn) const
    {
        const unsigned char* at = m_chunks[chunk].first;
        const unsigned char* const end = m_chunks[chunk].end;
        while (at < end) {
            const auto& record = *reinterpret_cast<const spool::RecordHeader*>(at);
            fn(record);
            at += record.bytes;
        }
    }
    // Records of a type in one chunk.
    size_t count(size_t chunk, spool::RecordType type) const
    {
        const size_t slot = uint16_t(type) % SpoolScan::kTypeSlots;
        const size_t after
            = chunk + 1 < m_chunks.size() ? m_chunks[chunk + 1].typeCountsBefore[slot] : m_typeCounts[slot];
        return after - m_chunks[chunk].typeCountsBefore[slot];
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
        return m_typeCounts[uint16_t(type) % SpoolScan::kTypeSlots];
    }
    // The String and NvtxDomain records, which other records refer to.
    const std::vector<const spool::RecordHeader*>& tables() const { return m_tables; }
    const std::vector<const spool::ClockSyncRecord*>& clockPairs() const { return m_clockPairs; }

    static constexpr size_t kDefaultChunkBytes = size_t(4) << 20;

private:
    struct Unmap
    {
        size_t bytes;
        void operator()(const unsigned char* mapped) const;
    };
    struct Chunk
    {
        const unsigned char* first; // the chunk's first record
        const unsigned char* end; // past its last
        size_t typeCountsBefore[SpoolScan::kTypeSlots]; // the file's counts where the chunk starts
    };
    Status checkHeader(const unsigned char* bytes, size_t size);
    // Adds what a scan of the mapping `bytes`, which starts at file offset `from`, found.
    void add(const SpoolScan& scan, const unsigned char* bytes, size_t from);

    std::vector<std::unique_ptr<const unsigned char, Unmap>> m_mappings; // page aligned
    size_t m_end = 0; // 0 until the header is read
    size_t m_count = 0;
    size_t m_typeCounts[SpoolScan::kTypeSlots] = {};
    std::vector<const spool::RecordHeader*> m_tables; // in order
    std::vector<const spool::ClockSyncRecord*> m_clockPairs; // in order
    std::vector<Chunk> m_chunks;
};

Result<SpoolFile> readSpoolFile(const std::string& path, size_t chunkBytes = SpoolFile::kDefaultChunkBytes);

// The spool files in a folder (`*.spool`), sorted by name.
std::vector<std::string> listSpoolFiles(const std::string& folder);

} // namespace sightline::collector
