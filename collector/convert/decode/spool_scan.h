// Finding the records of a mapped spool file, on every core. Records carry no markers: only the
// chain of sizes from the first record says where each one starts, and walking hundreds of
// megabytes of it on one thread is slow. So the file is cut into ranges walked in parallel:
// the first from the first record, every other from a guessed start (the first offset after
// which a run of valid records follows). The ranges are then joined in order, each checked
// against where the previous one really left off: a walk is determined by where it starts, so
// if that offset is on the guessed walk, the guessed walk is the true one from there; if not
// (rare), the range is walked again from there. The result is exactly that of one walk from the
// first record, which ends at the first invalid or partial record.
#pragma once

#include "collector/spool/spool_format.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sightline::collector {

struct SpoolScan
{
    static constexpr size_t kTypeSlots = 64; // record counts are kept by type % kTypeSlots

    size_t end = 0; // past the last complete, valid record
    size_t count = 0;
    size_t typeCounts[kTypeSlots] = {};
    std::vector<const spool::RecordHeader*> tables; // String and NvtxDomain records, in order
    std::vector<const spool::ClockSyncRecord*> clockPairs; // in order
    // The records split into runs of about the range size, decoded in parallel later.
    struct Chunk
    {
        size_t first; // offset of the chunk's first record
        size_t typeCountsBefore[kTypeSlots]; // typeCounts where the chunk starts
    };
    std::vector<Chunk> chunks; // at least one
};

// Scans `size` bytes whose first record is at `first`, in ranges of about `rangeBytes`.
SpoolScan scanSpoolRecords(const unsigned char* bytes, size_t first, size_t size, size_t rangeBytes);

} // namespace sightline::collector
