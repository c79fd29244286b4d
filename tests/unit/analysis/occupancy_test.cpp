// Theoretical occupancy (model/analysis/occupancy.h) against examples worked by hand with the
// CUDA Occupancy Calculator's method. On sm_90 an SM holds 64 warps, 32 blocks, 65536
// registers and 228 KB (233472 bytes) of shared memory, of which 1 KB per block is reserved.
#include "model/analysis/occupancy.h"

#include <catch2/catch.hpp>
#include <utility>

using namespace sightline;

namespace {

Gpu gpuOf(uint32_t major, uint32_t minor)
{
    Gpu gpu;
    gpu.computeMajor = major;
    gpu.computeMinor = minor;
    return gpu;
}

KernelLaunch launchOf(
    std::array<uint32_t, 3> block, uint32_t registers, uint32_t staticShared = 0, uint32_t dynamicShared = 0)
{
    KernelLaunch launch;
    launch.block = block;
    launch.registersPerThread = registers;
    launch.staticSharedMemory = staticShared;
    launch.dynamicSharedMemory = dynamicShared;
    return launch;
}

const Gpu kH100 = gpuOf(9, 0);

} // namespace

TEST_CASE("the limits table holds the Programming Guide's numbers", "[occupancy]")
{
    const std::optional<DeviceLimits> hopper = deviceLimits(9, 0);
    REQUIRE(hopper);
    CHECK(hopper->registersPerSm == 65536);
    CHECK(hopper->maxThreadsPerSm == 2048);
    CHECK(hopper->maxWarpsPerSm == 64);
    CHECK(hopper->maxBlocksPerSm == 32);
    CHECK(hopper->sharedMemoryPerSm == 228 * 1024);
    CHECK(hopper->maxSharedMemoryPerBlock == 227 * 1024);
    CHECK(hopper->reservedSharedMemoryPerBlock == 1024);

    const std::optional<DeviceLimits> a100 = deviceLimits(8, 0);
    REQUIRE(a100);
    CHECK(a100->sharedMemoryPerSm == 164 * 1024);
    CHECK(a100->maxSharedMemoryPerBlock == 163 * 1024);
    CHECK(a100->maxWarpsPerSm == 64);

    const std::optional<DeviceLimits> ada = deviceLimits(8, 9);
    REQUIRE(ada);
    CHECK(ada->maxWarpsPerSm == 48);
    CHECK(ada->maxBlocksPerSm == 24);

    const std::optional<DeviceLimits> turing = deviceLimits(7, 5);
    REQUIRE(turing);
    CHECK(turing->maxWarpsPerSm == 32);
    CHECK(turing->reservedSharedMemoryPerBlock == 0);

    // Every listed capability is consistent with itself: warps and threads agree, and the
    // largest block with its reserve fits in an SM.
    for (auto [major, minor] : {std::pair {7u, 0u}, {7u, 5u}, {8u, 0u}, {8u, 6u}, {8u, 7u}, {8u, 9u},
             {9u, 0u}, {10u, 0u}, {12u, 0u}}) {
        CAPTURE(major, minor);
        const std::optional<DeviceLimits> limits = deviceLimits(major, minor);
        REQUIRE(limits);
        CHECK(limits->maxWarpsPerSm * limits->warpSize == limits->maxThreadsPerSm);
        CHECK(limits->maxSharedMemoryPerBlock + limits->reservedSharedMemoryPerBlock
            <= limits->sharedMemoryPerSm);
        CHECK(limits->maxThreadsPerBlock == 1024);
    }
}

TEST_CASE("an unknown compute capability has no limits and no occupancy", "[occupancy]")
{
    CHECK_FALSE(deviceLimits(6, 1));
    CHECK_FALSE(deviceLimits(9, 9));
    CHECK_FALSE(deviceLimits(0, 0));
    CHECK_FALSE(theoreticalOccupancy(launchOf({256, 1, 1}, 32), gpuOf(6, 1)));
    CHECK_FALSE(theoreticalOccupancy(launchOf({256, 1, 1}, 32), gpuOf(0, 0))); // capability not recorded
}

TEST_CASE("a light kernel fills every warp slot", "[occupancy]")
{
    // 256 threads = 8 warps; 32 registers = 1024 per warp = 64 warps' worth, so registers
    // allow 8 blocks, as do the 64 warp slots: 8 blocks, 64 warps, 100%.
    const std::optional<OccupancyResult> result = theoreticalOccupancy(launchOf({256, 1, 1}, 32), kH100);
    REQUIRE(result);
    CHECK(result->theoretical == 1.0);
    CHECK(result->activeBlocksPerSm == 8);
    CHECK(result->activeWarpsPerSm == 64);
    CHECK(result->limiter == "warps");
}

