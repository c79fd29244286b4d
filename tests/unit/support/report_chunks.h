// A .rep report as its decoded chunks, for tests that craft damaged files: split a real
// report, change a chunk, join it again into a valid container (frames, footer, trailer).
#pragma once

#include "model/format/container.h"
#include "model/format/frame_index.h"
#include "model/format/report.pb.h"

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace sightline::test {

struct ReportChunks
{
    std::string preamble;
    std::vector<std::pair<rep::ChunkKind, rep::Chunk>> chunks; // footer excluded
    // Frames written as they are (header and payload) in place of the chunk of that index:
    // payloads no protobuf message would make.
    std::map<size_t, std::string> rawFrames;
};

ReportChunks splitReport(const std::string& bytes);

// The chunks as a complete report, its footer listing each event batch's track, lane, first
// index and count from the batch; `editFooter` may change the footer before it is written.
std::string joinReport(const ReportChunks& report, const std::function<void(rep::Footer&)>& editFooter = {});

// The first chunk of `kind` (the test fails when there is none).
rep::Chunk& firstChunk(ReportChunks& report, rep::ChunkKind kind);

// Writes `bytes` as `name` in `dir` and opens it: the report must be refused with a sentence
// naming the file, which is returned.
std::string refusal(const std::filesystem::path& dir, const std::string& name, const std::string& bytes);

// A copy of the report at `path`, written as damaged.rep in `dir`, with a byte flipped inside
// the last batch of `kind` that `chosen` accepts (by its footer entry), so that batch fails its
// checksum. Returns the copy's path.
std::string withDamagedBatch(const std::string& path, const std::filesystem::path& dir, rep::ChunkKind kind,
    const std::function<bool(const rep::FrameRef&)>& chosen);

} // namespace sightline::test
