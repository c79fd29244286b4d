// Pageable versus pinned host memory: the same 64 MiB copied host-to-device and back from a
// malloc'ed buffer and from a cudaMallocHost'ed one, plus a memset, so the report must tell
// the memory kinds apart (the tutorials' "why is this copy slow" example).
//   copies EXPECTATIONS.json
#include "gpu_common.h"

#include <cstring>

int main(int argc, char** argv)
{
    const char* expectations = expectationPath(argc, argv, 1);
    constexpr size_t kBytes = size_t(64) << 20;
    constexpr int kRepeats = 4;
    Expectations expect;
    void* pageable = std::malloc(kBytes);
    void* pinned = nullptr;
    void* device = nullptr;
    CUDA_CHECK(cudaMallocHost(&pinned, kBytes));
    CUDA_CHECK(cudaMalloc(&device, kBytes));
    std::memset(pageable, 1, kBytes);
    std::memset(pinned, 1, kBytes);

    nvtxRangePushA("pageable");
    for (int i = 0; i < kRepeats; ++i) {
        CUDA_CHECK(cudaMemcpy(device, pageable, kBytes, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(pageable, device, kBytes, cudaMemcpyDeviceToHost));
        expect.copy("HtoD", "pageable", kBytes);
        expect.copy("DtoH", "pageable", kBytes);
    }
    nvtxRangePop();
    nvtxRangePushA("pinned");
    for (int i = 0; i < kRepeats; ++i) {
        CUDA_CHECK(cudaMemcpy(device, pinned, kBytes, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(pinned, device, kBytes, cudaMemcpyDeviceToHost));
        expect.copy("HtoD", "pinned", kBytes);
        expect.copy("DtoH", "pinned", kBytes);
    }
    nvtxRangePop();
    CUDA_CHECK(cudaMemset(device, 0, kBytes));
    CUDA_CHECK(cudaDeviceSynchronize());
    expect.memsets(1);
    expect.nvtx("pageable", 1);
    expect.nvtx("pinned", 1);

    CUDA_CHECK(cudaFree(device));
    CUDA_CHECK(cudaFreeHost(pinned));
    std::free(pageable);
    expect.write(expectations);
    std::printf("copies: ok\n");
    return 0;
}
