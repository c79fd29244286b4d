// Theoretical occupancy of a kernel launch: the share of an SM's warp slots that the launch's
// blocks can hold at once, computed the way the CUDA Occupancy Calculator does from the block
// size, the registers per thread and the shared memory per block.
//
// Per SM, each resource caps the resident blocks:
//   block size     max warps per SM / warps per block (threads rounded up to whole warps)
//   blocks per SM  the architecture's resident-block limit
//   registers      registers per warp are rounded up to the allocation unit (256); the warps
//                  they allow are rounded down to the warp allocation granularity (4: the
//                  register file is split among the SM's four schedulers), then divided by
//                  the warps per block
//   shared memory  static + dynamic bytes rounded up to the allocation unit, plus the bytes the
//                  system reserves per block (1 KB from sm_80 on), divided into the SM's
//                  shared memory with the L1/shared carveout at its maximum
// The fewest blocks wins; occupancy is those blocks' warps over the SM's maximum warps.
//
// The limiter names the cap that binds: "registers", "shared memory", "block size" (the warp
// limit leaves warp slots empty because the block's warps do not divide the SM's), "blocks per
// SM", or "warps" when every warp slot is filled (100%: nothing limits below the hardware's
// maximum). When several caps bind equally below 100%, the first in that order is named.
//
// A launch with 0 registers per thread counts as using none (legal; CUPTI reports at least 1).
// There is no answer (nullopt) for a compute capability missing from the table, for a block
// with a zero dimension, or for a launch that could not have run on the device (a block over
// the thread, register or shared memory limits, or one whose registers no SM can hold): the
// data then contradict the device, and no number would be honest.
#pragma once

#include "model/core/descriptors.h"
#include "model/core/entities.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace sightline {

// One compute capability's per-SM limits, in the CUDA Occupancy Calculator's terms.
struct DeviceLimits
{
    uint32_t warpSize = 32;
    uint32_t maxThreadsPerSm = 0;
    uint32_t maxWarpsPerSm = 0;
    uint32_t maxBlocksPerSm = 0;
    uint32_t registersPerSm = 0; // 32-bit registers
    uint32_t maxRegistersPerThread = 0;
    uint32_t registerAllocationUnit = 0; // registers, allocated per warp
    uint32_t registerAllocationWarps = 0; // warps per SM limited by registers round down to this
    uint32_t sharedMemoryPerSm = 0; // bytes, the carveout at its maximum
    uint32_t maxSharedMemoryPerBlock = 0; // bytes, with the opt-in beyond 48 KB
    uint32_t sharedMemoryAllocationUnit = 0; // bytes
    uint32_t reservedSharedMemoryPerBlock = 0; // bytes the system keeps per block
    uint32_t maxThreadsPerBlock = 0;
};

// The limits of sm_<major><minor>, or nothing for a capability the table does not know.
std::optional<DeviceLimits> deviceLimits(uint32_t computeMajor, uint32_t computeMinor);

struct OccupancyResult
{
    double theoretical = 0; // 0..1 of the device's warps per SM
    uint32_t activeBlocksPerSm = 0;
    uint32_t activeWarpsPerSm = 0;
    std::string_view limiter; // "registers", "shared memory", "block size", "blocks per SM", "warps"
};

std::optional<OccupancyResult> theoreticalOccupancy(const KernelLaunch& launch, const Gpu& gpu);

} // namespace sightline
