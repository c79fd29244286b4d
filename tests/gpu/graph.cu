// A CUDA graph captured from a stream (three dependent kernels) and launched many times: every
// node kernel must appear, carry its graph id, and correlate with its cudaGraphLaunch.
//   graph EXPECTATIONS.json
#include "gpu_common.h"

namespace {

__global__ void graph_scale(float* data, int count, float factor)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) data[i] *= factor;
}

__global__ void graph_offset(float* data, int count, float offset)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) data[i] += offset;
}

} // namespace

int main(int argc, char** argv)
{
    const char* expectations = expectationPath(argc, argv, 1);
    constexpr int kCount = 1 << 20;
    constexpr int kLaunches = 25;
    Expectations expect;
    float* data = nullptr;
    CUDA_CHECK(cudaMalloc(&data, kCount * sizeof(float)));
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

    cudaGraph_t graph;
    CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    graph_scale<<<kCount / 256, 256, 0, stream>>>(data, kCount, 2.0f);
    graph_offset<<<kCount / 256, 256, 0, stream>>>(data, kCount, 1.0f);
    graph_scale<<<kCount / 256, 256, 0, stream>>>(data, kCount, 0.5f);
    CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    cudaGraphExec_t exec;
    CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));

    nvtxRangePushA("graph launches");
    for (int i = 0; i < kLaunches; ++i)
        CUDA_CHECK(cudaGraphLaunch(exec, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    nvtxRangePop();
    expect.kernels("graph_scale", 2 * kLaunches);
    expect.kernels("graph_offset", kLaunches);
    expect.graphKernels(3 * kLaunches);
    expect.nvtx("graph launches", 1);

    CUDA_CHECK(cudaGraphExecDestroy(exec));
    CUDA_CHECK(cudaGraphDestroy(graph));
    CUDA_CHECK(cudaStreamDestroy(stream));
    CUDA_CHECK(cudaFree(data));
    expect.write(expectations);
    std::printf("graph: ok\n");
    return 0;
}
