// The multi-stream tutorial program: a sum reduction of 64 Mi floats split over S streams
// (1, 4 or 8), each stream copying its slice in (pinned memory), reducing it in two kernel
// passes and copying the partial sum back, for several iterations inside NVTX ranges. Then
// spin kernels of a known length (default 10 ms) timed with CUDA events, for the duration check.
// The events also time the work tracing adds on the GPU around each kernel (tens of
// microseconds on the H200), so kernels much shorter than a millisecond cannot be compared
// with them at 5%.
//   reduction STREAMS EXPECTATIONS.json [SPIN_MICROSECONDS]
#include "gpu_common.h"

#include <cmath>

namespace {

constexpr int kElements = 1 << 26;
constexpr int kThreads = kBlockSumThreads;
constexpr int kIterations = 5;
constexpr int kTimedSpins = 20;

__global__ void reduce_pass1(const float* input, float* partial, int count)
{
    float sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x)
        sum += input[i];
    const float total = blockSum(sum);
    if (threadIdx.x == 0) partial[blockIdx.x] = total;
}

__global__ void reduce_pass2(const float* partial, float* result, int count)
{
    float sum = 0;
    for (int i = threadIdx.x; i < count; i += blockDim.x)
        sum += partial[i];
    const float total = blockSum(sum);
    if (threadIdx.x == 0) *result = total;
}

} // namespace

int main(int argc, char** argv)
{
    const int streams = argc > 1 ? std::atoi(argv[1]) : 1;
    const char* expectations = expectationPath(argc, argv, 2);
    const unsigned long long spinNs = (argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 10000ull) * 1000ull;
    if (streams < 1 || kElements % streams != 0) {
        std::fprintf(stderr, "STREAMS must divide %d\n", kElements);
        return 2;
    }
    Expectations expect;
    const int slice = kElements / streams;
    const int blocks = 1024;
    float* host = nullptr;
    float* results = nullptr;
    CUDA_CHECK(cudaMallocHost(&host, size_t(kElements) * sizeof(float)));
    CUDA_CHECK(cudaMallocHost(&results, size_t(streams) * sizeof(float)));
    for (int i = 0; i < kElements; ++i)
        host[i] = 1.0f;
    float *device = nullptr, *partial = nullptr, *deviceResults = nullptr;
    CUDA_CHECK(cudaMalloc(&device, size_t(kElements) * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&partial, size_t(streams) * blocks * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&deviceResults, size_t(streams) * sizeof(float)));
    std::vector<cudaStream_t> stream(streams);
    for (auto& s : stream)
        CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    nvtxRangePushA("reduction");
    for (int iteration = 0; iteration < kIterations; ++iteration) {
        nvtxRangePushA("iteration");
        for (int s = 0; s < streams; ++s) {
            float* in = device + size_t(s) * slice;
            CUDA_CHECK(cudaMemcpyAsync(in, host + size_t(s) * slice, size_t(slice) * sizeof(float),
                cudaMemcpyHostToDevice, stream[s]));
            reduce_pass1<<<blocks, kThreads, 0, stream[s]>>>(in, partial + s * blocks, slice);
            reduce_pass2<<<1, kThreads, 0, stream[s]>>>(partial + s * blocks, deviceResults + s, blocks);
            CUDA_CHECK(cudaMemcpyAsync(
                results + s, deviceResults + s, sizeof(float), cudaMemcpyDeviceToHost, stream[s]));
            expect.copy("HtoD", "pinned", (long long)slice * sizeof(float));
            expect.copy("DtoH", "pinned", sizeof(float));
        }
        for (auto& s : stream)
            CUDA_CHECK(cudaStreamSynchronize(s));
        nvtxRangePop();
        double total = 0;
        for (int s = 0; s < streams; ++s)
            total += results[s];
        if (std::fabs(total - kElements) > 1) {
            std::fprintf(stderr, "wrong sum %f\n", total);
            return 1;
        }
    }
    nvtxRangePop();
    expect.kernels("reduce_pass1", kIterations * streams);
    expect.kernels("reduce_pass2", kIterations * streams);
    expect.nvtx("reduction", 1);
    expect.nvtx("iteration", kIterations);

    // Kernels of a known length, each between two CUDA events on its own stream.
    cudaEvent_t before, after;
    CUDA_CHECK(cudaEventCreate(&before));
    CUDA_CHECK(cudaEventCreate(&after));
    for (int i = 0; i < kTimedSpins; ++i) {
        CUDA_CHECK(cudaEventRecord(before, stream[0]));
        spin_kernel<<<1, 1, 0, stream[0]>>>(spinNs);
        CUDA_CHECK(cudaEventRecord(after, stream[0]));
        CUDA_CHECK(cudaEventSynchronize(after));
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, before, after));
        expect.timed("spin_kernel", ms);
    }
    expect.kernels("spin_kernel", kTimedSpins);
    expect.value("streams", streams);

    for (auto& s : stream)
        CUDA_CHECK(cudaStreamDestroy(s));
    CUDA_CHECK(cudaFree(device));
    CUDA_CHECK(cudaFree(partial));
    CUDA_CHECK(cudaFree(deviceResults));
    CUDA_CHECK(cudaFreeHost(host));
    CUDA_CHECK(cudaFreeHost(results));
    expect.write(expectations);
    std::printf("reduction with %d stream(s): ok\n", streams);
    return 0;
}