TEST_CASE("registers limit a heavy kernel", "[occupancy]")
{
    // 128 registers x 32 threads = 4096 per warp; 65536 / 4096 = 16 warps = 2 blocks of 8
    // warps: 16 of 64 warps = 25%.
    const std::optional<OccupancyResult> result = theoreticalOccupancy(launchOf({256, 1, 1}, 128), kH100);
    REQUIRE(result);
    CHECK(result->theoretical == 0.25);
    CHECK(result->activeBlocksPerSm == 2);
    CHECK(result->activeWarpsPerSm == 16);
    CHECK(result->limiter == "registers");
}

TEST_CASE("registers are allocated per warp in units of 256", "[occupancy]")
{
    // 33 registers x 32 = 1056 per warp, rounded up to 1280; 65536 / 1280 = 51.2 -> 51 warps,
    // rounded down to a multiple of 4 = 48 -> 6 blocks of 8 warps = 75%. Unrounded, 1056 per
    // warp would allow 62 warps = 7 blocks.
    const std::optional<OccupancyResult> rounded = theoreticalOccupancy(launchOf({256, 1, 1}, 33), kH100);
    REQUIRE(rounded);
    CHECK(rounded->activeBlocksPerSm == 6);
    CHECK(rounded->theoretical == 0.75);
    CHECK(rounded->limiter == "registers");

    // 40 registers = 1280 per warp -> 51 warps -> 48 after the 4-warp granularity; blocks of
    // 64 threads (2 warps) -> 24 blocks, 48 warps = 75% (51 warps would have allowed 25).
    const std::optional<OccupancyResult> granular = theoreticalOccupancy(launchOf({64, 1, 1}, 40), kH100);
    REQUIRE(granular);
    CHECK(granular->activeBlocksPerSm == 24);
    CHECK(granular->activeWarpsPerSm == 48);
    CHECK(granular->limiter == "registers");
}

TEST_CASE("shared memory limits a kernel with large blocks of it", "[occupancy]")
{
    // 48 KB + the 1 KB reserve = 50176 bytes per block; 233472 / 50176 = 4.65 -> 4 blocks of
    // 8 warps = 32 of 64 warps = 50%. Static and dynamic shared memory add up.
    for (const KernelLaunch& launch :
        {launchOf({256, 1, 1}, 32, 48 * 1024), launchOf({256, 1, 1}, 32, 16 * 1024, 32 * 1024)}) {
        const std::optional<OccupancyResult> result = theoreticalOccupancy(launch, kH100);
        REQUIRE(result);
        CHECK(result->activeBlocksPerSm == 4);
        CHECK(result->theoretical == 0.5);
        CHECK(result->limiter == "shared memory");
    }
}

TEST_CASE("shared memory is rounded up to its unit and each block pays the reserve", "[occupancy]")
{
    // 57344 bytes (56 KB) + 1024 = 58368 = 233472 / 4: exactly 4 blocks. One more byte rounds
    // up to 57472 + 1024 = 58496 -> 3 blocks.
    CHECK(theoreticalOccupancy(launchOf({128, 1, 1}, 32, 57344), kH100).value().activeBlocksPerSm == 4);
    CHECK(theoreticalOccupancy(launchOf({128, 1, 1}, 32, 57345), kH100).value().activeBlocksPerSm == 3);

    // 45600 bytes rounds up to 45696 (357 x 128); + 1024 = 46720; 233472 / 46720 = 4.997 ->
    // 4 blocks of 2 warps = 8 warps = 12.5%. Unrounded (46624 bytes) 5 blocks would fit.
    const std::optional<OccupancyResult> result
        = theoreticalOccupancy(launchOf({64, 1, 1}, 32, 45600), kH100);
    REQUIRE(result);
    CHECK(result->activeBlocksPerSm == 4);
    CHECK(result->theoretical == 0.125);
    CHECK(result->limiter == "shared memory");

    // The largest block sm_90 allows (227 KB) fits once with its reserve: 228 KB.
    const std::optional<OccupancyResult> largest
        = theoreticalOccupancy(launchOf({128, 1, 1}, 32, 0, 227 * 1024), kH100);
    REQUIRE(largest);
    CHECK(largest->activeBlocksPerSm == 1);
}

