// The .rep container, the on-disk framing around the protobuf chunks:
//
//   preamble  "\x89SLREP\r\n" (8 bytes), u16 major, u16 minor, u32 reserved   (little endian)
//   frame*    u32 compressedSize, u32 rawSize, u32 chunkKind, then a zstd frame (with content
//             checksum) holding one serialized sightline.rep.Chunk
//   trailer   u64 offset of the footer frame, "SLREPEND"
//
// The footer frame lists every frame's offset, so a reader can hand frames to threads at once.
// A file without a valid trailer was cut short: frames are then found by walking from the
// preamble, and every frame that is complete and decodes is kept.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::rep {

constexpr std::string_view kMagic {"\x89SLREP\r\n", 8};
constexpr std::string_view kTrailerMagic {"SLREPEND", 8};
constexpr uint16_t kFormatMajor = 1;
// 1.1: track and counter timeline spans in the track list and counter definitions, so a
// reader can outline a report and decode only the kinds it needs. 1.2: each lane's overview
// (Overview chunks after the track list), which the viewer paints before decoding events.
constexpr uint16_t kFormatMinor = 2;
constexpr size_t kPreambleSize = 16;
constexpr size_t kFrameHeaderSize = 12;
constexpr size_t kTrailerSize = 16;

// The oneof field numbers of Chunk.body, also stored in each frame header.
enum class ChunkKind : uint32_t {
    Header = 1,
    Strings = 2,
    Entities = 3,
    Descriptors = 4,
    Tracks = 5,
    Events = 6,
    Diagnostics = 7,
    Footer = 8,
    CounterDefinitions = 9,
    CounterBatch = 10,
    CpuStacks = 11,
    CpuSampleBatch = 12,
    ThreadStateBatch = 13,
    EventStackBatch = 14,
    Overview = 15, // an EventBatch of one lane's stand-ins (model/derived/overview_tracks.h)
    Flows = 16, // links between events (model/core/flows.h), when the trace has any
    OverviewDescriptors = 17, // the descriptors the overview's stand-ins refer to
    MemoryUsage = 18, // GPU memory allocations and releases (model/core/memory_usage.h), when any
};
// The last chunk kind this build knows. Kinds after it, up to kMaxChunkKind, are chunks a
// newer writer added: they are skipped with a diagnostic.
constexpr uint32_t kLastKnownChunkKind = 18;
constexpr uint32_t kMaxChunkKind = 64;

struct FrameHeader
{
    uint32_t compressedSize = 0;
    uint32_t rawSize = 0;
    ChunkKind kind = ChunkKind::Header;
};

std::string encodePreamble();
std::string encodeFrameHeader(const FrameHeader& header);
std::string encodeTrailer(uint64_t footerOffset);

// Little-endian readers over a byte span; callers check sizes first.
uint16_t readU16(const unsigned char* p);
uint32_t readU32(const unsigned char* p);
uint64_t readU64(const unsigned char* p);

FrameHeader decodeFrameHeader(const unsigned char* p);

// zstd with a content checksum. decompress returns false when the data is damaged.
std::string compress(std::string_view raw, int level);
bool decompress(std::span<const unsigned char> compressed, size_t rawSize, std::string& out);

// The most raw bytes one compressed byte can stand for: a zstd block of at most 128 KiB takes
// at least 4 bytes (an RLE block). What a frame's bytes can hold is bounded by it.
constexpr uint64_t kMaxRawBytesPerCompressedByte = (128 << 10) / 4;

// A zstd frame's raw bytes a piece at a time, holding one piece (128 KiB) and the frame's
// window: for checking what a chunk claims before it is decompressed whole. A frame whose window
// is over 16 MiB, which no report's writer makes (zstd levels up to 19 use 8 MiB at most), is
// refused (tooLarge) rather than given the memory.
class FrameStream
{
public:
    explicit FrameStream(std::span<const unsigned char> compressed);
    ~FrameStream();
    FrameStream(const FrameStream&) = delete;
    FrameStream& operator=(const FrameStream&) = delete;

    // The next piece; empty at the end of the frame, or where the data is damaged (damaged()).
    std::span<const char> next();
    bool damaged() const { return m_damaged; }
    bool tooLarge() const { return m_tooLarge; }

private:
    struct Context;
    std::span<const unsigned char> m_compressed;
    size_t m_read = 0;
    std::unique_ptr<Context> m_context;
    std::vector<char> m_piece;
    bool m_done = false, m_damaged = false, m_tooLarge = false;
};

// The one sentence for a report damaged in the chunk at `offset`: `what` says how.
std::string damagedReport(const std::string& path, uint64_t offset, const std::string& what);

} // namespace sightline::rep
