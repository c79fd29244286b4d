// Nsight Systems' serialized process and thread ids ("globalPid", "globalTid"): a 64-bit value
// laid out as <hardware id:8><VM id:8><pid:24><tid:24>. Sightline writes hardware and VM id 0,
// so globalPid = pid << 24 and globalTid = (pid << 24) | tid, each id truncated to 24 bits.
// Decoding ignores the upper 16 bits, so it reads real nsys exports (VM id 1) as well.
#pragma once

#include "model/core/ids.h"

#include <cstdint>

namespace sightline {

constexpr uint64_t kGlobalIdFieldMask = 0xFFFFFF;

constexpr int64_t globalPid(Pid pid)
{
    return int64_t((uint64_t(pid.value) & kGlobalIdFieldMask) << 24);
}

constexpr int64_t globalTid(Pid pid, Tid tid)
{
    return globalPid(pid) | int64_t(uint64_t(tid.value) & kGlobalIdFieldMask);
}

constexpr Pid pidOfGlobalId(int64_t globalId)
{
    return Pid(uint32_t((uint64_t(globalId) >> 24) & kGlobalIdFieldMask));
}

constexpr Tid tidOfGlobalId(int64_t globalId)
{
    return Tid(uint32_t(uint64_t(globalId) & kGlobalIdFieldMask));
}

} // namespace sightline
