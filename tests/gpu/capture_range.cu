// cudaProfilerStart/Stop as a capture range: kernels before the start and after the stop must
// be left out of a report made with `-c cudaProfilerApi`, the ones between kept.
//   capture_range EXPECTATIONS.json
#include "gpu_common.h"

#include <cuda_profiler_api.h>

namespace {

__global__ void before_kernel(int* data)
{
    data[threadIdx.x] += 1;
}
__global__ void inside_kernel(int* data)
{
    data[threadIdx.x] += 2;
}
__global__ void after_kernel(int* data)
{
    data[threadIdx.x] += 3;
}

} // namespace

int main(int argc, char** argv)
{
    const char* expectations = expectationPath(argc, argv, 1);
    Expectations expect;
    int* data = nullptr;
    CUDA_CHECK(cudaMalloc(&data, 256 * sizeof(int)));
    for (int i = 0; i < 5; ++i)
        before_kernel<<<1, 256>>>(data);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaProfilerStart());
    for (int i = 0; i < 7; ++i)
        inside_kernel<<<1, 256>>>(data);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaProfilerStop());
    for (int i = 0; i < 5; ++i)
        after_kernel<<<1, 256>>>(data);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(data));
    // Only what ran between start and stop.
    expect.kernels("inside_kernel", 7);
    expect.write(expectations);
    std::printf("capture range: ok\n");
    return 0;
}
