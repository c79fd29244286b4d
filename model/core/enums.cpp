#include "model/core/enums.h"

#include <array>

namespace sightline {
namespace {

template <class E, size_t N> std::string_view pick(const std::array<std::string_view, N>& names, E value)
{
    const auto i = static_cast<size_t>(value);
    return i < N ? names[i] : std::string_view("Unknown");
}

constexpr std::array<std::string_view, kCopyKindCount> kCopyLabels {"Unknown", "Host-to-Device",
    "Device-to-Host", "Host-to-Array", "Array-to-Host", "Array-to-Array", "Array-to-Device",
    "Device-to-Array", "Device-to-Device", "Host-to-Host", "Peer-to-Peer", "Unified Host-to-Device",
    "Unified Device-to-Host", "Unified Device-to-Device"};
constexpr std::array<std::string_view, kCopyKindCount> kCopyShort {"Unknown", "HtoD", "DtoH", "HtoA", "AtoH",
    "AtoA", "AtoD", "DtoA", "DtoD", "HtoH", "PtoP", "UvmHtoD", "UvmDtoH", "UvmDtoD"};
constexpr std::array<std::string_view, kCopyKindCount> kCopyNames {"CUDA_MEMCPY_KIND_UNKNOWN",
    "CUDA_MEMCPY_KIND_HTOD", "CUDA_MEMCPY_KIND_DTOH", "CUDA_MEMCPY_KIND_HTOA", "CUDA_MEMCPY_KIND_ATOH",
    "CUDA_MEMCPY_KIND_ATOA", "CUDA_MEMCPY_KIND_ATOD", "CUDA_MEMCPY_KIND_DTOA", "CUDA_MEMCPY_KIND_DTOD",
    "CUDA_MEMCPY_KIND_HTOH", "CUDA_MEMCPY_KIND_PTOP", "CUDA_MEMCPY_KIND_UVM_HTOD",
    "CUDA_MEMCPY_KIND_UVM_DTOH", "CUDA_MEMCPY_KIND_UVM_DTOD"};
constexpr std::array<std::string_view, kMemoryKindCount> kMemLabels {
    "Pageable", "Pinned", "Device", "Array", "Managed", "Device Static", "Managed Static", "Unknown"};
constexpr std::array<std::string_view, kMemoryKindCount> kMemNames {"CUDA_MEMOPR_MEMORY_KIND_PAGEABLE",
    "CUDA_MEMOPR_MEMORY_KIND_PINNED", "CUDA_MEMOPR_MEMORY_KIND_DEVICE", "CUDA_MEMOPR_MEMORY_KIND_ARRAY",
    "CUDA_MEMOPR_MEMORY_KIND_MANAGED", "CUDA_MEMOPR_MEMORY_KIND_DEVICE_STATIC",
    "CUDA_MEMOPR_MEMORY_KIND_MANAGED_STATIC", "CUDA_MEMOPR_MEMORY_KIND_UNKNOWN"};
constexpr std::array<std::string_view, kSyncTypeCount> kSyncLabels {
    "Unknown", "Event sync", "Stream wait sync", "Stream sync", "Context sync"};
constexpr std::array<std::string_view, kSyncTypeCount> kSyncNames {
    "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_UNKNOWN", "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE",
    "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT",
    "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE",
    "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE"};
constexpr std::array<std::string_view, kLaunchTypeCount> kLaunchLabels {
    "Regular", "Coop Single Device", "Coop Multi Device"};
constexpr std::array<std::string_view, kLaunchTypeCount> kLaunchNames {"CUDA_KERNEL_LAUNCH_TYPE_REGULAR",
    "CUDA_KERNEL_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE", "CUDA_KERNEL_LAUNCH_TYPE_COOPERATIVE_MULTI_DEVICE"};
constexpr std::array<std::string_view, 3> kNvtxStyles {"PushPop", "StartEnd", "Mark"};
constexpr std::array<std::string_view, 2> kApiClasses {"CUDA runtime", "CUDA driver"};

} // namespace

std::string_view label(CopyKind v)
{
    return pick(kCopyLabels, v);
}
std::string_view shortLabel(CopyKind v)
{
    return pick(kCopyShort, v);
}
std::string_view enumName(CopyKind v)
{
    return pick(kCopyNames, v);
}
std::string_view label(MemoryKind v)
{
    return pick(kMemLabels, v);
}
std::string_view enumName(MemoryKind v)
{
    return pick(kMemNames, v);
}
std::string_view label(SyncType v)
{
    return pick(kSyncLabels, v);
}
std::string_view enumName(SyncType v)
{
    return pick(kSyncNames, v);
}
std::string_view label(LaunchType v)
{
    return pick(kLaunchLabels, v);
}
std::string_view enumName(LaunchType v)
{
    return pick(kLaunchNames, v);
}
std::string_view label(NvtxStyle v)
{
    return pick(kNvtxStyles, v);
}
std::string_view label(ApiClass v)
{
    return pick(kApiClasses, v);
}

} // namespace sightline
