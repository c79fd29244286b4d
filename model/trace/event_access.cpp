#include "model/trace/event_access.h"

namespace sightline {
namespace {

template <class E> E timed(const Track& t, uint32_t i)
{
    E e;
    e.start = t.events.start[i];
    e.end = t.events.end[i];
    return e;
}

} // namespace

ApiCall apiCallAt(const Trace& trace, EventRef ref)
{
    const Track& t = trace.track(ref.track);
    auto e = timed<ApiCall>(t, ref.index);
    e.name = t.events.name[ref.index];
    e.correlation = t.events.correlation[ref.index];
    e.result = trace.apiResults[t.events.detail[ref.index]];
    return e;
}

KernelEvent kernelAt(const Trace& trace, EventRef ref)
{
    const Track& t = trace.track(ref.track);
    auto e = timed<KernelEvent>(t, ref.index);
    e.name = t.events.name[ref.index];
    e.correlation = t.events.correlation[ref.index];
    e.launch = trace.kernelLaunches[t.events.detail[ref.index]];
    return e;
}

MemoryEvent memoryAt(const Trace& trace, EventRef ref)
{
    const Track& t = trace.track(ref.track);
    auto e = timed<MemoryEvent>(t, ref.index);
    e.correlation = t.events.correlation[ref.index];
    e.op = trace.memoryOps[t.events.detail[ref.index]];
    e.bytes = uint64_t(t.events.value[ref.index]);
    return e;
}

SyncEvent syncAt(const Trace& trace, EventRef ref)
{
    const Track& t = trace.track(ref.track);
    auto e = timed<SyncEvent>(t, ref.index);
    e.correlation = t.events.correlation[ref.index];
    e.op = trace.syncOps[t.events.detail[ref.index]];
    return e;
}

NvtxEvent nvtxAt(const Trace& trace, EventRef ref)
{
    const Track& t = trace.track(ref.track);
    auto e = timed<NvtxEvent>(t, ref.index);
    e.name = t.events.name[ref.index];
    e.attributes = trace.nvtxAttributes[t.events.detail[ref.index]];
    return e;
}

OsCall osCallAt(const Trace& trace, EventRef ref)
{
    const Track& t = trace.track(ref.track);
    auto e = timed<OsCall>(t, ref.index);
    e.name = t.events.name[ref.index];
    e.returnValue = t.events.value[ref.index];
    return e;
}

std::string memoryOpName(const MemoryOp& op)
{
    if (op.kind == MemoryOpKind::Memset) return "[CUDA memset]";
    return "[CUDA memcpy " + std::string(label(op.copyKind)) + "]";
}

std::string syncOpName(const SyncOp& op)
{
    return "[CUDA " + std::string(label(op.type)) + "]";
}

} // namespace sightline
