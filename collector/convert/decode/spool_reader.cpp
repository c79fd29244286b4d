#include "collector/convert/decode/spool_reader.h"

#include "collector/convert/decode/spool_records.h"
#include "model/common/parallel_for.h"

#include <algorithm>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sightline::collector {

namespace {

// Maps the file's pages in before they are read, on every core for a large file (a busy
// recording is hundreds of megabytes; one thread faulting them in one by one is slow).
void mapIn(void* mapped, size_t size)
{
#ifdef MADV_POPULATE_READ
    constexpr size_t kPieceBytes = size_t(4) << 20; // a multiple of the page size
    parallelFor((size + kPieceBytes - 1) / kPieceBytes, [&](size_t i) {
        const size_t offset = i * kPieceBytes;
        madvise(
            static_cast<char*>(mapped) + offset, std::min(kPieceBytes, size - offset), MADV_POPULATE_READ);
    });
#else
    madvise(mapped, size, MADV_WILLNEED);
#endif
}

} // namespace

std::string_view SpoolFile::text(const spool::RecordHeader& h)
{
    const TextSpan span = textSpan(h);
    return {reinterpret_cast<const char*>(&h) + span.offset, span.bytes};
}

void SpoolFile::Unmap::operator()(const unsigned char* mapped) const
{
    munmap(const_cast<unsigned char*>(mapped), bytes);
}

Status SpoolFile::readAppended(size_t chunkBytes)
{
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return Status::failure(path + ": cannot open the spool file; check that it exists and is readable.");
    struct stat st
    {
    };
    const size_t size = fstat(fd, &st) == 0 ? size_t(st.st_size) : 0;
    if (m_end > 0 && size <= m_end) { // nothing appended
        close(fd);
        truncated = m_end != size;
        return {};
    }
    static const size_t pageBytes = size_t(sysconf(_SC_PAGESIZE));
    const size_t from = m_end / pageBytes * pageBytes; // the page of the first byte not read
    void* mapped
        = size > from ? mmap(nullptr, size - from, PROT_READ, MAP_PRIVATE, fd, off_t(from)) : nullptr;
    close(fd);
    if (mapped == MAP_FAILED)
        return Status::failure(path + ": the spool file cannot be mapped; check free memory.");
    const auto* bytes = static_cast<const unsigned char*>(mapped);
    if (bytes) {
        mapIn(mapped, size - from);
        m_mappings.emplace_back(bytes, Unmap {size - from});
    }
    if (m_end == 0) {
        if (Status checked = checkHeader(bytes, size); !checked) return checked;
        m_end = header.headerBytes;
    }
    const SpoolScan scan = scanSpoolRecords(bytes, m_end - from, size - from, chunkBytes);
    add(scan, bytes, from);
    if (scan.count == 0 && bytes) m_mappings.pop_back(); // no record to keep it for
    truncated = m_end != size;
    return {};
}

Status SpoolFile::checkHeader(const unsigned char* bytes, size_t size)
{
    if (size < sizeof(spool::FileHeader) || std::memcmp(bytes, spool::kFileMagic, 8) != 0)
        return Status::failure(path + ": not a Sightline spool file (bad header); it cannot be used.");
    std::memcpy(&header, bytes, sizeof(header));
    if (header.formatMajor != spool::kFormatMajor)
        return Status::failure(path + ": spool format version " + std::to_string(header.formatMajor)
            + " is not supported; use the sightline build that recorded it.");
    const size_t first = header.headerBytes;
    if (first < sizeof(spool::FileHeader) || first % 8 != 0 || first > size)
        return Status::failure(path + ": the spool header is damaged; the file cannot be used.");
    return {};
}

void SpoolFile::add(const SpoolScan& scan, const unsigned char* bytes, size_t from)
{
    if (scan.count > 0) // a scan that found nothing holds one empty chunk
        for (size_t c = 0; c < scan.chunks.size(); ++c) {
            Chunk& chunk = m_chunks.emplace_back();
            chunk.first = bytes + scan.chunks[c].first;
            chunk.end = bytes + (c + 1 < scan.chunks.size() ? scan.chunks[c + 1].first : scan.end);
            for (size_t t = 0; t < SpoolScan::kTypeSlots; ++t)
                chunk.typeCountsBefore[t] = m_typeCounts[t] + scan.chunks[c].typeCountsBefore[t];
        }
    m_count += scan.count;
    for (size_t t = 0; t < SpoolScan::kTypeSlots; ++t)
        m_typeCounts[t] += scan.typeCounts[t];
    m_tables.insert(m_tables.end(), scan.tables.begin(), scan.tables.end());
    m_clockPairs.insert(m_clockPairs.end(), scan.clockPairs.begin(), scan.clockPairs.end());
    m_end = from + scan.end;
}

Result<SpoolFile> readSpoolFile(const std::string& path, size_t chunkBytes)
{
    SpoolFile file;
    file.path = path;
    if (Status read = file.readAppended(chunkBytes); !read) return Result<SpoolFile>::failure(read.error());
    return file;
}

std::vector<std::string> listSpoolFiles(const std::string& folder)
{
    std::vector<std::string> files;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(folder, error))
        if (entry.is_regular_file() && entry.path().extension() == spool::kFileSuffix)
            files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace sightline::collector
