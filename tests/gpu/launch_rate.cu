// Empty kernels launched as fast as one thread can for about two seconds: the collector must
// keep every record (no CUPTI drops) at 200k kernels per second and more.
//   launch_rate EXPECTATIONS.json [SECONDS]
#include "gpu_common.h"

#include <chrono>

namespace {

__global__ void empty_kernel() { }

} // namespace

int main(int argc, char** argv)
{
    const char* expectations = expectationPath(argc, argv, 1);
    const double seconds = argc > 2 ? std::atof(argv[2]) : 2.0;
    Expectations expect;
    empty_kernel<<<1, 1>>>(); // context creation and module load before timing
    CUDA_CHECK(cudaDeviceSynchronize());
    int launches = 0;
    const auto start = std::chrono::steady_clock::now();
    double elapsed = 0;
    while (elapsed < seconds) {
        for (int i = 0; i < 1000; ++i)
            empty_kernel<<<1, 1>>>();
        launches += 1000;
        elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    expect.kernels("empty_kernel", launches + 1);
    expect.value("launches_per_second", launches / elapsed);
    expect.write(expectations);
    std::printf(
        "launch rate: %d kernels in %.2f s (%.0f per second)\n", launches, elapsed, launches / elapsed);
    return 0;
}
