// Small helpers that add named events to a TraceBuilder in one line, for the stats tests.
#pragma once

#include "model/construct/trace_builder.h"

#include <string_view>

namespace sightline::test {

constexpr Pid kPid {100};

inline void addApiCall(TraceBuilder& b, Tid tid, std::string_view name, Timestamp start, Timestamp end)
{
    b.add(b.hostTrack(TrackKind::CudaApi, kPid, tid), ApiCall {start, end, b.intern(name), {}, {}});
}

inline void addOsCall(TraceBuilder& b, Tid tid, std::string_view name, Timestamp start, Timestamp end)
{
    b.add(b.hostTrack(TrackKind::OsRuntime, kPid, tid), OsCall {start, end, b.intern(name), 0});
}

inline void addKernel(TraceBuilder& b, StreamId stream, std::string_view name, Timestamp start, Timestamp end)
{
    const TrackId track = b.gpuTrack(TrackKind::Kernels, kPid, DeviceId(0), ContextId(1), stream);
    b.add(track, KernelEvent {start, end, b.intern(name), {}, {}});
}

inline MemoryOp copyOp(CopyKind kind, MemoryKind src, MemoryKind dst)
{
    MemoryOp op;
    op.kind = MemoryOpKind::Memcpy;
    op.copyKind = kind;
    op.srcKind = src;
    op.dstKind = dst;
    return op;
}

inline MemoryOp memsetOp(uint32_t value)
{
    MemoryOp op;
    op.kind = MemoryOpKind::Memset;
    op.srcKind = MemoryKind::Device;
    op.memsetValue = value;
    return op;
}

inline void addMemoryOp(
    TraceBuilder& b, StreamId stream, const MemoryOp& op, uint64_t bytes, Timestamp start, Timestamp end)
{
    const TrackId track = b.gpuTrack(TrackKind::Memory, kPid, DeviceId(0), ContextId(1), stream);
    b.add(track, MemoryEvent {start, end, {}, op, bytes});
}

inline void addNvtx(TraceBuilder& b, Tid tid, DomainId domain, NvtxStyle style, std::string_view name,
    Timestamp start, Timestamp end)
{
    NvtxAttributes attributes;
    attributes.style = style;
    attributes.domain = domain;
    attributes.endThread = tid;
    b.add(
        b.hostTrack(TrackKind::Nvtx, kPid, tid, domain), NvtxEvent {start, end, b.intern(name), attributes});
}

} // namespace sightline::test
