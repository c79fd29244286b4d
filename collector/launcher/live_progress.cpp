#include "collector/launcher/live_progress.h"

#include "collector/spool/spool_format.h"

#include <cstdio>
#include <filesystem>
#include <vector>

namespace sightline::collector {
namespace {

bool isEvent(spool::RecordType type)
{
    using T = spool::RecordType;
    switch (type) {
    case T::NvtxPush:
    case T::NvtxPushPlain:
    case T::NvtxStart:
    case T::NvtxMark:
    case T::OsCall:
    case T::CudaApi:
    case T::CudaKernel:
    case T::CudaMemcpy:
    case T::CudaMemset:
    case T::CudaSync:
        return true;
    default:
        return false;
    }
}

} // namespace

uint64_t SpoolEventCounter::count()
{
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(m_spoolDir, error))
        if (entry.path().extension() == spool::kFileSuffix)
            scan(entry.path().string(), m_files[entry.path().string()]);
    return m_events;
}

void SpoolEventCounter::scan(const std::string& path, FileState& state)
{
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) return;
    if (!state.headerSkipped) {
        spool::FileHeader header {};
        if (std::fread(&header, sizeof header, 1, file) != 1) {
            std::fclose(file);
            return;
        }
        state.offset = header.headerBytes;
        state.headerSkipped = true;
    }
    // Walk the record headers appended since the last scan; a record still being written is
    // left for the next look.
    std::vector<unsigned char> chunk(1 << 20);
    for (;;) {
        if (std::fseek(file, long(state.offset), SEEK_SET) != 0) break;
        const size_t got = std::fread(chunk.data(), 1, chunk.size(), file);
        size_t at = 0;
        while (at + sizeof(spool::RecordHeader) <= got) {
            const auto* header = reinterpret_cast<const spool::RecordHeader*>(chunk.data() + at);
            if (header->bytes < sizeof(spool::RecordHeader) || at + header->bytes > got) break;
            if (isEvent(header->type)) ++m_events;
            at += header->bytes;
        }
        state.offset += at;
        if (got < chunk.size() || at == 0) break;
    }
    std::fclose(file);
}

} // namespace sightline::collector
