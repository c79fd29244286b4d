// Per-event attributes that repeat a lot (a kernel's launch configuration, a copy's kind and
// memory kinds, an NVTX range's colour and domain) are interned into descriptor tables; each
// event stores a 32-bit descriptor id in its track's `detail` column. Equal descriptors share
// one id, which keeps the resident cost of a kernel at a handful of bytes.
#pragma once

#include "model/core/enums.h"
#include "model/core/ids.h"

#include <array>
#include <cstdint>
#include <functional>

namespace sightline {

struct ApiResult
{
    ApiClass apiClass = ApiClass::Runtime;
    int32_t returnCode = 0;
    friend bool operator==(const ApiResult&, const ApiResult&) = default;
};

struct KernelLaunch
{
    StringId shortName; // "saxpy"
    StringId mangledName; // "_Z5saxpyifPfS_" (may equal the demangled name)
    std::array<uint32_t, 3> grid {1, 1, 1};
    std::array<uint32_t, 3> block {1, 1, 1};
    uint32_t registersPerThread = 0;
    uint32_t staticSharedMemory = 0;
    uint32_t dynamicSharedMemory = 0;
    uint32_t localMemoryPerThread = 0;
    uint64_t localMemoryTotal = 0;
    LaunchType launchType = LaunchType::Regular;
    uint32_t graphId = 0; // 0: not launched from a CUDA graph
    uint64_t graphNodeId = 0;
    friend bool operator==(const KernelLaunch&, const KernelLaunch&) = default;
};

struct MemoryOp
{
    MemoryOpKind kind = MemoryOpKind::Memcpy;
    CopyKind copyKind = CopyKind::Unknown; // memcpy only
    MemoryKind srcKind = MemoryKind::Unknown; // memcpy source, or the memset target's kind
    MemoryKind dstKind = MemoryKind::Unknown; // memcpy only
    uint32_t memsetValue = 0; // memset only
    DeviceId srcDevice; // memcpy only (peer copies)
    DeviceId dstDevice;
    friend bool operator==(const MemoryOp&, const MemoryOp&) = default;
};

struct SyncOp
{
    SyncType type = SyncType::Unknown;
    uint32_t eventId = 0; // the CUDA event waited on, when there is one
    friend bool operator==(const SyncOp&, const SyncOp&) = default;
};

struct NvtxAttributes
{
    NvtxStyle style = NvtxStyle::PushPop;
    DomainId domain;
    uint32_t category = 0;
    uint32_t color = 0; // ARGB
    bool hasColor = false;
    Tid endThread; // start/end ranges may end on another thread; else equals the track's
    PayloadType payloadType = PayloadType::None;
    uint64_t payload = 0; // raw bits of the payload value
    friend bool operator==(const NvtxAttributes&, const NvtxAttributes&) = default;
};

// Hash of any descriptor by its bytes-relevant fields, for the interning tables.
struct DescriptorHash
{
    size_t operator()(const ApiResult& d) const noexcept;
    size_t operator()(const KernelLaunch& d) const noexcept;
    size_t operator()(const MemoryOp& d) const noexcept;
    size_t operator()(const SyncOp& d) const noexcept;
    size_t operator()(const NvtxAttributes& d) const noexcept;
};

} // namespace sightline
