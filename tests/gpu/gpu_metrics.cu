// Workload phases of known hardware behaviour, each inside its own NVTX range, for the GPU
// metrics (PM sampling) checks of check_gpu_metrics.py:
//   idle       50 ms of host sleep with nothing on the GPU      SMs Active ~0
//   fma        FP32 FMA chains over every SM, many blocks       SMs Active ~100, Tensor Active ~0
//   dram_copy  float4 device-to-device copy of 1 GiB            DRAM Bandwidth well above 50%
//   gemm       cuBLAS FP16 GEMM 8192^3 on the tensor cores      Tensor Active high
//   one_block  one block of 32 threads spinning                 SMs Active ~1/SM count
// Each busy phase lasts about 300 ms: one launch is timed first (outside the ranges) and the
// phase repeats it back to back, then synchronizes inside its range so the range covers the work.
// With --seconds N the program instead runs the FMA kernel back to back for N seconds inside one
// range "long" (the zero-loss check). Every cudaMalloc is counted ("allocated_bytes") and
// listed with its address and size ("allocation_K_address", "allocation_K_bytes") for the
// --cuda-memory-usage check; all buffers stay allocated until the end.
//   gpu_metrics EXPECTATIONS.json [--seconds N] [--settle-ms MS]
#include "gpu_common.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <thread>

