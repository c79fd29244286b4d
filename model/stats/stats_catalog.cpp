#include "model/stats/stats_report.h"

#include <array>
#include <utility>

namespace sightline {
namespace {

constexpr std::array<StatsReportInfo, 8> kCatalog {{
    {StatsReportId::NvtxSum, "nvtx_sum", "NVTX Range Summary", "Instances", "Range", "NVTX range",
        StatsUnit::Nanoseconds},
    {StatsReportId::OsrtSum, "osrt_sum", "OS Runtime Summary", "Num Calls", "Name", "OS runtime",
        StatsUnit::Nanoseconds},
    {StatsReportId::CudaApiSum, "cuda_api_sum", "CUDA API Summary", "Num Calls", "Name", "CUDA API",
        StatsUnit::Nanoseconds},
    {StatsReportId::CudaGpuKernSum, "cuda_gpu_kern_sum", "CUDA GPU Kernel Summary", "Instances", "Name",
        "CUDA kernel", StatsUnit::Nanoseconds},
    {StatsReportId::CudaGpuMemTimeSum, "cuda_gpu_mem_time_sum", "CUDA GPU MemOps Summary (by Time)", "Count",
        "Operation", "GPU memory operation", StatsUnit::Nanoseconds},
    {StatsReportId::CudaGpuMemSizeSum, "cuda_gpu_mem_size_sum", "CUDA GPU MemOps Summary (by Size)", "Count",
        "Operation", "GPU memory operation", StatsUnit::Bytes},
    {StatsReportId::CpuSamplesSum, "cpu_samples_sum", "CPU Sampling Summary (by Function)", "Self Samples",
        "Function", "CPU sample", StatsUnit::Samples},
    {StatsReportId::CpuThreadSum, "cpu_thread_sum", "CPU Time Summary (by Thread)", "Intervals", "Thread",
        "thread state", StatsUnit::Nanoseconds},
}};

// Names older nsys versions used for the same reports.
constexpr std::array<std::pair<std::string_view, StatsReportId>, 7> kAliases {{
    {"nvtxsum", StatsReportId::NvtxSum},
    {"nvtxppsum", StatsReportId::NvtxSum},
    {"osrtsum", StatsReportId::OsrtSum},
    {"cudaapisum", StatsReportId::CudaApiSum},
    {"gpukernsum", StatsReportId::CudaGpuKernSum},
    {"gpumemtimesum", StatsReportId::CudaGpuMemTimeSum},
    {"gpumemsizesum", StatsReportId::CudaGpuMemSizeSum},
}};

} // namespace

int64_t StatsReport::total() const
{
    int64_t sum = 0;
    for (const StatsRow& row : rows)
        sum += row.values.total;
    return sum;
}

const StatsRow* StatsReport::find(std::string_view name, NvtxStyle style) const
{
    const bool styled = id == StatsReportId::NvtxSum;
    for (const StatsRow& row : rows)
        if (row.name == name && (!styled || row.style == style)) return &row;
    return nullptr;
}

std::span<const StatsReportInfo> statsReportCatalog()
{
    return kCatalog;
}

const StatsReportInfo& statsReportInfo(StatsReportId id)
{
    for (const StatsReportInfo& info : kCatalog)
        if (info.id == id) return info;
    return kCatalog.front(); // unreachable: every id is in the catalog
}

std::vector<std::string_view> statsReportNames()
{
    std::vector<std::string_view> names;
    for (const StatsReportInfo& info : kCatalog)
        names.push_back(info.name);
    return names;
}

Result<StatsReportId> findStatsReport(std::string_view name)
{
    for (const StatsReportInfo& info : kCatalog)
        if (info.name == name) return info.id;
    for (const auto& [alias, id] : kAliases)
        if (alias == name) return id;

    std::string valid;
    for (const StatsReportInfo& info : kCatalog) {
        if (!valid.empty()) valid += ", ";
        valid += info.name;
    }
    return Result<StatsReportId>::failure(
        "Unknown stats report '" + std::string(name) + "'; choose one or more of: " + valid + ".");
}

} // namespace sightline
