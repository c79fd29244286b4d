// The GPU metrics sampler (sightline-gpu-sampler, collector/sampler) as `sightline profile`
// runs it: started before the target with the spool folder to write into, awaited until it
// says every device is sampling (or why one cannot), and stopped after the target exits by
// closing its standard input. It samples device-wide, so one sampler covers every process of
// the target, torchrun ranks included.
#pragma once

#include "collector/launcher/profile_options.h"
#include "model/common/result.h"

#include <string>
#include <sys/types.h>

namespace sightline::collector {

// The sampler beside the running executable, or SIGHTLINE_GPU_SAMPLER.
Result<std::string> findGpuSampler();

class GpuSamplerProcess
{
public:
    GpuSamplerProcess() = default;
    ~GpuSamplerProcess();
    GpuSamplerProcess(const GpuSamplerProcess&) = delete;
    GpuSamplerProcess& operator=(const GpuSamplerProcess&) = delete;

    // Starts sampling as `options` ask, into `spoolDir`; returns once it is ready.
    Status start(const ProfileOptions& options, const std::string& spoolDir, const std::string& cuptiLibrary);
    // Stops it and waits for its last samples to be written.
    void stop();

private:
    pid_t m_pid = -1;
    int m_input = -1; // its standard input: closing it tells it to stop
};

// `sightline profile --gpu-metrics-set=help`: the sampler lists the sets and the GPUs here.
int listGpuMetricSets(const std::string& cuptiLibrary);

} // namespace sightline::collector