TEST_CASE("small blocks are limited by the blocks per SM", "[occupancy]")
{
    // 32 threads = 1 warp per block; at most 32 blocks per SM -> 32 of 64 warps = 50%.
    const std::optional<OccupancyResult> hopper = theoreticalOccupancy(launchOf({32, 1, 1}, 16), kH100);
    REQUIRE(hopper);
    CHECK(hopper->activeBlocksPerSm == 32);
    CHECK(hopper->theoretical == 0.5);
    CHECK(hopper->limiter == "blocks per SM");

    // sm_86 holds 16 blocks of 48 warps: 16 / 48 = 1/3. sm_89 holds 24: 24 / 48 = 50%.
    const std::optional<OccupancyResult> ampere = theoreticalOccupancy(launchOf({32, 1, 1}, 16), gpuOf(8, 6));
    REQUIRE(ampere);
    CHECK(ampere->activeBlocksPerSm == 16);
    CHECK(ampere->theoretical == Approx(1.0 / 3));
    const std::optional<OccupancyResult> ada = theoreticalOccupancy(launchOf({32, 1, 1}, 16), gpuOf(8, 9));
    REQUIRE(ada);
    CHECK(ada->activeBlocksPerSm == 24);
    CHECK(ada->theoretical == 0.5);
}

TEST_CASE("a block size that does not divide the SM's warps leaves slots empty", "[occupancy]")
{
    // 768 threads = 24 warps; 64 / 24 -> 2 blocks = 48 of 64 warps = 75%. Registers (16 ->
    // 512 per warp -> 128 warps) and shared memory allow more.
    const std::optional<OccupancyResult> result = theoreticalOccupancy(launchOf({768, 1, 1}, 16), kH100);
    REQUIRE(result);
    CHECK(result->activeBlocksPerSm == 2);
    CHECK(result->theoretical == 0.75);
    CHECK(result->limiter == "block size");

    // The block's three dimensions multiply: 16 x 16 x 3 = 768 threads, the same answer.
    CHECK(theoreticalOccupancy(launchOf({16, 16, 3}, 16), kH100).value().activeBlocksPerSm == 2);
    // A partial warp counts whole: 65 threads = 3 warps -> 21 blocks (63 warps) = 63/64.
    const std::optional<OccupancyResult> partial = theoreticalOccupancy(launchOf({65, 1, 1}, 16), kH100);
    REQUIRE(partial);
    CHECK(partial->activeWarpsPerSm == 63);
    CHECK(partial->limiter == "block size");
}

TEST_CASE("the maximum warps differ by device", "[occupancy]")
{
    // 256 threads, 32 registers: 8 blocks fill sm_90's 64 warps; sm_86 holds 48 warps = 6
    // blocks; sm_75 holds 32 warps = 4 blocks. Each is 100% of its own device.
    for (auto [gpu, blocks] : {std::pair {gpuOf(9, 0), 8u}, {gpuOf(8, 6), 6u}, {gpuOf(7, 5), 4u}}) {
        const std::optional<OccupancyResult> result = theoreticalOccupancy(launchOf({256, 1, 1}, 32), gpu);
        REQUIRE(result);
        CHECK(result->activeBlocksPerSm == blocks);
        CHECK(result->theoretical == 1.0);
        CHECK(result->limiter == "warps");
    }
}

TEST_CASE("a kernel with 0 registers has no register limit", "[occupancy]")
{
    // 1024 threads = 32 warps -> 2 blocks fill the 64 warps.
    const std::optional<OccupancyResult> result = theoreticalOccupancy(launchOf({1024, 1, 1}, 0), kH100);
    REQUIRE(result);
    CHECK(result->activeBlocksPerSm == 2);
    CHECK(result->theoretical == 1.0);
}

TEST_CASE("a launch that could not run on the device has no occupancy", "[occupancy]")
{
    CHECK_FALSE(theoreticalOccupancy(launchOf({0, 1, 1}, 32), kH100)); // block size unknown
    CHECK_FALSE(theoreticalOccupancy(launchOf({256, 0, 1}, 32), kH100));
    CHECK_FALSE(theoreticalOccupancy(launchOf({2048, 1, 1}, 32), kH100)); // over 1024 threads
    CHECK_FALSE(theoreticalOccupancy(launchOf({256, 1, 1}, 256), kH100)); // over 255 registers
    CHECK_FALSE(theoreticalOccupancy(launchOf({256, 1, 1}, 32, 0, 228 * 1024), kH100)); // over 227 KB
    // 1024 threads x 255 registers: 8192 per warp -> 8 warps, fewer than one block's 32.
    CHECK_FALSE(theoreticalOccupancy(launchOf({1024, 1, 1}, 255), kH100));
    // Huge dimensions do not overflow into a small thread count.
    CHECK_FALSE(theoreticalOccupancy(launchOf({65536, 65536, 1}, 32), kH100));
}
