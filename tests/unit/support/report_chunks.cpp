#include "report_chunks.h"

#include "file_bytes.h"
#include "model/format/frame_index.h"
#include "model/format/report_io.h"

#include <catch2/catch.hpp>

namespace sightline::test {
namespace {

void appendFrame(std::string& out, rep::ChunkKind kind, const rep::Chunk& chunk)
{
    const std::string raw = chunk.SerializeAsString();
    const std::string payload = rep::compress(raw, 3);
    out += rep::encodeFrameHeader({uint32_t(payload.size()), uint32_t(raw.size()), kind});
    out += payload;
}

} // namespace

ReportChunks splitReport(const std::string& bytes)
{
    const auto file = std::span(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    const Result<rep::FrameIndex> index = rep::indexFrames(file, "split");
    REQUIRE(index);
    ReportChunks out {bytes.substr(0, rep::kPreambleSize), {}};
    for (const rep::FrameRef& frame : index->frames) {
        std::string raw;
        REQUIRE(rep::decompress(rep::framePayload(file, frame), frame.header.rawSize, raw));
        rep::Chunk chunk;
        REQUIRE(chunk.ParseFromString(raw));
        out.chunks.emplace_back(frame.header.kind, std::move(chunk));
    }
    return out;
}

std::string joinReport(const ReportChunks& report, const std::function<void(rep::Footer&)>& editFooter)
{
    std::string out = report.preamble;
    rep::Footer footer;
    for (size_t i = 0; i < report.chunks.size(); ++i) {
        const auto& [kind, chunk] = report.chunks[i];
        auto* entry = footer.add_chunks();
        entry->set_offset(out.size());
        entry->set_kind(uint32_t(kind));
        // An event batch's place, as the writer lists it (its starts left out: unknown).
        if (kind == rep::ChunkKind::Events) {
            entry->set_track(chunk.events().track());
            entry->set_lane(chunk.events().lane());
            entry->set_first_index(chunk.events().first_index());
            entry->set_count(chunk.events().count());
        }
        if (const auto raw = report.rawFrames.find(i); raw != report.rawFrames.end())
            out += raw->second;
        else
            appendFrame(out, kind, chunk);
    }
    if (editFooter) editFooter(footer);
    const uint64_t footerOffset = out.size();
    rep::Chunk footerChunk;
    *footerChunk.mutable_footer() = footer;
    appendFrame(out, rep::ChunkKind::Footer, footerChunk);
    return out + rep::encodeTrailer(footerOffset);
}

rep::Chunk& firstChunk(ReportChunks& report, rep::ChunkKind kind)
{
    for (auto& [k, chunk] : report.chunks)
        if (k == kind) return chunk;
    FAIL("no chunk of that kind");
    throw;
}

std::string refusal(const std::filesystem::path& dir, const std::string& name, const std::string& bytes)
{
    const std::string path = (dir / name).string();
    writeFileBytes(path, bytes);
    const Result<Trace> opened = readReport(path);
    REQUIRE_FALSE(opened);
    CHECK_THAT(opened.error(), Catch::Contains(path));
    return opened.error();
}

std::string withDamagedBatch(const std::string& path, const std::filesystem::path& dir, rep::ChunkKind kind,
    const std::function<bool(const rep::FrameRef&)>& chosen)
{
    std::string bytes = readFileBytes(path);
    const auto file = std::span(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    const Result<rep::FrameIndex> index = rep::indexFrames(file, path);
    REQUIRE(index);
    const rep::FrameRef* batch = nullptr;
    for (const rep::FrameRef& frame : index->frames)
        if (frame.header.kind == kind && chosen(frame)) batch = &frame;
    REQUIRE(batch);
    bytes[batch->offset + rep::kFrameHeaderSize + batch->header.compressedSize / 2] ^= 0x5a;
    const std::string damaged = (dir / "damaged.rep").string();
    writeFileBytes(damaged, bytes);
    return damaged;
}

} // namespace sightline::test
