#include "spool_reader.h"

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

using spool::RecordType;

// Where a record type's text starts and how long it is; {0, 0} for types without text.
struct TextSpan
{
    uint32_t offset = 0;
    uint32_t bytes = 0;
};

template <class R> TextSpan textAfter(uint32_t textBytes)
{
    return {uint32_t(sizeof(R)), textBytes};
}

TextSpan textSpan(const spool::RecordHeader& h)
{
    const auto* base = reinterpret_cast<const unsigned char*>(&h);
    auto field = [base](size_t offset) {
        uint32_t value;
        std::memcpy(&value, base + offset, sizeof(value));
        return value;
    };
    switch (h.type) {
    case RecordType::String:
        return textAfter<spool::StringRecord>(field(offsetof(spool::StringRecord, textBytes)));
    case RecordType::ProcessText:
        return textAfter<spool::ProcessTextRecord>(field(offsetof(spool::ProcessTextRecord, textBytes)));
    case RecordType::ThreadName:
        return textAfter<spool::ThreadNameRecord>(field(offsetof(spool::ThreadNameRecord, textBytes)));
    case RecordType::Diagnostic:
        return textAfter<spool::DiagnosticRecord>(field(offsetof(spool::DiagnosticRecord, textBytes)));
    case RecordType::NvtxDomain:
        return textAfter<spool::NvtxDomainRecord>(field(offsetof(spool::NvtxDomainRecord, textBytes)));
    case RecordType::NvtxCategory:
        return textAfter<spool::NvtxCategoryRecord>(field(offsetof(spool::NvtxCategoryRecord, textBytes)));
    case RecordType::NvtxPush:
        return textAfter<spool::NvtxPushRecord>(
            field(offsetof(spool::NvtxPushRecord, fields) + offsetof(spool::NvtxFields, textBytes)));
    case RecordType::NvtxMark:
        return textAfter<spool::NvtxMarkRecord>(
            field(offsetof(spool::NvtxMarkRecord, fields) + offsetof(spool::NvtxFields, textBytes)));
    case RecordType::NvtxPushPlain: {
        const auto* text = reinterpret_cast<const char*>(base) + sizeof(spool::NvtxPushPlainRecord);
        const uint32_t room = h.bytes >= sizeof(spool::NvtxPushPlainRecord)
            ? h.bytes - sizeof(spool::NvtxPushPlainRecord)
            : 0;
        return {uint32_t(sizeof(spool::NvtxPushPlainRecord)), uint32_t(strnlen(text, room))};
    }
    case RecordType::NvtxStart:
        return textAfter<spool::NvtxStartRecord>(
            field(offsetof(spool::NvtxStartRecord, fields) + offsetof(spool::NvtxFields, textBytes)));
    default:
        return {};
    }
}

// The smallest size a record of a known type may have (records may grow in later minors).
uint32_t minimumBytes(RecordType type)
{
    switch (type) {
    case RecordType::ClockSync:
        return sizeof(spool::ClockSyncRecord);
    case RecordType::String:
        return sizeof(spool::StringRecord);
    case RecordType::ProcessText:
        return sizeof(spool::ProcessTextRecord);
    case RecordType::ThreadName:
        return sizeof(spool::ThreadNameRecord);
    case RecordType::Loss:
        return sizeof(spool::LossRecord);
    case RecordType::Diagnostic:
        return sizeof(spool::DiagnosticRecord);
    case RecordType::CaptureControl:
        return sizeof(spool::CaptureControlRecord);
    case RecordType::NvtxDomain:
        return sizeof(spool::NvtxDomainRecord);
    case RecordType::NvtxCategory:
        return sizeof(spool::NvtxCategoryRecord);
    case RecordType::NvtxPush:
        return sizeof(spool::NvtxPushRecord);
    case RecordType::NvtxPushPlain:
        return sizeof(spool::NvtxPushPlainRecord);
    case RecordType::NvtxPopPlain:
        return sizeof(spool::NvtxPopPlainRecord);
    case RecordType::NvtxPop:
        return sizeof(spool::NvtxPopRecord);
    case RecordType::NvtxStart:
        return sizeof(spool::NvtxStartRecord);
    case RecordType::NvtxEnd:
        return sizeof(spool::NvtxEndRecord);
    case RecordType::NvtxMark:
        return sizeof(spool::NvtxMarkRecord);
    case RecordType::OsCall:
        return sizeof(spool::OsCallRecord);
    case RecordType::CudaApi:
        return sizeof(spool::CudaApiRecord);
    case RecordType::CudaKernel:
        return sizeof(spool::CudaKernelRecord);
    case RecordType::CudaMemcpy:
        return sizeof(spool::CudaMemcpyRecord);
    case RecordType::CudaMemset:
        return sizeof(spool::CudaMemsetRecord);
    case RecordType::CudaSync:
        return sizeof(spool::CudaSyncRecord);
    case RecordType::CudaDevice:
        return sizeof(spool::CudaDeviceRecord);
    case RecordType::CudaContext:
        return sizeof(spool::CudaContextRecord);
    case RecordType::CudaStream:
        return sizeof(spool::CudaStreamRecord);
    case RecordType::CudaVersions:
        return sizeof(spool::CudaVersionsRecord);
    }
    return sizeof(spool::RecordHeader);
}

bool validRecord(const spool::RecordHeader& h)
{
    if (h.bytes < minimumBytes(h.type) || h.bytes % 8 != 0) return false;
    const TextSpan span = textSpan(h);
    return span.offset + span.bytes <= h.bytes;
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
    std::swap(m_first, other.m_first);
    std::swap(m_end, other.m_end);
    std::swap(m_count, other.m_count);
    std::swap(m_typeCounts, other.m_typeCounts);
    std::swap(m_tables, other.m_tables);
    std::swap(m_clockPairs, other.m_clockPairs);
    return *this;
}

SpoolFile::~SpoolFile()
{
    if (m_bytes) munmap(const_cast<unsigned char*>(m_bytes), m_size);
}

Result<SpoolFile> readSpoolFile(const std::string& path)
{
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return Result<SpoolFile>::failure(
            path + ": cannot open the spool file; check that it exists and is readable.");
    struct stat st
    {
    };
    const size_t size = fstat(fd, &st) == 0 ? size_t(st.st_size) : 0;
    void* mapped = size > 0 ? mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0) : nullptr;
    close(fd);
    if (mapped == MAP_FAILED)
        return Result<SpoolFile>::failure(path + ": the spool file cannot be mapped; check free memory.");
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
    size_t offset = first;
    while (offset + sizeof(spool::RecordHeader) <= size) {
        const auto& h = *reinterpret_cast<const spool::RecordHeader*>(file.m_bytes + offset);
        if (offset + h.bytes > size || !validRecord(h)) break;
        ++file.m_count;
        ++file.m_typeCounts[uint16_t(h.type) % SpoolFile::kTypeSlots];
        if (h.type == spool::RecordType::String || h.type == spool::RecordType::NvtxDomain)
            file.m_tables.push_back(&h);
        else if (h.type == spool::RecordType::ClockSync)
            file.m_clockPairs.push_back(&SpoolFile::as<spool::ClockSyncRecord>(h));
        offset += h.bytes;
    }
    file.m_first = first;
    file.m_end = offset;
    file.truncated = offset != size;
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
