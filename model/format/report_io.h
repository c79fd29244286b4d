// Writing and reading .rep reports (the container is described in format/container.h).
// readReport decodes chunks in parallel straight into the final columns, reports progress in
// bytes, can be cancelled, and recovers the complete prefix of a report that was cut short
// (with a diagnostic saying what was lost). Every failure is one sentence naming the file.
#pragma once

#include "model/common/result.h"
#include "model/trace/trace.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace sightline {

struct WriteOptions
{
    int zstdLevel = 3;
    uint32_t eventsPerChunk = 1u << 16;
    // A report of at least this many events stores an overview (report_overview.h); smaller
    // ones open whole faster than the overview would help, and stay smaller without it.
    uint64_t overviewFromEvents = 1'000'000;
};

// Writes `trace` to `path` (through a temporary file renamed at the end). Returns success or
// the error sentence.
Status writeReport(const Trace& trace, const std::string& path, const WriteOptions& options = {});

// What a reader decodes. Tracks of kinds left out are not in the Trace at all (their batches
// are skipped unread, found through the footer); counters and the CPU profile left out stay
// empty. With `startsIn`, each lane keeps only the run of its batches whose starts reach into
// that range (a 1.1 footer says where each batch starts), so every event starting in it is
// there, with neighbours; the stats rule needs no more. The Trace's span is still the whole
// report's (format 1.1 stores it). Commands that read one kind (stats) decode only it.
struct DecodeSelection
{
    uint32_t trackKinds = (1u << kTrackKindCount) - 1; // bit per TrackKind
    bool counters = true;
    bool cpu = true;
    std::optional<TimeRange> startsIn;

    bool wants(TrackKind kind) const { return (trackKinds >> unsigned(kind)) & 1u; }
    bool everything() const
    {
        return trackKinds == (1u << kTrackKindCount) - 1 && counters && cpu && !startsIn;
    }
    static DecodeSelection nothing() { return {0, false, false, {}}; }
};

struct ReadOptions
{
    unsigned threads = 0; // 0: all cores
    std::function<void(uint64_t bytesDone, uint64_t bytesTotal)> progress; // any thread
    const std::atomic<bool>* cancel = nullptr; // set to stop early
    bool buildIndexes = true;
    DecodeSelection select; // .rep only: importers of other files read everything
    // openTrace only: also make the trace's derived tracks, the NVTX ranges projected onto the
    // GPUs (model/derived/projected_nvtx_tracks.h) that the timeline draws. They cost about as
    // much as decoding the report, so only a reader that shows them asks.
    bool deriveTracks = false;
};

Result<Trace> readReport(const std::string& path, const ReadOptions& options = {});

// True when the file starts with the .rep magic.
bool looksLikeReport(const std::string& path);

} // namespace sightline
