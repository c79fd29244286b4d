#include "model/format/chunks/cpu_chunks.h"

#include "model/format/container.h"

#include <algorithm>
#include <tuple>

namespace sightline::rep {
namespace {

// The least bytes one row takes in its batch: one per column (a varint is at least a byte).
constexpr uint64_t kSampleBytes = 3; // time, stack, cpu
constexpr uint64_t kStateBytes = 4; // start, duration, state, stack
constexpr uint64_t kEventStackBytes = 2; // start, stack

// Times travel as differences that wrap around 2^64, so no value can overflow either way.
int64_t wrappingDifference(Timestamp later, Timestamp earlier)
{
    return int64_t(uint64_t(later) - uint64_t(earlier));
}

Timestamp wrappingSum(Timestamp base, int64_t delta)
{
    return Timestamp(uint64_t(base) + uint64_t(delta));
}

uint32_t storedStack(uint32_t stack)
{
    return stack + 1;
} // kNoCallStack wraps to 0

// False when a batch lies past the room a cut report's bytes gave its array: it is skipped.
bool fitsRoom(uint64_t first, uint32_t count, size_t room)
{
    return first <= room && count <= room - first;
}

template <class Row> bool startsRun(const std::vector<Row>& rows, uint64_t i, const CpuRowSlice& slice)
{
    return i == slice.first || rows[i].tid != rows[i - 1].tid;
}

template <class Row> void encodeRuns(const std::vector<Row>& rows, const CpuRowSlice& slice, ThreadRuns& out)
{
    for (uint64_t i = slice.first; i < slice.first + slice.count; ++i) {
        if (startsRun(rows, i, slice)) {
            out.add_tid(rows[i].tid.value);
            out.add_length(0);
        }
        out.set_length(out.length_size() - 1, out.length(out.length_size() - 1) + 1);
    }
}

} // namespace

bool hasCpuProfile(const CpuProfile& cpu)
{
    return !cpu.frames.empty() || !cpu.stacks.empty() || !cpu.empty() || cpu.samplingPeriod != 0;
}

uint32_t cpuStackChunkCount(const CpuProfile& cpu, uint32_t entriesPerChunk)
{
    const uint64_t entries = cpu.frames.size() + cpu.stacks.size();
    return uint32_t(std::max<uint64_t>(1, (entries + entriesPerChunk - 1) / entriesPerChunk));
}

void encodeCpuStacks(const CpuProfile& cpu, uint32_t chunk, uint32_t entriesPerChunk, CpuStacks& out)
{
    out.set_sampling_period(cpu.samplingPeriod);
    out.set_samples(cpu.samples.size());
    out.set_states(cpu.states.size());
    out.set_event_stacks(cpu.eventStacks.size());
    // The chunk's slice of the frames followed by the nodes.
    const uint64_t frames = cpu.frames.size(), entries = frames + cpu.stacks.size();
    const uint64_t begin = std::min<uint64_t>(uint64_t(chunk) * entriesPerChunk, entries);
    const uint64_t end = std::min<uint64_t>(begin + entriesPerChunk, entries);
    out.set_frames_first(uint32_t(std::min(begin, frames)));
    const bool anyKernel = std::any_of(cpu.frames.begin() + std::ptrdiff_t(std::min(begin, frames)),
        cpu.frames.begin() + std::ptrdiff_t(std::min(end, frames)),
        [](const StackFrame& f) { return f.kernel; });
    for (uint64_t i = begin; i < std::min(end, frames); ++i) {
        const StackFrame& frame = cpu.frames[i];
        out.add_frame_function(frame.function.value);
        out.add_frame_module(frame.module.value);
        out.add_frame_offset(frame.offset);
        if (anyKernel) out.add_frame_kernel(frame.kernel);
    }
    const uint64_t firstNode = std::max(begin, frames) - frames, endNode = std::max(end, frames) - frames;
    out.set_nodes_first(uint32_t(firstNode));
    for (uint64_t i = firstNode; i < endNode; ++i) {
        const CallStackNode& node = cpu.stacks[i];
        out.add_node_caller_distance(node.parent == kNoCallStack ? 0 : uint32_t(i) - node.parent);
        out.add_node_frame(node.frame);
    }
}

std::vector<CpuRowSlice> planCpuRowBatches(uint64_t rows, uint32_t rowsPerBatch)
{
    std::vector<CpuRowSlice> slices;
    for (uint64_t first = 0; first < rows; first += rowsPerBatch)
        slices.push_back({first, uint32_t(std::min<uint64_t>(rowsPerBatch, rows - first))});
    return slices;
}

void encodeCpuSampleBatch(const CpuProfile& cpu, const CpuRowSlice& slice, CpuSampleBatch& out)
{
    out.set_first_index(slice.first);
    out.set_count(slice.count);
    encodeRuns(cpu.samples, slice, *out.mutable_threads());
    Timestamp previous = 0;
    for (uint64_t i = slice.first; i < slice.first + slice.count; ++i) {
        const CpuSample& sample = cpu.samples[i];
        if (startsRun(cpu.samples, i, slice)) previous = 0;
        out.add_time_delta(wrappingDifference(sample.time, previous));
        previous = sample.time;
        out.add_stack(storedStack(sample.stack));
        out.add_cpu(sample.cpu);
    }
}

void encodeThreadStateBatch(const CpuProfile& cpu, const CpuRowSlice& slice, ThreadStateBatch& out)
{
    out.set_first_index(slice.first);
    out.set_count(slice.count);
    encodeRuns(cpu.states, slice, *out.mutable_threads());
    Timestamp previousEnd = 0;
    for (uint64_t i = slice.first; i < slice.first + slice.count; ++i) {
        const ThreadStateInterval& state = cpu.states[i];
        if (startsRun(cpu.states, i, slice)) previousEnd = 0;
        out.add_start_delta(wrappingDifference(state.start, previousEnd));
        out.add_duration(uint64_t(wrappingDifference(state.end, state.start)));
        previousEnd = state.end;
        out.add_state(uint32_t(state.state));
        out.add_stack(storedStack(state.stack));
    }
}

void encodeEventStackBatch(const CpuProfile& cpu, const CpuRowSlice& slice, EventStackBatch& out)
{
    out.set_first_index(slice.first);
    out.set_count(slice.count);
    encodeRuns(cpu.eventStacks, slice, *out.mutable_threads());
    Timestamp previous = 0;
    for (uint64_t i = slice.first; i < slice.first + slice.count; ++i) {
        const EventStack& stack = cpu.eventStacks[i];
        if (startsRun(cpu.eventStacks, i, slice)) previous = 0;
        out.add_start_delta(wrappingDifference(stack.start, previous));
        previous = stack.start;
        out.add_stack(storedStack(stack.stack));
    }
}

CpuDecoder::CpuDecoder(Trace& trace, std::string path)
    : m_trace(trace)
    , m_path(std::move(path))
{ }

Status CpuDecoder::damaged(uint64_t offset, const std::string& what) const
{
    return Status::failure(damagedReport(m_path, offset, what));
}

Status CpuDecoder::define(
    const CpuStacks& stacks, const CpuBatchBytes& batchBytes, bool complete, uint64_t frameOffset)
{
    if (stacks.sampling_period() < 0) return damaged(frameOffset, "its CPU sampling period is negative");
    const uint64_t sampleRoom = batchBytes.samples / kSampleBytes;
    const uint64_t stateRoom = batchBytes.states / kStateBytes;
    const uint64_t eventStackRoom = batchBytes.eventStacks / kEventStackBytes;
    if (complete
        && (stacks.samples() > sampleRoom || stacks.states() > stateRoom
            || stacks.event_stacks() > eventStackRoom))
        return damaged(frameOffset, "its CPU profile claims more rows than its batches hold");
    // A cut report's batches hold less than it claims: each array gets room for what the bytes
    // left can hold, and batches past it count as lost.
    CpuProfile& cpu = m_trace.cpu;
    cpu.samplingPeriod = stacks.sampling_period();
    m_samples.claimed = stacks.samples();
    m_states.claimed = stacks.states();
    m_eventStacks.claimed = stacks.event_stacks();
    cpu.samples.resize(std::min(m_samples.claimed, sampleRoom));
    cpu.states.resize(std::min(m_states.claimed, stateRoom));
    cpu.eventStacks.resize(std::min(m_eventStacks.claimed, eventStackRoom));
    m_defined = true;
    return {};
}

Status CpuDecoder::addStacks(
    const CpuStacks& stacks, const CpuBatchBytes& batchBytes, bool complete, uint64_t frameOffset)
{
    CpuProfile& cpu = m_trace.cpu;
    if (!m_defined) {
        if (Status defined = define(stacks, batchBytes, complete, frameOffset); !defined) return defined;
    } else if (stacks.sampling_period() != cpu.samplingPeriod || stacks.samples() != m_samples.claimed
        || stacks.states() != m_states.claimed || stacks.event_stacks() != m_eventStacks.claimed) {
        return damaged(frameOffset, "its CPU stack chunks disagree about the profile");
    }
    if (stacks.frames_first() != cpu.frames.size() || stacks.nodes_first() != cpu.stacks.size())
        return damaged(frameOffset, "its CPU stack chunks are out of order");
    const int frames = stacks.frame_function_size(), nodes = stacks.node_frame_size();
    if (stacks.frame_module_size() != frames || stacks.frame_offset_size() != frames
        || (stacks.frame_kernel_size() != 0 && stacks.frame_kernel_size() != frames)
        || stacks.node_caller_distance_size() != nodes)
        return damaged(frameOffset, "a CPU stack chunk holds columns of different lengths");
    // Ids stay below kNoCallStack, which means "none".
    if (cpu.frames.size() + uint64_t(frames) >= kNoCallStack
        || cpu.stacks.size() + uint64_t(nodes) >= kNoCallStack)
        return damaged(frameOffset, "its call stack tables hold more than 2^32 entries");
    for (int i = 0; i < frames; ++i)
        cpu.frames.push_back({StringId(stacks.frame_function(i)), StringId(stacks.frame_module(i)),
            stacks.frame_offset(i), stacks.frame_kernel_size() != 0 && stacks.frame_kernel(i)});
    for (int i = 0; i < nodes; ++i) {
        const auto index = uint32_t(cpu.stacks.size());
        const uint32_t distance = stacks.node_caller_distance(i);
        if (distance > index) return damaged(frameOffset, "a call stack node's caller comes after it");
        cpu.stacks.push_back({distance == 0 ? kNoCallStack : index - distance, stacks.node_frame(i)});
    }
    return {};
}

Status CpuDecoder::checkBatch(const Rows& rows, uint64_t first, uint32_t count, bool columnsFit,
    const ThreadRuns& runs, const std::string& what, uint64_t frameOffset) const
{
    if (!m_defined) return damaged(frameOffset, "CPU profile rows come without their call stacks");
    if (first > rows.claimed || count > rows.claimed - first)
        return damaged(frameOffset, "a " + what + " lies outside the CPU profile");
    if (!columnsFit) return damaged(frameOffset, "a " + what + " holds the wrong number of rows");
    if (runs.tid_size() != runs.length_size())
        return damaged(frameOffset, "a " + what + " lists its threads wrongly");
    uint64_t rowsOfRuns = 0;
    for (uint32_t length : runs.length()) {
        if (length == 0) return damaged(frameOffset, "a " + what + " lists its threads wrongly");
        rowsOfRuns += length;
    }
    if (rowsOfRuns != count) return damaged(frameOffset, "a " + what + " lists its threads wrongly");
    return {};
}

void CpuDecoder::markReceived(Rows& rows, uint64_t first, uint32_t count)
{
    std::lock_guard lock(m_mutex);
    rows.received.emplace_back(first, first + count);
}

bool CpuDecoder::stackOf(uint32_t stored, uint32_t& stack) const
{
    stack = stored - 1; // 0 wraps to kNoCallStack
    return stored <= m_trace.cpu.stacks.size();
}

Status CpuDecoder::decode(const CpuSampleBatch& batch, uint64_t frameOffset)
{
    const uint64_t first = batch.first_index();
    const uint32_t count = batch.count();
    const bool columnsFit = uint64_t(batch.time_delta_size()) == count
        && uint64_t(batch.stack_size()) == count && uint64_t(batch.cpu_size()) == count;
    if (Status ok
        = checkBatch(m_samples, first, count, columnsFit, batch.threads(), "CPU sample batch", frameOffset);
        !ok)
        return ok;
    if (!fitsRoom(first, count, m_trace.cpu.samples.size())) return {};
    CpuSample* out = m_trace.cpu.samples.data() + first;
    const ThreadRuns& runs = batch.threads();
    int row = 0;
    for (int r = 0; r < runs.tid_size(); ++r) {
        Timestamp time = 0;
        for (uint32_t j = 0; j < runs.length(r); ++j, ++row) {
            time = wrappingSum(time, batch.time_delta(row));
            uint32_t stack = kNoCallStack;
            if (!stackOf(batch.stack(row), stack))
                return damaged(frameOffset, "a CPU sample refers to a missing call stack");
            out[row] = {time, Tid(runs.tid(r)), stack, batch.cpu(row)};
        }
    }
    markReceived(m_samples, first, count);
    return {};
}

Status CpuDecoder::decode(const ThreadStateBatch& batch, uint64_t frameOffset)
{
    const uint64_t first = batch.first_index();
    const uint32_t count = batch.count();
    const bool columnsFit = uint64_t(batch.start_delta_size()) == count
        && uint64_t(batch.duration_size()) == count && uint64_t(batch.state_size()) == count
        && uint64_t(batch.stack_size()) == count;
    if (Status ok
        = checkBatch(m_states, first, count, columnsFit, batch.threads(), "thread state batch", frameOffset);
        !ok)
        return ok;
    if (!fitsRoom(first, count, m_trace.cpu.states.size())) return {};
    ThreadStateInterval* out = m_trace.cpu.states.data() + first;
    const ThreadRuns& runs = batch.threads();
    int row = 0;
    for (int r = 0; r < runs.tid_size(); ++r) {
        Timestamp previousEnd = 0;
        for (uint32_t j = 0; j < runs.length(r); ++j, ++row) {
            const Timestamp start = wrappingSum(previousEnd, batch.start_delta(row));
            const uint64_t duration = batch.duration(row);
            const Timestamp end = wrappingSum(start, int64_t(duration));
            // Without wrapping, start + duration > start exactly when the duration is positive.
            if (duration == 0 || end <= start)
                return damaged(frameOffset, "a thread state does not end after it starts");
            if (batch.state(row) >= kThreadStateCount)
                return damaged(frameOffset, "a thread state is of an unknown kind");
            uint32_t stack = kNoCallStack;
            if (!stackOf(batch.stack(row), stack))
                return damaged(frameOffset, "a thread state refers to a missing call stack");
            out[row] = {start, end, Tid(runs.tid(r)), ThreadState(batch.state(row)), stack};
            previousEnd = end;
        }
    }
    markReceived(m_states, first, count);
    return {};
}

Status CpuDecoder::decode(const EventStackBatch& batch, uint64_t frameOffset)
{
    const uint64_t first = batch.first_index();
    const uint32_t count = batch.count();
    const bool columnsFit
        = uint64_t(batch.start_delta_size()) == count && uint64_t(batch.stack_size()) == count;
    if (Status ok = checkBatch(
            m_eventStacks, first, count, columnsFit, batch.threads(), "event stack batch", frameOffset);
        !ok)
        return ok;
    if (!fitsRoom(first, count, m_trace.cpu.eventStacks.size())) return {};
    EventStack* out = m_trace.cpu.eventStacks.data() + first;
    const ThreadRuns& runs = batch.threads();
    int row = 0;
    for (int r = 0; r < runs.tid_size(); ++r) {
        Timestamp start = 0;
        for (uint32_t j = 0; j < runs.length(r); ++j, ++row) {
            start = wrappingSum(start, batch.start_delta(row));
            uint32_t stack = kNoCallStack;
            if (!stackOf(batch.stack(row), stack))
                return damaged(frameOffset, "an event stack refers to a missing call stack");
            out[row] = {Tid(runs.tid(r)), start, stack};
        }
    }
    markReceived(m_eventStacks, first, count);
    return {};
}

Result<uint64_t> CpuDecoder::tiledPrefix(Rows& rows, bool complete) const
{
    auto& received = rows.received;
    std::sort(received.begin(), received.end());
    uint64_t covered = 0;
    size_t tiles = 0;
    while (tiles < received.size() && received[tiles].first == covered)
        covered = received[tiles++].second;
    if (complete && (covered != rows.claimed || tiles != received.size()))
        return Result<uint64_t>::failure(
            damagedReport(m_path, 0, "its CPU profile batches do not cover the profile exactly"));
    return covered;
}

Status CpuDecoder::checkIds() const
{
    const CpuProfile& cpu = m_trace.cpu;
    for (const StackFrame& frame : cpu.frames)
        if (!m_trace.strings.contains(frame.function) || !m_trace.strings.contains(frame.module))
            return damaged(0, "a stack frame names a missing string");
    for (const CallStackNode& node : cpu.stacks)
        if (node.frame >= cpu.frames.size()) return damaged(0, "a call stack node refers to a missing frame");
    return {};
}

Status CpuDecoder::checkOrder() const
{
    const CpuProfile& cpu = m_trace.cpu;
    for (size_t i = 1; i < cpu.samples.size(); ++i) {
        const CpuSample &a = cpu.samples[i - 1], &b = cpu.samples[i];
        if (std::tie(b.tid, b.time) < std::tie(a.tid, a.time))
            return damaged(0, "its CPU samples are out of thread and time order");
    }
    for (size_t i = 1; i < cpu.states.size(); ++i) {
        const ThreadStateInterval &a = cpu.states[i - 1], &b = cpu.states[i];
        if (b.tid < a.tid || (b.tid == a.tid && b.start < a.end))
            return damaged(0, "its thread states overlap or are out of order");
    }
    for (size_t i = 1; i < cpu.eventStacks.size(); ++i) {
        const EventStack &a = cpu.eventStacks[i - 1], &b = cpu.eventStacks[i];
        if (std::tie(b.tid, b.start) < std::tie(a.tid, a.start))
            return damaged(0, "its event stacks are out of thread and time order");
    }
    return {};
}

Result<uint64_t> CpuDecoder::finish(bool complete)
{
    if (!m_defined) return uint64_t(0);
    CpuProfile& cpu = m_trace.cpu;
    const Result<uint64_t> samples = tiledPrefix(m_samples, complete);
    const Result<uint64_t> states = tiledPrefix(m_states, complete);
    const Result<uint64_t> eventStacks = tiledPrefix(m_eventStacks, complete);
    for (const auto* tiled : {&samples, &states, &eventStacks})
        if (!*tiled) return *tiled;
    cpu.samples.resize(samples.value());
    cpu.states.resize(states.value());
    cpu.eventStacks.resize(eventStacks.value());
    if (Status ids = checkIds(); !ids) return Result<uint64_t>::failure(ids.error());
    if (Status order = checkOrder(); !order) return Result<uint64_t>::failure(order.error());
    return (m_samples.claimed - samples.value()) + (m_states.claimed - states.value())
        + (m_eventStacks.claimed - eventStacks.value());
}

} // namespace sightline::rep
