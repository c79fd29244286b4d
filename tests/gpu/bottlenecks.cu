// Five small programs, each limited by one thing, for `sightline analyze`'s verdict on real
// captures (the Diagnosis issue's GPU checks). Each runs about a second:
//   bottlenecks pageable        the tutorial's v1: a sum reduction whose input is copied from
//                               pageable memory with cudaMemcpy (memory-transfer bound, pageable)
//   bottlenecks pinned-streams  the same from pinned memory in 4 streams (no pageable copies)
//   bottlenecks launch-bound    100k kernels of a few microseconds launched back to back
//   bottlenecks sync-bound      short kernels, each followed by cudaDeviceSynchronize
//   bottlenecks compute-bound   2 ms kernels queued back to back (the GPU busy throughout)
// Every mode runs inside the NVTX range "work".
#include "gpu_common.h"

#include <algorithm>
#include <cstring>

namespace {

constexpr int kElements = 1 << 26; // 256 MiB of floats
constexpr int kThreads = kBlockSumThreads;
constexpr int kBlocks = 1024;

__global__ void reduce_partial(const float* input, float* partial, int count)
{
    float sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x)
        sum += input[i];
    const float total = blockSum(sum);
    if (threadIdx.x == 0) partial[blockIdx.x] = total;
}

__global__ void tiny_kernel(float* value) { value[threadIdx.x] += 1.0f; }

void pageable()
{
    std::vector<float> host(kElements, 1.0f);
    std::vector<float> partial(kBlocks);
    float *input, *partialDevice;
    CUDA_CHECK(cudaMalloc(&input, sizeof(float) * kElements));
    CUDA_CHECK(cudaMalloc(&partialDevice, sizeof(float) * kBlocks));
    for (int iteration = 0; iteration < 6; ++iteration) {
        CUDA_CHECK(cudaMemcpy(input, host.data(), sizeof(float) * kElements, cudaMemcpyHostToDevice));
        reduce_partial<<<kBlocks, kThreads>>>(input, partialDevice, kElements);
        CUDA_CHECK(cudaMemcpy(partial.data(), partialDevice, sizeof(float) * kBlocks, cudaMemcpyDeviceToHost));
    }
    CUDA_CHECK(cudaFree(input));
    CUDA_CHECK(cudaFree(partialDevice));
}

void pinnedStreams()
{
    constexpr int kStreams = 4;
    constexpr int kSlice = kElements / kStreams;
    float *host, *partial, *input, *partialDevice;
    CUDA_CHECK(cudaMallocHost(&host, sizeof(float) * kElements));
    CUDA_CHECK(cudaMallocHost(&partial, sizeof(float) * kBlocks * kStreams));
    std::fill(host, host + kElements, 1.0f);
    CUDA_CHECK(cudaMalloc(&input, sizeof(float) * kElements));
    CUDA_CHECK(cudaMalloc(&partialDevice, sizeof(float) * kBlocks * kStreams));
    cudaStream_t streams[kStreams];
    for (cudaStream_t& s : streams)
        CUDA_CHECK(cudaStreamCreate(&s));
    for (int iteration = 0; iteration < 6; ++iteration) {
        for (int s = 0; s < kStreams; ++s) {
            const size_t offset = size_t(s) * kSlice;
            CUDA_CHECK(cudaMemcpyAsync(input + offset, host + offset, sizeof(float) * kSlice, cudaMemcpyHostToDevice,
                streams[s]));
            reduce_partial<<<kBlocks, kThreads, 0, streams[s]>>>(input + offset, partialDevice + s * kBlocks, kSlice);
            CUDA_CHECK(cudaMemcpyAsync(partial + s * kBlocks, partialDevice + s * kBlocks, sizeof(float) * kBlocks,
                cudaMemcpyDeviceToHost, streams[s]));
        }
        CUDA_CHECK(cudaDeviceSynchronize());
    }
    for (cudaStream_t s : streams)
        CUDA_CHECK(cudaStreamDestroy(s));
    CUDA_CHECK(cudaFreeHost(host));
    CUDA_CHECK(cudaFreeHost(partial));
    CUDA_CHECK(cudaFree(input));
    CUDA_CHECK(cudaFree(partialDevice));
}

void launchBound()
{
    float* value;
    CUDA_CHECK(cudaMalloc(&value, sizeof(float) * 32));
    for (int i = 0; i < 100000; ++i)
        tiny_kernel<<<1, 32>>>(value);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(value));
}

void syncBound()
{
    for (int i = 0; i < 20000; ++i) {
        spin_kernel<<<1, 1>>>(10'000);
        CUDA_CHECK(cudaDeviceSynchronize());
    }
}

void computeBound()
{
    for (int i = 0; i < 500; ++i)
        spin_kernel<<<132, 32>>>(2'000'000);
    CUDA_CHECK(cudaDeviceSynchronize());
}

} // namespace

int main(int argc, char** argv)
{
    const char* mode = argc > 1 ? argv[1] : "";
    void (*work)() = std::strcmp(mode, "pageable") == 0 ? pageable
        : std::strcmp(mode, "pinned-streams") == 0      ? pinnedStreams
        : std::strcmp(mode, "launch-bound") == 0        ? launchBound
        : std::strcmp(mode, "sync-bound") == 0          ? syncBound
        : std::strcmp(mode, "compute-bound") == 0       ? computeBound
                                                        : nullptr;
    if (!work) {
        std::fprintf(stderr, "usage: bottlenecks pageable|pinned-streams|launch-bound|sync-bound|compute-bound\n");
        return 2;
    }
    CUDA_CHECK(cudaFree(nullptr)); // the context, before the measured work
    nvtxRangePushA("work");
    work();
    nvtxRangePop();
    std::printf("bottlenecks %s: done\n", mode);
    return 0;
}
