// The bytes of a file read front to back in chunks, inflated on the fly when the file is gzip
// (one or several concatenated members), so that an importer never holds more than a chunk of
// it. Progress is counted in bytes of the file on disk, whatever the compression.
// Invariant: read() returns 0 only at the end of the content; a damaged gzip stream or a read
// failure is an error (error() says what), never a silent end.
#pragma once

#include "model/common/result.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace sightline {

class ByteSource
{
public:
    ByteSource();
    ~ByteSource();
    ByteSource(const ByteSource&) = delete;
    ByteSource& operator=(const ByteSource&) = delete;

    // Opens `path`; fails with "Cannot open 'PATH': REASON."
    Status open(const std::string& path);

    // Copies up to `capacity` bytes of content into `out`; 0 at the end or on an error.
    size_t read(char* out, size_t capacity);

    bool compressed() const { return m_compressed; }
    uint64_t fileBytesRead() const { return m_fileBytesRead; }
    uint64_t fileSize() const { return m_fileSize; }
    // Empty unless reading failed: "the gzip data is corrupt (...)" or the system's reason.
    const std::string& error() const { return m_error; }
    // True when the gzip data stops inside a member: the file was cut short, not corrupted.
    bool truncated() const { return m_truncated; }
    // True when the gzip data is corrupt: known already, or found by inflating the rest of the
    // file without keeping it (each member ends with a checksum). Damage inside a gzip file
    // often reads as a syntax error first and is only proved by what follows.
    bool provesCorrupt();

private:
    size_t readFile(char* out, size_t capacity);
    size_t inflateInto(char* out, size_t capacity);

    struct Inflater;
    int m_fd = -1;
    bool m_compressed = false;
    bool m_fileEnded = false;
    uint64_t m_fileSize = 0;
    uint64_t m_fileBytesRead = 0;
    std::unique_ptr<Inflater> m_inflater;
    std::vector<unsigned char> m_input; // compressed bytes waiting to be inflated
    std::string m_error;
    bool m_truncated = false;
    bool m_corrupt = false;
};

// True when the first bytes are the gzip magic (1f 8b).
bool isGzipMagic(const unsigned char* bytes, size_t size);

} // namespace sightline
