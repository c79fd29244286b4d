// Finding the frames of a .rep file: from the footer when the file is complete, else by
// walking frame headers from the preamble (a report cut short), keeping every frame that fits.
#pragma once

#include "model/common/result.h"
#include "model/core/time.h"
#include "model/format/container.h"

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace sightline::rep {

constexpr uint32_t kUnknownTrack = UINT32_MAX;

struct FrameRef
{
    uint64_t offset = 0; // of the frame header
    FrameHeader header;
    // An event or overview batch as the footer lists it (track kUnknownTrack without a footer), so a reader
    // can skip the batches of tracks or times it does not need without decompressing them.
    uint32_t track = kUnknownTrack;
    uint32_t lane = 0, firstIndex = 0, count = 0;
    std::optional<TimeRange> starts; // of its first and last events (a 1.1 footer)
    // False for a frame whose header was left unread (see indexFrames): its offset, kind and
    // what the footer says of a batch are known, its sizes are zero.
    bool headerRead = true;
};

struct FrameIndex
{
    std::vector<FrameRef> frames; // file order, footer excluded
    bool complete = false; // a valid trailer and footer were found
    uint64_t validBytes = 0; // bytes up to the end of the last whole frame
    uint16_t formatMajor = 0, formatMinor = 0; // from the preamble
};

// Which frames' headers a reader needs (by kind); empty: all.
using HeaderFilter = std::function<bool(ChunkKind)>;

// `file` is the whole file. `path` is used in error sentences only. Fails when the file is not
// a report, or is damaged beyond reading. With a footer, the headers of frames of kinds
// `headerWanted` rejects are not read: a reader of a few small chunks then touches only their
// pages of the file, not one page per batch (each a read of the disk when the file is cold).
Result<FrameIndex> indexFrames(
    std::span<const unsigned char> file, const std::string& path, const HeaderFilter& headerWanted = {});

// Reads the header of `frame` (one indexFrames left unread, or any), checking that it is of the
// kind the footer lists and that the frame lies inside the file; false, leaving `frame` as it
// was, when not (the report is damaged there).
bool readFrameHeader(std::span<const unsigned char> file, FrameRef& frame, ChunkKind listedKind);

// Whether a batch whose events start within `starts` (none: not known) may hold events that
// start in `range`: the rule of every read of a range.
inline bool startsReach(const std::optional<TimeRange>& starts, TimeRange range)
{
    return !starts || (starts->end >= range.start && starts->start < range.end);
}

// The compressed bytes of a frame.
inline std::span<const unsigned char> framePayload(std::span<const unsigned char> file, const FrameRef& frame)
{
    return file.subspan(frame.offset + kFrameHeaderSize, frame.header.compressedSize);
}

} // namespace sightline::rep
