#include "model/format/container.h"

#include <memory>
#include <zstd.h>
#include <zstd_errors.h>

namespace sightline::rep {
namespace {

void putLe(std::string& out, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; ++i)
        out.push_back(char((v >> (8 * i)) & 0xff));
}

uint64_t getLe(const unsigned char* p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i)
        v = (v << 8) | p[i];
    return v;
}

struct CompressorFree
{
    void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};
struct DecompressorFree
{
    void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};

} // namespace

std::string encodePreamble()
{
    std::string out(kMagic);
    putLe(out, kFormatMajor, 2);
    putLe(out, kFormatMinor, 2);
    putLe(out, 0, 4);
    return out;
}

std::string encodeFrameHeader(const FrameHeader& header)
{
    std::string out;
    putLe(out, header.compressedSize, 4);
    putLe(out, header.rawSize, 4);
    putLe(out, uint32_t(header.kind), 4);
    return out;
}

std::string encodeTrailer(uint64_t footerOffset)
{
    std::string out;
    putLe(out, footerOffset, 8);
    out += kTrailerMagic;
    return out;
}

uint16_t readU16(const unsigned char* p)
{
    return uint16_t(getLe(p, 2));
}
uint32_t readU32(const unsigned char* p)
{
    return uint32_t(getLe(p, 4));
}
uint64_t readU64(const unsigned char* p)
{
    return getLe(p, 8);
}

FrameHeader decodeFrameHeader(const unsigned char* p)
{
    return {readU32(p), readU32(p + 4), ChunkKind(readU32(p + 8))};
}

std::string compress(std::string_view raw, int level)
{
    thread_local std::unique_ptr<ZSTD_CCtx, CompressorFree> owner(ZSTD_createCCtx());
    ZSTD_CCtx* context = owner.get();
    ZSTD_CCtx_reset(context, ZSTD_reset_session_and_parameters);
    ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1);
    std::string out(ZSTD_compressBound(raw.size()), '\0');
    const size_t n = ZSTD_compress2(context, out.data(), out.size(), raw.data(), raw.size());
    out.resize(ZSTD_isError(n) ? 0 : n);
    return out;
}

bool decompress(std::span<const unsigned char> compressed, size_t rawSize, std::string& out)
{
    // The size a frame claims is believed only when the zstd frame states the same size and its
    // bytes could hold that much. A damaged or crafted claim is refused before anything is
    // allocated for it.
    if (ZSTD_getFrameContentSize(compressed.data(), compressed.size()) != rawSize
        || rawSize > (uint64_t(compressed.size()) + 4) * kMaxRawBytesPerCompressedByte)
        return false;
    thread_local std::unique_ptr<ZSTD_DCtx, DecompressorFree> owner(ZSTD_createDCtx());
    ZSTD_DCtx* context = owner.get();
    out.resize(rawSize);
    const size_t n
        = ZSTD_decompressDCtx(context, out.data(), out.size(), compressed.data(), compressed.size());
    return !ZSTD_isError(n) && n == rawSize;
}

struct FrameStream::Context
{
    ZSTD_DStream* stream = ZSTD_createDStream();
    ~Context() { ZSTD_freeDStream(stream); }
};

FrameStream::FrameStream(std::span<const unsigned char> compressed)
    : m_compressed(compressed)
    , m_context(std::make_unique<Context>())
    , m_piece(ZSTD_DStreamOutSize())
{
    constexpr int kWindowLogMax = 24;
    m_damaged = m_context->stream == nullptr || ZSTD_isError(ZSTD_initDStream(m_context->stream))
        || ZSTD_isError(ZSTD_DCtx_setParameter(m_context->stream, ZSTD_d_windowLogMax, kWindowLogMax));
}

FrameStream::~FrameStream() = default;

std::span<const char> FrameStream::next()
{
    while (!m_done && !m_damaged) {
        ZSTD_inBuffer in {m_compressed.data(), m_compressed.size(), m_read};
        ZSTD_outBuffer out {m_piece.data(), m_piece.size(), 0};
        const size_t left = ZSTD_decompressStream(m_context->stream, &out, &in);
        m_read = in.pos;
        if (ZSTD_isError(left)) {
            m_damaged = true;
            m_tooLarge = ZSTD_getErrorCode(left) == ZSTD_error_frameParameter_windowTooLarge;
            break;
        }
        m_done = left == 0;
        // Input used up before the frame's end: it was cut short.
        if (!m_done && out.pos == 0 && m_read == m_compressed.size()) m_damaged = true;
        if (out.pos > 0) return {m_piece.data(), out.pos};
    }
    return {};
}

std::string damagedReport(const std::string& path, uint64_t offset, const std::string& what)
{
    return "'" + path + "' is damaged: " + what + " (chunk at byte " + std::to_string(offset)
        + "); the report cannot be opened, record or export it again.";
}

} // namespace sightline::rep
