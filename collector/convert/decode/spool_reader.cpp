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
#include <utility>

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

SpoolFile::SpoolFile(SpoolFile&& other) noexcept
{
    *this = std::move(other);
}

SpoolFile& SpoolFile::operator=(SpoolFile&& other) noexcept
{
    std::swap(path, other.path);
    std::swap(header, other.header);
    std::swap(truncated, other.truncated);
    std::swap(m_bytes, other.m_bytes);
    std::swap(m_size, other.m_size);
    std::swap(m_scan, other.m_scan);
    return *this;
}

SpoolFile::~SpoolFile()
{
    if (m_bytes) munmap(const_cast<unsigned char*>(m_bytes), m_size);
}

Result<SpoolFile> readSpoolFile(const std::string& path, size_t chunkBytes)
{
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return Result<SpoolFile>::failure(
            path + ": cannot open the spool file; check that it exists and is readable.");
    struct stat st
    {
    };
    const size_t size = fstat(fd, &st) == 0 ? size_t(st.st_size) : 0;
    void* mapped = size > 0 ? mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0) : nullptr;
    close(fd);
    if (mapped == MAP_FAILED)
        return Result<SpoolFile>::failure(path + ": the spool file cannot be mapped; check free memory.");
    mapIn(mapped, size);
    SpoolFile file;
    file.path = path;
    file.m_bytes = static_cast<const unsigned char*>(mapped);
    file.m_size = size;
    if (size < sizeof(spool::FileHeader) || std::memcmp(file.m_bytes, spool::kFileMagic, 8) != 0)
        return Result<SpoolFile>::failure(
            path + ": not a Sightline spool file (bad header); it cannot be used.");
    std::memcpy(&file.header, file.m_bytes, sizeof(file.header));
    if (file.header.formatMajor != spool::kFormatMajor)
        return Result<SpoolFile>::failure(path + ": spool format version "
            + std::to_string(file.header.formatMajor)
            + " is not supported; use the sightline build that recorded it.");
    const size_t first = file.header.headerBytes;
    if (first < sizeof(spool::FileHeader) || first % 8 != 0 || first > size)
        return Result<SpoolFile>::failure(path + ": the spool header is damaged; the file cannot be used.");
    file.m_scan = scanSpoolRecords(file.m_bytes, first, size, chunkBytes);
    file.truncated = file.m_scan.end != size;
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
