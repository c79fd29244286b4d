// Work submitted straight through the driver API, as Triton, JAX and other driver-level
// launchers do: cuLaunchKernel, cuMemcpyHtoDAsync/DtoHAsync and cuMemsetD32Async on a driver
// stream, with no runtime call around them. Every GPU operation must still have its launching
// (driver) API call, and the kernel count must equal the launches.
//   driver_launch EXPECTATIONS.json
#include "gpu_common.h"

#include <cuda.h>

#define CU_CHECK(call)                                                                                       \
    do {                                                                                                     \
        const CUresult status_ = (call);                                                                     \
        if (status_ != CUDA_SUCCESS) {                                                                       \
            std::fprintf(stderr, "%s:%d: %s failed: error %d\n", __FILE__, __LINE__, #call, int(status_));  \
            std::exit(1);                                                                                    \
        }                                                                                                    \
    } while (0)

namespace {

__global__ void driver_axpy(float* y, const float* x, float a, int count)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) y[i] += a * x[i];
}

} // namespace

int main(int argc, char** argv)
{
    const char* expectations = expectationPath(argc, argv, 1);
    constexpr int kCount = 1 << 18;
    constexpr size_t kBytes = kCount * sizeof(float);
    constexpr int kLaunches = 50;
    constexpr int kCopies = 5;
    Expectations expect;

    CUDA_CHECK(cudaFree(nullptr)); // the primary context, current on this thread
    cudaFunction_t function = nullptr;
    CUDA_CHECK(cudaGetFuncBySymbol(&function, reinterpret_cast<const void*>(driver_axpy)));
    const auto kernel = reinterpret_cast<CUfunction>(function);

    CUdeviceptr x = 0, y = 0;
    CU_CHECK(cuMemAlloc(&x, kBytes));
    CU_CHECK(cuMemAlloc(&y, kBytes));
    CUstream stream = nullptr;
    CU_CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    std::vector<float> host(kCount, 1.0f);

    nvtxRangePushA("driver work");
    for (int i = 0; i < kCopies; ++i) {
        CU_CHECK(cuMemsetD32Async(y, 0, kCount, stream));
        CU_CHECK(cuMemcpyHtoDAsync(x, host.data(), kBytes, stream));
        expect.copy("HtoD", "pageable", kBytes);
    }
    float a = 2.0f;
    int count = kCount;
    void* arguments[] = {&y, &x, &a, &count};
    for (int i = 0; i < kLaunches; ++i)
        CU_CHECK(cuLaunchKernel(kernel, kCount / 256, 1, 1, 256, 1, 1, 0, stream, arguments, nullptr));
    for (int i = 0; i < kCopies; ++i) {
        CU_CHECK(cuMemcpyDtoHAsync(host.data(), y, kBytes, stream));
        expect.copy("DtoH", "pageable", kBytes);
    }
    CU_CHECK(cuStreamSynchronize(stream));
    nvtxRangePop();
    expect.kernels("driver_axpy", kLaunches);
    expect.memsets(kCopies);
    expect.nvtx("driver work", 1);

    CU_CHECK(cuStreamDestroy(stream));
    CU_CHECK(cuMemFree(x));
    CU_CHECK(cuMemFree(y));
    expect.write(expectations);
    std::printf("driver_launch: ok (y[0] = %g)\n", host[0]);
    return 0;
}
