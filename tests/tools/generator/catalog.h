// What the synthetic generator knows about a PyTorch training job: the CUDA kernels it runs
// (names as CUPTI reports them, launch configurations, typical durations), the CUDA runtime and
// driver calls it makes, the OS runtime calls, and the NVTX colours. Pure data; the emitter
// interns it once per trace.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace sightline::gen {

enum class Kernel : uint8_t {
    LayerNorm,
    LayerNormBackward,
    LayerNormGammaBeta,
    GemmTn,
    GemmNn,
    GemmNt,
    GemmHopper,
    GemmBatched,
    Softmax,
    SoftmaxBackward,
    Dropout,
    DropoutBackward,
    Add,
    Gelu,
    GeluBackward,
    LogSoftmax,
    NllLoss,
    NllLossBackward,
    LogSoftmaxBackward,
    ReduceSum,
    FusedAdam,
    FillZero,
    DirectCopy,
    Lerp,
    NcclAllReduce,
    Count
};
constexpr int kKernelCount = int(Kernel::Count);
// Launch configurations per kernel: layer shapes differ, so each kernel comes in a few sizes.
constexpr uint32_t kKernelVariants = 3;

struct KernelSpec
{
    std::string_view demangled;
    std::string_view shortName;
    std::string_view mangled;
    std::array<uint32_t, 3> grid;
    std::array<uint32_t, 3> block;
    uint32_t registersPerThread;
    uint32_t staticSharedMemory;
    uint32_t dynamicSharedMemory;
    double medianNs; // typical duration of variant 0
    double spreadLog2; // log2 of the typical factor between runs
};

const KernelSpec& kernelSpec(Kernel kernel);

// The kernels of one transformer block and of the loss, in the order PyTorch launches them.
inline constexpr Kernel kAttentionForward[] = {Kernel::LayerNorm, Kernel::GemmTn, Kernel::GemmBatched,
    Kernel::Softmax, Kernel::Dropout, Kernel::GemmBatched, Kernel::GemmTn, Kernel::Add};
inline constexpr Kernel kMlpForward[]
    = {Kernel::LayerNorm, Kernel::GemmHopper, Kernel::Gelu, Kernel::GemmNn, Kernel::Dropout, Kernel::Add};
inline constexpr Kernel kLossForward[] = {Kernel::LogSoftmax, Kernel::NllLoss};
inline constexpr Kernel kLossBackward[] = {Kernel::NllLossBackward, Kernel::LogSoftmaxBackward};
inline constexpr Kernel kMlpBackward[]
    = {Kernel::Add, Kernel::DropoutBackward, Kernel::GemmNt, Kernel::GemmNn, Kernel::GeluBackward,
        Kernel::GemmNt, Kernel::GemmHopper, Kernel::LayerNormBackward, Kernel::LayerNormGammaBeta};
inline constexpr Kernel kAttentionBackward[] = {Kernel::GemmNt, Kernel::GemmNn, Kernel::DropoutBackward,
    Kernel::SoftmaxBackward, Kernel::GemmBatched, Kernel::GemmBatched, Kernel::GemmNt, Kernel::GemmNn,
    Kernel::LayerNormBackward, Kernel::LayerNormGammaBeta, Kernel::ReduceSum};

// CUDA API functions the generator calls. Runtime calls first, then driver calls.
enum class Api : uint8_t {
    LaunchKernel,
    MemcpyAsync,
    Memcpy,
    MemcpyPeerAsync,
    MemsetAsync,
    StreamSynchronize,
    EventRecord,
    StreamWaitEvent,
    EventSynchronize,
    EventQuery,
    Malloc,
    Free,
    StreamCreateWithPriority,
    EventCreateWithFlags,
    GetDevice,
    SetDevice,
    GetLastError,
    CuLaunchKernel,
    CuMemcpyAsync,
    CuMemcpyPeerAsync,
    CuMemsetD32Async,
    CuStreamSynchronize,
    CuEventRecord,
    CuStreamWaitEvent,
    CuEventSynchronize,
    CuMemAlloc,
    CuCtxCreate,
    Count
};
constexpr int kApiCount = int(Api::Count);

struct ApiSpec
{
    std::string_view name;
    bool driver; // a driver call (cu*), else runtime (cuda*)
    Api nestedDriver; // the driver call a runtime call makes inside, or Api::Count
    double medianNs; // typical duration when the call does not block
};

const ApiSpec& apiSpec(Api api);

enum class OsFunction : uint8_t { Read, Write, Poll, Ioctl, Nanosleep, MutexLock, SemWait, Count };
constexpr int kOsFunctionCount = int(OsFunction::Count);

std::string_view osFunctionName(OsFunction function);

// CUDA's error code for "not ready" (cudaEventQuery on an event still pending).
constexpr int32_t kCudaErrorNotReady = 600;

// ARGB colours, as nvtx users pick them.
namespace color {
constexpr uint32_t kGreen = 0xff76b900;
constexpr uint32_t kBlue = 0xff1f77b4;
constexpr uint32_t kOrange = 0xffff7f0e;
constexpr uint32_t kRed = 0xffd62728;
constexpr uint32_t kPurple = 0xff9467bd;
constexpr uint32_t kTeal = 0xff17becf;
constexpr uint32_t kGrey = 0xff7f7f7f;
constexpr uint32_t kYellow = 0xffbcbd22;
} // namespace color

} // namespace sightline::gen
