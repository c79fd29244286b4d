#include "collector/convert/decode/spool_scan.h"

#include "collector/convert/decode/spool_records.h"
#include "model/common/parallel_for.h"

#include <algorithm>

namespace sightline::collector {

namespace {

using spool::RecordHeader;
using spool::RecordType;

// A run of this many valid records makes a guessed start believable.
constexpr int kGuessRun = 16;
// The first record of a range starts this close after the range's beginning: the record
// before it starts in an earlier range and is no longer than this.
constexpr size_t kEntryWindow = spool::kMaxRecordBytes;

const RecordHeader& headerAt(const unsigned char* bytes, size_t offset)
{
    return *reinterpret_cast<const RecordHeader*>(bytes + offset);
}

// The record at `offset` is complete and valid.
bool readable(const unsigned char* bytes, size_t size, size_t offset)
{
    if (offset + sizeof(RecordHeader) > size) return false;
    const RecordHeader& h = headerAt(bytes, offset);
    return offset + h.bytes <= size && validRecord(h);
}

// One range's walk.
struct RangeWalk
{
    size_t begin = 0, end = 0; // the range: records starting in [begin, end)
    size_t start = 0; // where the walk started
    size_t exit = 0; // its first record at or past `end`, or where it stopped
    bool stopped = false; // at an invalid or partial record, at `exit`
    size_t count = 0;
    size_t typeCounts[SpoolScan::kTypeSlots] = {};
    std::vector<const RecordHeader*> tables;
    std::vector<const spool::ClockSyncRecord*> clockPairs;

    void walk(const unsigned char* bytes, size_t size, size_t from)
    {
        start = from;
        size_t offset = from;
        while (offset < end && offset != size) {
            if (!readable(bytes, size, offset)) {
                stopped = true;
                break;
            }
            const RecordHeader& h = headerAt(bytes, offset);
            ++count;
            ++typeCounts[uint16_t(h.type) % SpoolScan::kTypeSlots];
            if (h.type == RecordType::String || h.type == RecordType::NvtxDomain)
                tables.push_back(&h);
            else if (h.type == RecordType::ClockSync)
                clockPairs.push_back(reinterpret_cast<const spool::ClockSyncRecord*>(&h));
            offset += h.bytes;
        }
        exit = offset;
    }
};

// The first offset of the range from which kGuessRun valid records follow (or the file ends
// cleanly after fewer); `end` when there is none.
size_t guessStart(const unsigned char* bytes, size_t size, const RangeWalk& range)
{
    const size_t last = std::min({range.end, range.begin + kEntryWindow, size});
    for (size_t candidate = range.begin; candidate < last; candidate += 8) {
        size_t offset = candidate;
        int run = 0;
        while (run < kGuessRun && offset != size && readable(bytes, size, offset)) {
            offset += headerAt(bytes, offset).bytes;
            ++run;
        }
        if (run == kGuessRun || offset == size) return candidate;
    }
    return range.end;
}

// Whether the walk passes through `entry` (the range's true first record), and if so takes
// away what it found before it.
bool startFrom(const unsigned char* bytes, RangeWalk& walk, size_t entry)
{
    if (walk.start > entry) return false;
    size_t offset = walk.start;
    size_t before[SpoolScan::kTypeSlots] = {};
    size_t skipped = 0;
    while (offset < entry && offset < walk.exit) {
        const RecordHeader& h = headerAt(bytes, offset);
        ++before[uint16_t(h.type) % SpoolScan::kTypeSlots];
        ++skipped;
        offset += h.bytes;
    }
    if (offset != entry) return false;
    walk.count -= skipped;
    for (size_t t = 0; t < SpoolScan::kTypeSlots; ++t)
        walk.typeCounts[t] -= before[t];
    const auto* cut = bytes + entry;
    std::erase_if(walk.tables,
        [cut](const RecordHeader* r) { return reinterpret_cast<const unsigned char*>(r) < cut; });
    std::erase_if(walk.clockPairs,
        [cut](const spool::ClockSyncRecord* r) { return reinterpret_cast<const unsigned char*>(r) < cut; });
    walk.start = entry;
    return true;
}

} // namespace

SpoolScan scanSpoolRecords(const unsigned char* bytes, size_t first, size_t size, size_t rangeBytes)
{
    rangeBytes = std::max<size_t>(8, (std::min(rangeBytes, size) + 7) & ~size_t(7));
    std::vector<RangeWalk> walks((size - first + rangeBytes - 1) / rangeBytes);
    for (size_t r = 0; r < walks.size(); ++r) {
        walks[r].begin = first + r * rangeBytes;
        walks[r].end = r + 1 < walks.size() ? walks[r].begin + rangeBytes : size;
    }
    parallelFor(walks.size(), [&](size_t r) {
        RangeWalk& walk = walks[r];
        const size_t from = r == 0 ? first : guessStart(bytes, size, walk);
        if (from < walk.end)
            walk.walk(bytes, size, from);
        else
            walk.start = walk.exit = walk.end; // nothing believable: walked again when joined
    });

    SpoolScan scan;
    size_t entry = first; // where the true walk enters the next range
    for (RangeWalk& walk : walks) {
        if (entry >= walk.end) continue; // a record longer than the range spans it
        if (walk.start != entry && !startFrom(bytes, walk, entry)) {
            RangeWalk again;
            again.begin = walk.begin, again.end = walk.end;
            again.walk(bytes, size, entry);
            walk = std::move(again);
        }
        if (walk.count > 0) {
            SpoolScan::Chunk& chunk = scan.chunks.emplace_back();
            chunk.first = entry;
            std::copy(std::begin(scan.typeCounts), std::end(scan.typeCounts), chunk.typeCountsBefore);
        }
        scan.count += walk.count;
        for (size_t t = 0; t < SpoolScan::kTypeSlots; ++t)
            scan.typeCounts[t] += walk.typeCounts[t];
        scan.tables.insert(scan.tables.end(), walk.tables.begin(), walk.tables.end());
        scan.clockPairs.insert(scan.clockPairs.end(), walk.clockPairs.begin(), walk.clockPairs.end());
        entry = walk.exit;
        if (walk.stopped) break;
    }
    scan.end = entry;
    if (scan.chunks.empty()) scan.chunks.push_back({first, {}});
    return scan;
}

} // namespace sightline::collector
