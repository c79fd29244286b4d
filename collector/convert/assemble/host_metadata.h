// Facts about the machine a recording was made on, gathered by the launcher after the target
// exits (never inside the target): host name, OS and kernel, CPU model and cores, and, when
// `nvidia-smi` is there, the driver and CUDA versions and each GPU's PCI bus id and memory
// clock (CUPTI's device records do not carry those).
#pragma once

#include "model/core/entities.h"
#include "model/core/metadata.h"

#include <string>
#include <vector>

namespace sightline::collector {

struct GpuFacts
{
    std::string uuid;
    std::string busId;
    uint32_t memoryClockKHz = 0;
};

struct HostFacts
{
    std::string hostname;
    std::string osName; // "Ubuntu 24.04.1 LTS (Linux 6.8.0-45-generic)"
    std::string cpuModel;
    uint32_t cpuCores = 0;
    std::string driverVersion;
    std::string cudaVersion; // the highest CUDA version the driver supports
    std::vector<GpuFacts> gpus;
};

// `queryGpus`: run nvidia-smi (skipped when the recording has no GPU).
HostFacts collectHostFacts(bool queryGpus);

// Fills what CUPTI did not give (bus id, memory clock) from nvidia-smi's answer, by UUID.
void completeGpus(std::vector<Gpu>& gpus, const std::vector<GpuFacts>& facts);

// "13.0.1" for cuptiGetVersion's 130001; "API 28" for the CUDA 12 numbering; "" for 0.
std::string cuptiVersionText(uint32_t version);

void applyHostFacts(const HostFacts& facts, ReportMetadata& metadata);

} // namespace sightline::collector
