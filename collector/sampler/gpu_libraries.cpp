#include "collector/sampler/gpu_libraries.h"

#include <dlfcn.h>

namespace sightline::sampler {

namespace {

// Binds every function of a table from one library; false names the first one missing.
class Binder
{
public:
    explicit Binder(void* library)
        : m_library(library)
    { }
    template <class Fn> void operator()(Fn& out, const char* name)
    {
        out = reinterpret_cast<Fn>(dlsym(m_library, name));
        if (!out && m_missing.empty()) m_missing = name;
    }
    const std::string& missing() const { return m_missing; }

private:
    void* m_library;
    std::string m_missing;
};

} // namespace

Status CudaDriver::load()
{
    void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library)
        return Status::failure("the NVIDIA driver library libcuda.so.1 could not be loaded; GPU metrics need "
                               "an NVIDIA GPU and its driver.");
    Binder bind(library);
    bind(init, "cuInit");
    bind(deviceCount, "cuDeviceGetCount");
    bind(deviceGet, "cuDeviceGet");
    bind(deviceName, "cuDeviceGetName");
    bind(deviceUuid, "cuDeviceGetUuid_v2");
    bind(deviceAttribute, "cuDeviceGetAttribute");
    bind(primaryContextRetain, "cuDevicePrimaryCtxRetain");
    bind(contextSetCurrent, "cuCtxSetCurrent");
    if (!bind.missing().empty())
        return Status::failure("the NVIDIA driver is too old for GPU metrics (libcuda.so.1 lacks "
            + bind.missing() + "); update the driver.");
    if (const int error = init(0); error != 0)
        return Status::failure("CUDA could not be initialized (error " + std::to_string(error)
            + "); check that the GPU is visible with nvidia-smi.");
    return {};
}

Status Cupti::load(const std::string& path)
{
    void* library = nullptr;
    for (const std::string& name : {path, std::string("libcupti.so.13"), std::string("libcupti.so")})
        if (!name.empty() && (library = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
    if (!library)
        return Status::failure("libcupti could not be loaded (tried " + (path.empty() ? "" : path + ", ")
            + "libcupti.so.13 and libcupti.so); install the CUDA toolkit's CUPTI or set CUDA_HOME.");
    Binder bind(library);
    bind(resultString, "cuptiGetResultString");
    bind(timestamp, "cuptiGetTimestamp");
    bind(profilerInitialize, "cuptiProfilerInitialize");
    bind(deviceSupported, "cuptiProfilerDeviceSupported");
    bind(chipName, "cuptiDeviceGetChipName");
    bind(counterAvailability, "cuptiPmSamplingGetCounterAvailability");
    bind(hostInitialize, "cuptiProfilerHostInitialize");
    bind(hostDeinitialize, "cuptiProfilerHostDeinitialize");
    bind(hostAddMetrics, "cuptiProfilerHostConfigAddMetrics");
    bind(hostConfigImageSize, "cuptiProfilerHostGetConfigImageSize");
    bind(hostConfigImage, "cuptiProfilerHostGetConfigImage");
    bind(hostPasses, "cuptiProfilerHostGetNumOfPasses");
    bind(hostEvaluate, "cuptiProfilerHostEvaluateToGpuValues");
    bind(enable, "cuptiPmSamplingEnable");
    bind(disable, "cuptiPmSamplingDisable");
    bind(setConfig, "cuptiPmSamplingSetConfig");
    bind(start, "cuptiPmSamplingStart");
    bind(stop, "cuptiPmSamplingStop");
    bind(decode, "cuptiPmSamplingDecodeData");
    bind(counterDataSize, "cuptiPmSamplingGetCounterDataSize");
    bind(counterDataInitialize, "cuptiPmSamplingCounterDataImageInitialize");
    bind(counterDataInfo, "cuptiPmSamplingGetCounterDataInfo");
    bind(sampleInfo, "cuptiPmSamplingCounterDataGetSampleInfo");
    if (!bind.missing().empty())
        return Status::failure("this CUPTI has no PM sampling (" + bind.missing()
            + " is missing); GPU metrics need CUDA 12.6 or newer.");
    CUpti_Profiler_Initialize_Params params {CUpti_Profiler_Initialize_Params_STRUCT_SIZE, nullptr};
    if (const CUptiResult result = profilerInitialize(&params); result != CUPTI_SUCCESS)
        return Status::failure("CUPTI's profiler could not be initialized (" + name(result) + ").");
    return {};
}

std::string Cupti::name(CUptiResult result) const
{
    const char* text = nullptr;
    if (resultString && resultString(result, &text) == CUPTI_SUCCESS && text) return text;
    return "CUPTI error " + std::to_string(int(result));
}

} // namespace sightline::sampler
