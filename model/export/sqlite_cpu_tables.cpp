// The CPU profile as Nsight Systems exports it. COMPOSITE_EVENTS holds one row per sample (id
// its place among the trace's samples plus 1, as nsys counts; no thread state or cycle count is
// kept, so those are NULL and 0), SAMPLING_CALLCHAINS its stack, leaf at stackDepth 0 (symbol
// and module are the trace's StringIds, originalIP the frame's offset, kernelMode 1 or NULL).
// SCHED_EVENTS gets one row per thread state start (sched in for Running, sched out for every
// other state) and one for the end of a state that no other follows at once, with CPU 0 since
// the model keeps no CPU of a switch. A CUDA or OS runtime call with an event stack names it by
// callchainId (the stack's place in Trace::cpu.eventStacks plus 1: newer nsys versions write 0
// for "none") in CUDA_CALLCHAINS or OSRT_CALLCHAINS. The sampling period goes to
// META_DATA_CAPTURE as nsys' RATE_HZ and exactly, in nanoseconds, as SIGHTLINE_SAMPLING_PERIOD_NS.
// A sampled thread the trace lists no Thread for still gets a ThreadNames row (an empty name,
// pid 0), so every globalTid in the file is a thread SQL can join to.
#include "model/export/event_walk.h"
#include "model/export/sqlite_tables.h"
#include "model/nsys/global_id.h"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace sightline::sqlite_export {
namespace {

std::optional<int64_t> oneOrNull(bool value)
{
    return value ? std::optional<int64_t>(1) : std::nullopt;
}

// globalTid of a thread of the trace (pid 0 for a tid no Thread names).
class GlobalTids
{
public:
    explicit GlobalTids(const Trace& trace)
    {
        for (const Thread& thread : trace.threads)
            m_pids.emplace(thread.tid.value, thread.pid);
    }
    int64_t of(Tid tid) const
    {
        const auto pid = m_pids.find(tid.value);
        return globalTid(pid == m_pids.end() ? Pid() : pid->second, tid);
    }
    bool lists(Tid tid) const { return m_pids.count(tid.value) != 0; }

private:
    std::unordered_map<uint32_t, Pid> m_pids;
};

// One row per frame of `stack`, the leaf at stackDepth 0, in the columns of SAMPLING_CALLCHAINS
// and OSRT_CALLCHAINS or, when `cudaLayout`, of CUDA_CALLCHAINS (id, symbol, module, unresolved,
// originalIP, stackDepth).
void writeStack(SqliteInsert& rows, const CpuProfile& cpu, uint32_t stack, int64_t id, bool cudaLayout)
{
    const std::vector<uint32_t> frames = cpu.framesOf(stack);
    for (size_t depth = 0; depth < frames.size(); ++depth) {
        const StackFrame& frame = cpu.frames[frames[depth]];
        rows.integer(id).integer(frame.function.value).integer(frame.module.value);
        if (cudaLayout)
            rows.null() // unresolved
                .integer(int64_t(frame.offset)); // originalIP
        else
            rows.integerOrNull(oneOrNull(frame.kernel)) // kernelMode
                .null(3) // thumbCode, unresolved, specialEntry
                .integer(int64_t(frame.offset)) // originalIP
                .null(); // unwindMethod
        rows.integer(int64_t(depth)).insertRow();
    }
}

void writeSamples(SqliteDatabase& db, const Trace& trace, const GlobalTids& threads)
{
    SqliteInsert samples(db, nsys::kCompositeEvents);
    SqliteInsert stacks(db, nsys::kSamplingCallchains);
    for (size_t i = 0; i < trace.cpu.samples.size(); ++i) {
        const CpuSample& sample = trace.cpu.samples[i];
        const int64_t id = int64_t(i) + 1;
        samples.integer(id)
            .integer(sample.time)
            .integer(sample.cpu)
            .null() // threadState
            .integer(threads.of(sample.tid))
            .integer(0) // cpuCycles
            .insertRow();
        writeStack(stacks, trace.cpu, sample.stack, id, false);
    }
}

void writeScheduling(SqliteDatabase& db, const Trace& trace, const GlobalTids& threads)
{
    SqliteInsert rows(db, nsys::kSchedEvents);
    const std::vector<ThreadStateInterval>& states = trace.cpu.states;
    for (size_t i = 0; i < states.size(); ++i) {
        const ThreadStateInterval& s = states[i];
        const int64_t thread = threads.of(s.tid);
        const bool running = s.state == ThreadState::Running;
        rows.integer(s.start).integer(0).integer(running ? 1 : 0).integer(thread).insertRow();
        const bool followed
            = i + 1 < states.size() && states[i + 1].tid == s.tid && states[i + 1].start == s.end;
        if (!followed) rows.integer(s.end).integer(0).integer(running ? 0 : 1).integer(thread).insertRow();
    }
}

// The stacks of the calls of one track kind, each event stack written once.
void writeEventStacks(SqliteDatabase& db, const Trace& trace, TrackKind kind, const nsys::TableSpec& table)
{
    SqliteInsert rows(db, table);
    std::vector<bool> written(trace.cpu.eventStacks.size());
    forEachEvent(trace, kind, [&](const Track& track, EventRef ref, uint32_t) {
        const std::optional<int64_t> id
            = callchainIdOf(trace.cpu, track.key.tid, track.events.start[ref.index]);
        if (!id || written[size_t(*id - 1)]) return;
        written[size_t(*id - 1)] = true;
        const uint32_t stack = trace.cpu.eventStacks[size_t(*id - 1)].stack;
        writeStack(rows, trace.cpu, stack, *id, &table == &nsys::kCudaCallchains);
    });
}

void writeUnlistedThreads(SqliteDatabase& db, const Trace& trace, const GlobalTids& threads)
{
    std::set<uint32_t> unlisted;
    for (const CpuSample& sample : trace.cpu.samples)
        if (!threads.lists(sample.tid)) unlisted.insert(sample.tid.value);
    for (const ThreadStateInterval& state : trace.cpu.states)
        if (!threads.lists(state.tid)) unlisted.insert(state.tid.value);
    SqliteInsert rows(db, nsys::kThreadNames);
    for (uint32_t tid : unlisted)
        rows.integer(0) // nameId: StringIds 0, the empty string
            .null() // priority
            .integer(threads.of(Tid(tid)))
            .insertRow();
}

void writeSamplingPeriod(SqliteDatabase& db, const Trace& trace)
{
    const Timestamp period = trace.cpu.samplingPeriod;
    if (period <= 0) return;
    SqliteInsert rows(db, nsys::kMetaDataCapture);
    const std::string hz = std::to_string((1'000'000'000 + period / 2) / period);
    const std::string ns = std::to_string(period);
    rows.text(nsys::kCaptureSamplingRateHz).text(hz).insertRow();
    rows.text(nsys::kCaptureSamplingPeriodNs).text(ns).insertRow();
}

} // namespace

std::optional<int64_t> callchainIdOf(const CpuProfile& cpu, Tid tid, Timestamp start)
{
    const auto it = std::lower_bound(cpu.eventStacks.begin(), cpu.eventStacks.end(), std::pair(tid, start),
        [](const EventStack& e, std::pair<Tid, Timestamp> key) { return std::pair(e.tid, e.start) < key; });
    if (it == cpu.eventStacks.end() || it->tid != tid || it->start != start || it->stack == kNoCallStack)
        return std::nullopt;
    return int64_t(it - cpu.eventStacks.begin()) + 1;
}

void writeCpuTables(SqliteDatabase& db, const Trace& trace)
{
    const GlobalTids threads(trace);
    writeSamples(db, trace, threads);
    writeScheduling(db, trace, threads);
    writeUnlistedThreads(db, trace, threads);
    writeEventStacks(db, trace, TrackKind::CudaApi, nsys::kCudaCallchains);
    writeEventStacks(db, trace, TrackKind::OsRuntime, nsys::kOsrtCallchains);
    writeSamplingPeriod(db, trace);
}

} // namespace sightline::sqlite_export
