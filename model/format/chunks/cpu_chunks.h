// The CPU profile in a .rep file (schema: CpuStacks, CpuSampleBatch, ThreadStateBatch and
// EventStackBatch in report.proto). The writer stores the frames and the stack-node tree in
// CpuStacks chunks, frames first, then the samples, thread states and event stacks in batches
// of consecutive rows of their (tid, time)-sorted arrays: each batch names its threads once per
// run of rows and stores times as differences within a run, so a thread sampled at 1 kHz costs a
// few bytes per sample before compression and little after it. Reports without a CPU profile
// hold none of these chunks.
//
// The decoder trusts nothing: every claimed row count is bounded by the bytes of the batches
// present before it is allocated; string, frame and stack ids must name existing entries; a
// node's caller must come before it; rows must be sorted by thread and time, states must end
// after they start and not overlap within a thread. Batches fill disjoint slices, so several
// threads may decode at once. A report cut short keeps each array's complete prefix.
#pragma once

#include "model/common/result.h"
#include "model/format/report.pb.h"
#include "model/trace/trace.h"

#include <mutex>
#include <string>
#include <vector>

namespace sightline::rep {

// Rows first .. first + count - 1 of one of the profile's arrays.
struct CpuRowSlice
{
    uint64_t first = 0;
    uint32_t count = 0;
};

// Whether the trace has anything for the CPU chunks to hold.
bool hasCpuProfile(const CpuProfile& cpu);

// The stack tables in chunks of at most `entriesPerChunk` frames and nodes together.
uint32_t cpuStackChunkCount(const CpuProfile& cpu, uint32_t entriesPerChunk);
void encodeCpuStacks(const CpuProfile& cpu, uint32_t chunk, uint32_t entriesPerChunk, CpuStacks& out);

std::vector<CpuRowSlice> planCpuRowBatches(uint64_t rows, uint32_t rowsPerBatch);
void encodeCpuSampleBatch(const CpuProfile& cpu, const CpuRowSlice& slice, CpuSampleBatch& out);
void encodeThreadStateBatch(const CpuProfile& cpu, const CpuRowSlice& slice, ThreadStateBatch& out);
void encodeEventStackBatch(const CpuProfile& cpu, const CpuRowSlice& slice, EventStackBatch& out);

// The raw bytes of every batch of each kind in the file, which bound what the stacks claim.
struct CpuBatchBytes
{
    uint64_t samples = 0;
    uint64_t states = 0;
    uint64_t eventStacks = 0;
};

class CpuDecoder
{
public:
    CpuDecoder(Trace& trace, std::string path);

    // Appends one CpuStacks chunk; they come in file order. The first sizes the rows from its
    // claims: in a `complete` report they may claim no more rows than `batchBytes` can hold; in
    // one cut short, each array gets only the room those bytes can fill.
    Status addStacks(
        const CpuStacks& stacks, const CpuBatchBytes& batchBytes, bool complete, uint64_t frameOffset);
    // Decode one batch into its slice. Thread-safe for distinct batches, after every addStacks.
    Status decode(const CpuSampleBatch& batch, uint64_t frameOffset);
    Status decode(const ThreadStateBatch& batch, uint64_t frameOffset);
    Status decode(const EventStackBatch& batch, uint64_t frameOffset);
    // Checks that the batches tiled every array and that ids, order and intervals are sound.
    // With `complete` false (a cut report) each array keeps its received prefix instead, and
    // the number of rows lost is returned.
    Result<uint64_t> finish(bool complete);

private:
    // What the decoder knows of one of the three row arrays.
    struct Rows
    {
        uint64_t claimed = 0;
        std::vector<std::pair<uint64_t, uint64_t>> received; // [first, end), under m_mutex
    };
    Status damaged(uint64_t offset, const std::string& what) const;
    Status define(
        const CpuStacks& stacks, const CpuBatchBytes& batchBytes, bool complete, uint64_t frameOffset);
    // Checks a batch against the claims: its place, its columns (`columnsFit`) and its thread runs.
    Status checkBatch(const Rows& rows, uint64_t first, uint32_t count, bool columnsFit,
        const ThreadRuns& runs, const std::string& what, uint64_t frameOffset) const;
    void markReceived(Rows& rows, uint64_t first, uint32_t count);
    // Decodes a stored stack (leaf node + 1, 0 for none); false when no such node exists.
    bool stackOf(uint32_t stored, uint32_t& stack) const;
    // How many rows the received batches tile from the start; in a complete report, all of them.
    Result<uint64_t> tiledPrefix(Rows& rows, bool complete) const;
    Status checkIds() const;
    Status checkOrder() const;

    Trace& m_trace;
    std::string m_path;
    bool m_defined = false;
    Rows m_samples, m_states, m_eventStacks;
    std::mutex m_mutex;
};

} // namespace sightline::rep
