// The generator's high level: one process of a PyTorch data-parallel training job, iteration
// after iteration, until its event budget is spent. Each iteration is a "train_step" NVTX
// range holding data loading (a loader thread prepares batches in start/end ranges that the
// main thread ends), forward (per layer ranges, cuBLAS and ATen kernels), backward on the
// autograd thread (NCCL all-reduce per gradient bucket on its own stream), the optimizer,
// and a loss.item() that waits for the GPU. When the budget runs out mid-iteration the
// open ranges are closed where the process stopped, as a collector stopped by Ctrl+C would.
#pragma once

#include "emitter.h"

#include <string>
#include <vector>

namespace sightline::gen {

// Stream roles inside one context; with fewer streams the roles share the last one.
enum class StreamRole : uint32_t { Compute = 0, Communication = 1, Copy = 2, Auxiliary = 3 };

struct DevicePlan
{
    DeviceId device;
    ContextId context;
    std::vector<StreamId> streams; // streams[0] is the default stream
};

struct ProcessPlan
{
    Pid pid;
    std::vector<Thread> threads; // [0] main, then autograd, loader, other workers
    std::vector<DevicePlan> devices; // the model's layers are spread over these in order
    uint32_t layers = 12;
    bool distributed = true; // several ranks: gradients are all-reduced with NCCL
    Timestamp startTime = 0;
    DomainId ncclDomain;
    DomainId loaderDomain;
};

// The stream id CUPTI gives a context's index-th stream: 7 for the default (legacy) stream,
// then 13, 14, ... for the streams the program creates.
constexpr StreamId streamIdAt(uint32_t index)
{
    return StreamId(index == 0 ? 7 : 12 + index);
}

// Emits the whole life of one process into the builder.
void runTrainingProcess(TraceBuilder& builder, const InternedCatalog& catalog, const ProcessPlan& plan,
    EventBudget& budget, Random& random);

} // namespace sightline::gen
