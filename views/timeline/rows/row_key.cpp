#include "views/timeline/rows/row_key.h"

namespace sightline::views {
namespace {

// A trace names one source (Trace::setSource gives it to every key, process and GPU).
SourceId sourceOf(const Trace& trace)
{
    if (!trace.tracks.empty()) return trace.tracks.front().key.source;
    if (!trace.processes.empty()) return trace.processes.front().source;
    return trace.gpus.empty() ? SourceId() : trace.gpus.front().source;
}

// The key of the first thing a row or a row below it draws: a track, a counter series (its
// device or process), a thread's CPU profile.
std::optional<RowKey> firstDrawn(const Trace& trace, const RowTree& rows, int node)
{
    const RowNode& row = rows.node(node);
    if (!row.tracks.empty()) return RowKey {row.kind, trace.track(row.tracks.front()).key, {}};
    if (row.counter != kNoCounter && row.counter < trace.counterSeries.size()) {
        const CounterSeries& series = trace.counterSeries[row.counter];
        RowKey key {row.kind, {}, series.name};
        key.key.device = series.device;
        key.key.pid = series.pid;
        return key;
    }
    if (row.thread != Tid()) {
        const Thread* thread = trace.findThread(row.thread);
        RowKey key {row.kind, {}, {}};
        key.key.pid = thread ? thread->pid : Pid(row.thread.value);
        key.key.tid = row.thread;
        return key;
    }
    for (int child : row.children)
        if (std::optional<RowKey> drawn = firstDrawn(trace, rows, child)) return drawn;
    return std::nullopt;
}

// Keeps the fields that name a row of `kind`; a track's row keeps its track's whole key.
TrackKey cutToLevel(RowKind kind, const TrackKey& drawn)
{
    TrackKey level;
    switch (kind) {
    case RowKind::Processes:
        return level;
    case RowKind::Gpu:
    case RowKind::GpuMetrics:
        level.device = drawn.device;
        return level;
    case RowKind::AllStreams:
    case RowKind::Context:
    case RowKind::Stream:
        level.device = drawn.device;
        level.pid = drawn.pid;
        level.context = drawn.context;
        if (kind == RowKind::Stream) level.stream = drawn.stream;
        return level;
    case RowKind::Process:
    case RowKind::Thread:
        level.pid = drawn.pid;
        if (kind == RowKind::Thread) level.tid = drawn.tid;
        return level;
    case RowKind::Counter:
        level.device = drawn.device;
        level.pid = drawn.pid;
        return level;
    case RowKind::Kernels:
    case RowKind::Memory:
    case RowKind::Synchronization:
    case RowKind::CudaApi:
    case RowKind::Nvtx:
    case RowKind::OsRuntime:
    case RowKind::NvtxProjection:
        return drawn;
    }
    return drawn;
}

} // namespace

std::vector<RowKey> rowKeys(const Trace& trace, const RowTree& rows)
{
    const SourceId source = sourceOf(trace);
    std::vector<RowKey> keys(rows.size());
    for (size_t n = 0; n < rows.size(); ++n) {
        const RowKind kind = rows.node(int(n)).kind;
        const std::optional<RowKey> drawn = firstDrawn(trace, rows, int(n));
        keys[n].kind = kind;
        if (drawn) {
            keys[n].key = cutToLevel(kind, drawn->key);
            if (kind == RowKind::Counter) keys[n].counter = drawn->counter;
        }
        keys[n].key.source = source;
    }
    return keys;
}

} // namespace sightline::views
