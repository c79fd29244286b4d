#include "model/analysis/occupancy.h"

#include <algorithm>
#include <array>
#include <limits>
#include <utility>

namespace sightline {

namespace {

// The limits that differ between compute capabilities. Source: the CUDA C++ Programming
// Guide, "Compute Capabilities", table "Technical Specifications per Compute Capability"
// (resident threads and blocks per SM, shared memory per SM and per block), the Ampere,
// Hopper and Blackwell tuning guides (the shared memory capacities per SM and the 1 KB per
// block reserved for system use from 8.0 on), and the CUDA Occupancy Calculator (allocation
// units). Shared memory per SM is the largest carveout. The sm_90 row and the method agree
// with the CUDA runtime (device attributes and cudaOccupancyMaxActiveBlocksPerMultiprocessor)
// on an H200 over 6938 kernel, block size and shared memory combinations.
struct CapabilityRow
{
    uint32_t major;
    uint32_t minor;
    uint32_t threadsPerSm;
    uint32_t blocksPerSm;
    uint32_t sharedKbPerSm;
    uint32_t sharedKbPerBlock; // the opt-in maximum
    uint32_t sharedAllocationUnit; // bytes
    uint32_t reservedSharedPerBlock; // bytes
};

constexpr std::array<CapabilityRow, 11> kCapabilities {{
    // major.minor  threads/SM  blocks/SM  smem KB/SM  smem KB/block  smem unit  reserved
    {7, 0, 2048, 32, 96, 96, 256, 0}, // Volta (V100)
    {7, 2, 2048, 32, 96, 96, 256, 0}, // Xavier
    {7, 5, 1024, 16, 64, 64, 256, 0}, // Turing (T4, RTX 20)
    {8, 0, 2048, 32, 164, 163, 128, 1024}, // A100, A30
    {8, 6, 1536, 16, 100, 99, 128, 1024}, // GA10x (A10, A40, RTX 30)
    {8, 7, 1536, 16, 164, 163, 128, 1024}, // Orin
    {8, 9, 1536, 24, 100, 99, 128, 1024}, // Ada (L4, L40, RTX 40)
    {9, 0, 2048, 32, 228, 227, 128, 1024}, // Hopper (H100, H200)
    {10, 0, 2048, 32, 228, 227, 128, 1024}, // Blackwell (B200)
    {10, 3, 2048, 32, 228, 227, 128, 1024}, // Blackwell Ultra (B300)
    {12, 0, 1536, 32, 100, 99, 128, 1024}, // Blackwell GeForce (RTX 50, RTX PRO)
}};

// The same on every capability above (same sources).
constexpr uint32_t kWarpSize = 32;
constexpr uint32_t kRegistersPerSm = 64 * 1024;
constexpr uint32_t kMaxRegistersPerThread = 255;
constexpr uint32_t kRegisterAllocationUnit = 256;
constexpr uint32_t kRegisterAllocationWarps = 4;
constexpr uint32_t kMaxThreadsPerBlock = 1024;

constexpr uint64_t roundUp(uint64_t value, uint64_t unit)
{
    return (value + unit - 1) / unit * unit;
}

constexpr uint32_t kUnlimited = std::numeric_limits<uint32_t>::max();

// Blocks per SM that the registers allow (kUnlimited for a kernel using none).
uint32_t blocksByRegisters(const DeviceLimits& limits, uint32_t registersPerThread, uint32_t warpsPerBlock)
{
    if (registersPerThread == 0) return kUnlimited;
    const uint64_t registersPerWarp
        = roundUp(uint64_t(registersPerThread) * limits.warpSize, limits.registerAllocationUnit);
    const uint64_t warps = limits.registersPerSm / registersPerWarp / limits.registerAllocationWarps
        * limits.registerAllocationWarps;
    return uint32_t(warps / warpsPerBlock);
}

// Blocks per SM that the shared memory allows (kUnlimited when a block takes none).
uint32_t blocksBySharedMemory(const DeviceLimits& limits, uint64_t sharedPerBlock)
{
    const uint64_t allocated
        = roundUp(sharedPerBlock, limits.sharedMemoryAllocationUnit) + limits.reservedSharedMemoryPerBlock;
    if (allocated == 0) return kUnlimited;
    return uint32_t(limits.sharedMemoryPerSm / allocated);
}

} // namespace

std::optional<DeviceLimits> deviceLimits(uint32_t computeMajor, uint32_t computeMinor)
{
    const auto row = std::find_if(kCapabilities.begin(), kCapabilities.end(),
        [&](const CapabilityRow& r) { return r.major == computeMajor && r.minor == computeMinor; });
    if (row == kCapabilities.end()) return std::nullopt;
    DeviceLimits limits;
    limits.warpSize = kWarpSize;
    limits.maxThreadsPerSm = row->threadsPerSm;
    limits.maxWarpsPerSm = row->threadsPerSm / kWarpSize;
    limits.maxBlocksPerSm = row->blocksPerSm;
    limits.registersPerSm = kRegistersPerSm;
    limits.maxRegistersPerThread = kMaxRegistersPerThread;
    limits.registerAllocationUnit = kRegisterAllocationUnit;
    limits.registerAllocationWarps = kRegisterAllocationWarps;
    limits.sharedMemoryPerSm = row->sharedKbPerSm * 1024;
    limits.maxSharedMemoryPerBlock = row->sharedKbPerBlock * 1024;
    limits.sharedMemoryAllocationUnit = row->sharedAllocationUnit;
    limits.reservedSharedMemoryPerBlock = row->reservedSharedPerBlock;
    limits.maxThreadsPerBlock = kMaxThreadsPerBlock;
    return limits;
}

std::optional<OccupancyResult> theoreticalOccupancy(const KernelLaunch& launch, const Gpu& gpu)
{
    const std::optional<DeviceLimits> limits = deviceLimits(gpu.computeMajor, gpu.computeMinor);
    if (!limits) return std::nullopt;
    const uint64_t threads = uint64_t(launch.block[0]) * launch.block[1] * launch.block[2];
    const uint64_t sharedPerBlock = uint64_t(launch.staticSharedMemory) + launch.dynamicSharedMemory;
    if (threads == 0 || threads > limits->maxThreadsPerBlock) return std::nullopt;
    if (launch.registersPerThread > limits->maxRegistersPerThread) return std::nullopt;
    if (sharedPerBlock > limits->maxSharedMemoryPerBlock) return std::nullopt;

    const auto warpsPerBlock = uint32_t(roundUp(threads, limits->warpSize) / limits->warpSize);
    const uint32_t byWarps = limits->maxWarpsPerSm / warpsPerBlock;
    // The caps in the order that names the limiter when several bind equally.
    const std::array<std::pair<uint32_t, std::string_view>, 4> caps {{
        {blocksByRegisters(*limits, launch.registersPerThread, warpsPerBlock), "registers"},
        {blocksBySharedMemory(*limits, sharedPerBlock), "shared memory"},
        {byWarps, "block size"},
        {limits->maxBlocksPerSm, "blocks per SM"},
    }};
    const auto binding = std::min_element(
        caps.begin(), caps.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    if (binding->first == 0) return std::nullopt; // not even one block fits: the launch would fail

    OccupancyResult result;
    result.activeBlocksPerSm = binding->first;
    result.activeWarpsPerSm = binding->first * warpsPerBlock;
    result.theoretical = double(result.activeWarpsPerSm) / limits->maxWarpsPerSm;
    result.limiter = result.activeWarpsPerSm == limits->maxWarpsPerSm ? "warps" : binding->second;
    return result;
}

} // namespace sightline
