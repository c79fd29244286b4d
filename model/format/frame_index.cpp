#include "model/format/frame_index.h"

#include "model/format/report.pb.h"

namespace sightline::rep {
namespace {

// A kind a report chunk may have: the known ones, and later ones up to kMaxChunkKind, which a
// newer writer may add and this reader skips.
bool validKind(uint32_t kind)
{
    return kind >= uint32_t(ChunkKind::Header) && kind <= kMaxChunkKind;
}

// True when the frame at `offset` (header and payload) lies inside the file. Offsets come from
// the file, so nothing here may wrap around 2^64.
bool fits(std::span<const unsigned char> file, uint64_t offset, const FrameHeader& h)
{
    return offset <= file.size() && file.size() - offset >= kFrameHeaderSize + uint64_t(h.compressedSize);
}

bool headerFits(std::span<const unsigned char> file, uint64_t offset, uint64_t end)
{
    return end <= file.size() && offset <= end && end - offset >= kFrameHeaderSize;
}

bool endsWithTrailer(std::span<const unsigned char> file)
{
    return file.size() >= kPreambleSize + kTrailerSize
        && std::string_view(reinterpret_cast<const char*>(file.data() + file.size() - 8), 8) == kTrailerMagic;
}

// Reads the frame list from the footer; false when the trailer or footer is missing or bad.
bool readFooter(std::span<const unsigned char> file, FrameIndex& index, const HeaderFilter& headerWanted)
{
    if (!endsWithTrailer(file)) return false;
    const unsigned char* trailer = file.data() + file.size() - kTrailerSize;
    const uint64_t footerOffset = readU64(trailer);
    if (footerOffset < kPreambleSize || !headerFits(file, footerOffset, file.size() - kTrailerSize))
        return false;
    const FrameHeader h = decodeFrameHeader(file.data() + footerOffset);
    if (h.kind != ChunkKind::Footer || !fits(file, footerOffset, h)) return false;
    std::string raw;
    if (!decompress(file.subspan(footerOffset + kFrameHeaderSize, h.compressedSize), h.rawSize, raw))
        return false;
    Chunk chunk;
    if (!chunk.ParseFromString(raw) || !chunk.has_footer()) return false;
    for (const auto& entry : chunk.footer().chunks()) {
        if (entry.offset() < kPreambleSize || !headerFits(file, entry.offset(), footerOffset)) return false;
        FrameRef frame {entry.offset(), FrameHeader {0, 0, ChunkKind(entry.kind())}};
        if (headerWanted && validKind(entry.kind()) && !headerWanted(ChunkKind(entry.kind()))) {
            // Its header is not read, so its page of the file is not touched.
            frame.headerRead = false;
        } else if (!readFrameHeader(file, frame, ChunkKind(entry.kind()))) {
            return false;
        }
        if (frame.header.kind == ChunkKind::Events || frame.header.kind == ChunkKind::Overview) {
            frame.track = entry.track();
            frame.lane = entry.lane();
            frame.firstIndex = entry.first_index();
            frame.count = entry.count();
            // 0 and 0 is what a footer without the fields reads as: unknown, the batch is read.
            if (index.formatMinor >= 1 && entry.last_start() > 0 && entry.first_start() <= entry.last_start())
                frame.starts = TimeRange {entry.first_start(), entry.last_start()};
        }
        index.frames.push_back(frame);
    }
    index.validBytes = file.size();
    return true;
}

} // namespace

bool readFrameHeader(std::span<const unsigned char> file, FrameRef& frame, ChunkKind listedKind)
{
    if (!headerFits(file, frame.offset, file.size())) return false;
    const FrameHeader header = decodeFrameHeader(file.data() + frame.offset);
    if (header.kind != listedKind || !fits(file, frame.offset, header)) return false;
    frame.header = header;
    frame.headerRead = true;
    return true;
}

Result<FrameIndex> indexFrames(
    std::span<const unsigned char> file, const std::string& path, const HeaderFilter& headerWanted)
{
    FrameIndex index;
    if (file.empty()) {
        return Result<FrameIndex>::failure(
            "'" + path + "' is empty, so it holds no report; record or export it again.");
    }
    if (file.size() < kMagic.size()
        || std::string_view(reinterpret_cast<const char*>(file.data()), kMagic.size()) != kMagic) {
        return Result<FrameIndex>::failure("'" + path
            + "' is not a Sightline report (.rep): it does not start with the report "
              "signature; open a .rep file, or an Nsight Systems SQLite export or PyTorch trace to import.");
    }
    if (file.size() < kPreambleSize) {
        return Result<FrameIndex>::failure(
            "'" + path + "' is cut short inside its header and holds no data; record it again.");
    }
    const uint16_t major = readU16(file.data() + 8);
    if (major > kFormatMajor) {
        return Result<FrameIndex>::failure("'" + path + "' uses report format " + std::to_string(major)
            + ", newer than this Sightline reads (" + std::to_string(kFormatMajor)
            + "); update Sightline to open it.");
    }
    index.formatMajor = major;
    index.formatMinor = readU16(file.data() + 10);
    if (readFooter(file, index, headerWanted)) {
        index.complete = true;
        return index;
    }
    index.frames.clear();
    uint64_t offset = kPreambleSize;
    index.validBytes = offset;
    while (offset + kFrameHeaderSize <= file.size()) {
        const FrameHeader h = decodeFrameHeader(file.data() + offset);
        if (!validKind(uint32_t(h.kind))) {
            return Result<FrameIndex>::failure("'" + path + "' is damaged: the data at byte "
                + std::to_string(offset) + " is not a report chunk; the file cannot be read past it.");
        }
        if (!fits(file, offset, h)) {
            // A file cut short ends inside its last frame. One that still ends with the
            // trailer was not cut: a frame's size inside it is wrong.
            if (endsWithTrailer(file))
                return Result<FrameIndex>::failure(damagedReport(path, offset,
                    "a chunk claims to run past the end of the file, which still ends with its trailer"));
            break;
        }
        if (h.kind != ChunkKind::Footer) index.frames.push_back({offset, h});
        offset += kFrameHeaderSize + h.compressedSize;
        index.validBytes = offset;
    }
    return index;
}

} // namespace sightline::rep
