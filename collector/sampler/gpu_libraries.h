// The CUDA driver and CUPTI functions the GPU metrics sampler needs, loaded at run time
// (dlopen), so the sampler starts, and says why it cannot sample, where no driver is installed.
#pragma once

#include "model/common/result.h"

#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>
#include <string>

namespace sightline::sampler {

struct CudaDriver
{
    int (*init)(unsigned) = nullptr;
    int (*deviceCount)(int*) = nullptr;
    int (*deviceGet)(int*, int) = nullptr;
    int (*deviceName)(char*, int, int) = nullptr;
    int (*deviceUuid)(CUuuid*, int) = nullptr;
    int (*deviceAttribute)(int*, int, int) = nullptr;
    int (*primaryContextRetain)(CUcontext*, int) = nullptr;
    int (*contextSetCurrent)(CUcontext) = nullptr;

    // Loads libcuda.so.1 and initializes CUDA; the error says what is missing.
    Status load();
};

struct Cupti
{
    CUptiResult (*resultString)(CUptiResult, const char**) = nullptr;
    CUptiResult (*timestamp)(uint64_t*) = nullptr;
    CUptiResult (*profilerInitialize)(CUpti_Profiler_Initialize_Params*) = nullptr;
    CUptiResult (*deviceSupported)(CUpti_Profiler_DeviceSupported_Params*) = nullptr;
    CUptiResult (*chipName)(CUpti_Device_GetChipName_Params*) = nullptr;
    CUptiResult (*counterAvailability)(CUpti_PmSampling_GetCounterAvailability_Params*) = nullptr;
    CUptiResult (*hostInitialize)(CUpti_Profiler_Host_Initialize_Params*) = nullptr;
    CUptiResult (*hostDeinitialize)(CUpti_Profiler_Host_Deinitialize_Params*) = nullptr;
    CUptiResult (*hostAddMetrics)(CUpti_Profiler_Host_ConfigAddMetrics_Params*) = nullptr;
    CUptiResult (*hostConfigImageSize)(CUpti_Profiler_Host_GetConfigImageSize_Params*) = nullptr;
    CUptiResult (*hostConfigImage)(CUpti_Profiler_Host_GetConfigImage_Params*) = nullptr;
    CUptiResult (*hostPasses)(CUpti_Profiler_Host_GetNumOfPasses_Params*) = nullptr;
    CUptiResult (*hostEvaluate)(CUpti_Profiler_Host_EvaluateToGpuValues_Params*) = nullptr;
    CUptiResult (*enable)(CUpti_PmSampling_Enable_Params*) = nullptr;
    CUptiResult (*disable)(CUpti_PmSampling_Disable_Params*) = nullptr;
    CUptiResult (*setConfig)(CUpti_PmSampling_SetConfig_Params*) = nullptr;
    CUptiResult (*start)(CUpti_PmSampling_Start_Params*) = nullptr;
    CUptiResult (*stop)(CUpti_PmSampling_Stop_Params*) = nullptr;
    CUptiResult (*decode)(CUpti_PmSampling_DecodeData_Params*) = nullptr;
    CUptiResult (*counterDataSize)(CUpti_PmSampling_GetCounterDataSize_Params*) = nullptr;
    CUptiResult (*counterDataInitialize)(CUpti_PmSampling_CounterDataImage_Initialize_Params*) = nullptr;
    CUptiResult (*counterDataInfo)(CUpti_PmSampling_GetCounterDataInfo_Params*) = nullptr;
    CUptiResult (*sampleInfo)(CUpti_PmSampling_CounterData_GetSampleInfo_Params*) = nullptr;

    // Loads libcupti from `path` (empty: the usual sonames) and initializes its profiler.
    Status load(const std::string& path);
    // "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES" and the like.
    std::string name(CUptiResult result) const;
};

} // namespace sightline::sampler
