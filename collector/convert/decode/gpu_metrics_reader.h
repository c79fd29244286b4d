// Reads the GPU metrics files the sampler wrote into the spool folder
// (collector/spool/gpu_metrics_file.h). Every size is checked against the bytes present; a file
// cut short keeps its complete records and says so; a file that is not a metrics file, or whose
// records contradict each other, becomes a diagnostic, never a failure of the report.
#pragma once

#include "model/core/metadata.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sightline::collector {

// The source of the diagnostics the sampler and its files give, which `sightline profile`
// prints too.
inline constexpr const char* kGpuMetricsSource = "gpu metrics";

struct GpuMetricsCapture
{
    bool hasDevice = false;
    uint32_t ordinal = 0;
    std::string name, uuid, chip;
    struct Series
    {
        std::string name, unit, description;
        double resolution = 1;
    };
    std::vector<Series> series;
    std::vector<int64_t> starts, ends; // CLOCK_MONOTONIC ns, one per sample
    std::vector<std::vector<double>> values; // per series, one per sample
    std::vector<Diagnostic> diagnostics;
};

GpuMetricsCapture readGpuMetricsFile(const std::string& path);
// Every metrics file of a spool folder, in name order.
std::vector<GpuMetricsCapture> readGpuMetricsFiles(const std::string& spoolDir);

} // namespace sightline::collector
