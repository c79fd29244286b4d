// Shared by the GPU test programs: error checking, a spin kernel of a known duration, and the
// expectation file each program writes (what it launched, copied and timed), which
// check_report.py compares with the report `sightline profile` made of the same run.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <map>
#include <nvtx3/nvToolsExt.h>
#include <string>
#include <vector>

#define CUDA_CHECK(call)                                                                                     \
    do {                                                                                                     \
        const cudaError_t status_ = (call);                                                                  \
        if (status_ != cudaSuccess) {                                                                        \
            std::fprintf(                                                                                    \
                stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(status_));   \
            std::exit(1);                                                                                    \
        }                                                                                                    \
    } while (0)

// Busy-waits on the GPU's global timer for about `nanoseconds`: a kernel whose length is known.
__global__ void spin_kernel(unsigned long long nanoseconds)
{
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < nanoseconds);
}

// The sum of `value` over the threads of a block (at most kBlockSumThreads of them, a power of
// two), valid in thread 0: the tree reduction the reduction programs end each block with.
constexpr int kBlockSumThreads = 256;
inline __device__ float blockSum(float value)
{
    __shared__ float sums[kBlockSumThreads];
    sums[threadIdx.x] = value;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) sums[threadIdx.x] += sums[threadIdx.x + stride];
        __syncthreads();
    }
    return sums[0];
}

// What a program did, written as JSON for the checker.
class Expectations
{
public:
    void kernels(const std::string& shortName, int launches) { m_kernels[shortName] += launches; }
    void nvtx(const std::string& name, int count) { m_nvtx[name] += count; }
    // A copy of `bytes`: kind "HtoD"/"DtoH", host memory "pageable"/"pinned".
    void copy(const std::string& kind, const std::string& host, long long bytes)
    {
        m_copies[kind + "/" + host] += 1;
        m_copyBytes[kind + "/" + host] += bytes;
    }
    void memsets(int count) { m_memsets += count; }
    void graphKernels(int count) { m_graphKernels += count; }
    // A kernel timed with CUDA events, in launch order (per name).
    void timed(const std::string& shortName, float milliseconds)
    {
        m_timed[shortName].push_back(milliseconds);
    }
    void value(const std::string& key, double v) { m_values[key] = v; }

    void write(const char* path) const
    {
        FILE* out = std::fopen(path, "w");
        if (!out) {
            std::perror(path);
            std::exit(1);
        }
        std::fprintf(out, "{\n");
        writeMap(out, "kernels", m_kernels);
        writeMap(out, "nvtx", m_nvtx);
        writeMap(out, "copies", m_copies);
        writeMap(out, "copy_bytes", m_copyBytes);
        std::fprintf(out, "  \"memsets\": %d,\n  \"graph_kernels\": %d,\n  \"timed_ms\": {", m_memsets,
            m_graphKernels);
        const char* separator = "";
        for (const auto& [name, times] : m_timed) {
            std::fprintf(out, "%s\"%s\": [", separator, name.c_str());
            for (size_t i = 0; i < times.size(); ++i)
                std::fprintf(out, "%s%.6f", i ? ", " : "", times[i]);
            std::fprintf(out, "]");
            separator = ", ";
        }
        std::fprintf(out, "},\n  \"values\": {");
        separator = "";
        for (const auto& [key, v] : m_values) {
            std::fprintf(out, "%s\"%s\": %.6f", separator, key.c_str(), v);
            separator = ", ";
        }
        std::fprintf(out, "}\n}\n");
        std::fclose(out);
    }

private:
    template <class T> static void writeMap(FILE* out, const char* key, const std::map<std::string, T>& map)
    {
        std::fprintf(out, "  \"%s\": {", key);
        const char* separator = "";
        for (const auto& [name, count] : map) {
            std::fprintf(out, "%s\"%s\": %lld", separator, name.c_str(), static_cast<long long>(count));
            separator = ", ";
        }
        std::fprintf(out, "},\n");
    }

    std::map<std::string, int> m_kernels, m_nvtx, m_copies;
    std::map<std::string, long long> m_copyBytes;
    int m_memsets = 0;
    int m_graphKernels = 0;
    std::map<std::string, std::vector<float>> m_timed;
    std::map<std::string, double> m_values;
};

inline const char* expectationPath(int argc, char** argv, int index)
{
    if (argc <= index) {
        std::fprintf(stderr, "usage: %s ... EXPECTATIONS.json\n", argv[0]);
        std::exit(2);
    }
    return argv[index];
}