#define CUBLAS_CHECK(call)                                                                                   \
    do {                                                                                                     \
        const cublasStatus_t status_ = (call);                                                               \
        if (status_ != CUBLAS_STATUS_SUCCESS) {                                                              \
            std::fprintf(stderr, "%s:%d: %s failed: status %d\n", __FILE__, __LINE__, #call, int(status_));  \
            std::exit(1);                                                                                    \
        }                                                                                                    \
    } while (0)

namespace {

constexpr int kThreads = 256;
constexpr double kPhaseMs = 300.0;
constexpr double kIdleMs = 50.0;
constexpr double kFmaLaunchMs = 10.0; // the FMA kernel is sized to about this
constexpr float kFmaMultiplier = 0.9999f, kFmaAddend = 1e-4f;
constexpr size_t kCopyBytes = size_t(1) << 30; // each of the copy's source and destination
constexpr int kGemmSize = 8192;
// Allocated after the cuBLAS handle is destroyed, and larger than any workspace cuBLAS keeps
// (32 MiB on Hopper): the peak of allocated bytes is then this program's own total, whatever
// cuBLAS allocated for itself while the handle lived.
constexpr size_t kHeadroomBytes = size_t(256) << 20;
constexpr size_t kGranule = size_t(2) << 20; // sizes rounded to 2 MiB: no rounding question

// Independent FMA chains per thread, so the FP32 pipes stay busy and memory is never touched
// inside the loop. The values converge to 1 (no overflow, no denormals). The multiplier and
// addend come as parameters (constant bank operands of FFMA) and the loop is unrolled by 4:
// with them as literals nvcc 13 put one HFMA2.MMA (a register move it issues to the tensor
// pipe) in the unrolled body, and Nsight Compute read the tensor pipe 5.2% active on an H200
// (211 M HFMA2.MMA beside 6.8 G FMA-pipe instructions); this way it has none.
__global__ void fma_kernel(float* out, int iterations, float m, float c)
{
    const int index = blockIdx.x * blockDim.x + threadIdx.x;
    float a0 = threadIdx.x * 1e-3f, a1 = a0 + 0.1f, a2 = a0 + 0.2f, a3 = a0 + 0.3f;
    float a4 = a0 + 0.4f, a5 = a0 + 0.5f, a6 = a0 + 0.6f, a7 = a0 + 0.7f;
#pragma unroll 4
    for (int i = 0; i < iterations; ++i) {
        a0 = fmaf(a0, m, c);
        a1 = fmaf(a1, m, c);
        a2 = fmaf(a2, m, c);
        a3 = fmaf(a3, m, c);
        a4 = fmaf(a4, m, c);
        a5 = fmaf(a5, m, c);
        a6 = fmaf(a6, m, c);
        a7 = fmaf(a7, m, c);
    }
    out[index] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}

__global__ void copy_kernel(const float4* __restrict__ source, float4* __restrict__ target, size_t count)
{
    const size_t stride = size_t(gridDim.x) * blockDim.x;
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
        target[i] = source[i];
}

// Small values that vary with the index, so the GEMM multiplies real data.
__global__ void fill_half_kernel(__half* data, size_t count)
{
    const size_t stride = size_t(gridDim.x) * blockDim.x;
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
        data[i] = __float2half(float(int(i % 17) - 8) * 0.01f);
}

// Every device allocation of the program, counted and kept until release().
class DeviceMemory
{
public:
    template <class T> T* allocate(size_t bytes)
    {
        bytes = (bytes + kGranule - 1) / kGranule * kGranule;
        void* pointer = nullptr;
        CUDA_CHECK(cudaMalloc(&pointer, bytes));
        m_buffers.push_back(pointer);
        m_sizes.push_back(bytes);
        m_bytes += bytes;
        ++m_count;
        return static_cast<T*>(pointer);
    }
    long long bytes() const { return m_bytes; }
    // The allocations for the expectations: their count, total, and each one's address and size
    // (device addresses fit a double's 53 bits).
    void describe(Expectations& expect) const
    {
        expect.value("allocated_bytes", double(m_bytes));
        expect.value("allocations", m_count);
        for (size_t k = 0; k < m_buffers.size(); ++k) {
            expect.value("allocation_" + std::to_string(k) + "_address", double(uintptr_t(m_buffers[k])));
            expect.value("allocation_" + std::to_string(k) + "_bytes", double(m_sizes[k]));
        }
    }
    int count() const { return m_count; } // allocations made, released ones included
    void release()
    {
        for (void* pointer : m_buffers)
            CUDA_CHECK(cudaFree(pointer));
        m_buffers.clear();
        m_sizes.clear();
    }

private:
    std::vector<void*> m_buffers;
    std::vector<size_t> m_sizes;
    long long m_bytes = 0;
    int m_count = 0;
};

// Milliseconds one call of `launch` takes on the GPU (the second of two, the first warms up).
template <class Launch> float timeLaunch(Launch launch)
{
    cudaEvent_t before, after;
    CUDA_CHECK(cudaEventCreate(&before));
    CUDA_CHECK(cudaEventCreate(&after));
    float ms = 0;
    for (int round = 0; round < 2; ++round) {
        CUDA_CHECK(cudaEventRecord(before));
        launch();
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(after));
        CUDA_CHECK(cudaEventSynchronize(after));
        CUDA_CHECK(cudaEventElapsedTime(&ms, before, after));
    }
    CUDA_CHECK(cudaEventDestroy(before));
    CUDA_CHECK(cudaEventDestroy(after));
    return std::max(ms, 1e-3f);
}

double millisecondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// One phase: `launch` repeated back to back for about `milliseconds` inside the NVTX range
// `name`, synchronized before the range ends. Returns the launch count.
template <class Launch>
int runPhase(Expectations& expect, const char* name, double milliseconds, float launchMs, Launch launch)
{
    const int launches = std::max(1, int(std::ceil(milliseconds / launchMs)));
    const auto start = std::chrono::steady_clock::now();
    nvtxRangePushA(name);
    for (int i = 0; i < launches; ++i)
        launch();
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    nvtxRangePop();
    const double elapsed = millisecondsSince(start);
    expect.nvtx(name, 1);
    expect.value(std::string(name) + "_ms", elapsed);
    expect.value(std::string(name) + "_launches", launches);
    std::printf("%-10s %6d launch(es) of %8.3f ms, %8.1f ms in all\n", name, launches, launchMs, elapsed);
    return launches;
}

void usage(const char* program)
{
    std::fprintf(stderr, "usage: %s EXPECTATIONS.json [--seconds N] [--settle-ms MS]\n", program);
    std::exit(2);
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2 || argv[1][0] == '-') usage(argv[0]);
    const char* expectations = argv[1];
    double longSeconds = 0;
    double settleMs = 1000;
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--seconds") == 0 && i + 1 < argc)
            longSeconds = std::atof(argv[++i]);
        else if (std::strcmp(argv[i], "--settle-ms") == 0 && i + 1 < argc)
            settleMs = std::atof(argv[++i]);
        else
            usage(argv[0]);
    }

    Expectations expect;
    DeviceMemory memory;
    CUDA_CHECK(cudaSetDevice(0));
    CUDA_CHECK(cudaFree(nullptr)); // the context, before anything is timed
    cudaDeviceProp properties {};
    CUDA_CHECK(cudaGetDeviceProperties(&properties, 0));
    const int smCount = properties.multiProcessorCount;
    expect.value("sm_count", smCount);
    std::printf("device 0: %s, %d SMs\n", properties.name, smCount);

    // FMA: 4 blocks of 256 threads per SM, all resident at once, so every SM is busy until the
    // kernel ends; the chain length is set from a short run so one launch takes ~10 ms.
    const int fmaBlocks = 4 * smCount;
    float* fmaOut = memory.allocate<float>(size_t(fmaBlocks) * kThreads * sizeof(float));
    const float probeMs
        = timeLaunch([&] { fma_kernel<<<fmaBlocks, kThreads>>>(fmaOut, 1024, kFmaMultiplier, kFmaAddend); });
    const int fmaIterations = std::clamp(int(1024 * kFmaLaunchMs / probeMs), 1024, 1 << 26);
    const auto fma
        = [&] { fma_kernel<<<fmaBlocks, kThreads>>>(fmaOut, fmaIterations, kFmaMultiplier, kFmaAddend); };
    const float fmaMs = timeLaunch(fma);
    expect.value("fma_iterations", fmaIterations);
    expect.value("fma_blocks", fmaBlocks);

    if (longSeconds > 0) {
        std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(settleMs));
        const int launches = runPhase(expect, "long", longSeconds * 1000.0, fmaMs, fma);
        expect.kernels("fma_kernel", launches + 4);
        expect.value("seconds", longSeconds);
        memory.describe(expect);
        memory.release();
        expect.write(expectations);
        std::printf("gpu_metrics --seconds %g: ok\n", longSeconds);
        return 0;
    }

    // DRAM copy: 1 GiB to 1 GiB, float4 per thread, a full GPU of threads in a grid-stride loop.
    const size_t copyCount = kCopyBytes / sizeof(float4);
    float4* copySource = memory.allocate<float4>(kCopyBytes);
    float4* copyTarget = memory.allocate<float4>(kCopyBytes);
    CUDA_CHECK(cudaMemset(copySource, 1, kCopyBytes));
    CUDA_CHECK(cudaMemset(copyTarget, 0, kCopyBytes));
    const int copyBlocks = 8 * smCount;
    const auto copy = [&] { copy_kernel<<<copyBlocks, kThreads>>>(copySource, copyTarget, copyCount); };
    const float copyMs = timeLaunch(copy);
    expect.value("dram_copy_gb_per_s", 2.0 * double(kCopyBytes) / (copyMs * 1e-3) / 1e9);

    // GEMM: C = A * B, FP16 inputs and output, FP32 accumulation: cuBLAS picks tensor-core kernels.
    const size_t gemmElements = size_t(kGemmSize) * kGemmSize;
    __half* a = memory.allocate<__half>(gemmElements * sizeof(__half));
    __half* b = memory.allocate<__half>(gemmElements * sizeof(__half));
    __half* c = memory.allocate<__half>(gemmElements * sizeof(__half));
    fill_half_kernel<<<8 * smCount, kThreads>>>(a, gemmElements);
    fill_half_kernel<<<8 * smCount, kThreads>>>(b, gemmElements);
    CUDA_CHECK(cudaMemset(c, 0, gemmElements * sizeof(__half)));
    CUDA_CHECK(cudaGetLastError());
    size_t freeBefore = 0, freeAfter = 0, total = 0;
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemGetInfo(&freeBefore, &total));
    cublasHandle_t cublas = nullptr;
    CUBLAS_CHECK(cublasCreate(&cublas));
    const float alpha = 1.0f, beta = 0.0f;
    const auto gemm = [&] {
        CUBLAS_CHECK(cublasGemmEx(cublas, CUBLAS_OP_N, CUBLAS_OP_N, kGemmSize, kGemmSize, kGemmSize, &alpha,
            a, CUDA_R_16F, kGemmSize, b, CUDA_R_16F, kGemmSize, &beta, c, CUDA_R_16F, kGemmSize,
            CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    };
    const float gemmMs = timeLaunch(gemm);
    CUDA_CHECK(cudaMemGetInfo(&freeAfter, &total));
    // What cuBLAS took for itself (2 MiB granularity; for reading the memory check's output).
    expect.value("cublas_bytes_estimate", double(freeBefore) - double(freeAfter));
    expect.value("gemm_tflops", 2.0 * double(kGemmSize) * kGemmSize * kGemmSize / (gemmMs * 1e-3) / 1e12);

    const unsigned long long oneBlockNs = static_cast<unsigned long long>(kPhaseMs * 1e6);
    spin_kernel<<<1, 32>>>(1000); // loaded before its phase
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    // Away from the start of sampling (its first sample can span from enable to first trigger).
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(settleMs));

    const auto idleStart = std::chrono::steady_clock::now();
    nvtxRangePushA("idle");
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(kIdleMs));
    nvtxRangePop();
    expect.nvtx("idle", 1);
    expect.value("idle_ms", millisecondsSince(idleStart));

    const int fmaLaunches = runPhase(expect, "fma", kPhaseMs, fmaMs, fma);
    const int copyLaunches = runPhase(expect, "dram_copy", kPhaseMs, copyMs, copy);
    runPhase(expect, "gemm", kPhaseMs, gemmMs, gemm);
    runPhase(expect, "one_block", kPhaseMs, float(kPhaseMs), [&] { spin_kernel<<<1, 32>>>(oneBlockNs); });

    CUBLAS_CHECK(cublasDestroy(cublas));
    char* headroom = memory.allocate<char>(kHeadroomBytes);
    CUDA_CHECK(cudaMemset(headroom, 0, kHeadroomBytes));
    CUDA_CHECK(cudaDeviceSynchronize());

    expect.kernels("fma_kernel", fmaLaunches + 4);
    expect.kernels("copy_kernel", copyLaunches + 2);
    expect.kernels("fill_half_kernel", 2);
    expect.kernels("spin_kernel", 2);
    memory.describe(expect);
    memory.release();
    expect.write(expectations);
    std::printf("gpu_metrics: ok (%lld bytes allocated in %d buffers, copy %.0f GB/s, GEMM %.0f TFLOP/s)\n",
        memory.bytes(), memory.count(), 2.0 * double(kCopyBytes) / (copyMs * 1e-3) / 1e9,
        2.0 * double(kGemmSize) * kGemmSize * kGemmSize / (gemmMs * 1e-3) / 1e12);
    return 0;
}
