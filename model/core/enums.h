// Enumerations with the numeric values Nsight Systems uses in its SQLite export
// (ENUM_CUDA_MEMCPY_OPER, ENUM_CUDA_MEM_KIND, ENUM_CUPTI_SYNC_TYPE), so importers and exporters
// convert by cast; names and labels are nsys' own. One exception: LaunchType follows CUPTI
// (Regular = 0) where nsys' ENUM_CUDA_KERNEL_LAUNCH_TYPE adds Unknown = 0 (see model/export).
#pragma once

#include <cstdint>
#include <string_view>

namespace sightline {

enum class CopyKind : uint8_t {
    Unknown = 0,
    HtoD = 1,
    DtoH = 2,
    HtoA = 3,
    AtoH = 4,
    AtoA = 5,
    AtoD = 6,
    DtoA = 7,
    DtoD = 8,
    HtoH = 9,
    PtoP = 10,
    UvmHtoD = 11,
    UvmDtoH = 12,
    UvmDtoD = 13,
};
constexpr int kCopyKindCount = 14;

enum class MemoryKind : uint8_t {
    Pageable = 0,
    Pinned = 1,
    Device = 2,
    Array = 3,
    Managed = 4,
    DeviceStatic = 5,
    ManagedStatic = 6,
    Unknown = 7,
};
constexpr int kMemoryKindCount = 8;

enum class SyncType : uint8_t {
    Unknown = 0,
    EventSynchronize = 1,
    StreamWaitEvent = 2,
    StreamSynchronize = 3,
    ContextSynchronize = 4,
};
constexpr int kSyncTypeCount = 5;

enum class LaunchType : uint8_t { Regular = 0, CooperativeSingleDevice = 1, CooperativeMultiDevice = 2 };
constexpr int kLaunchTypeCount = 3;

enum class ApiClass : uint8_t { Runtime = 0, Driver = 1 };

enum class NvtxStyle : uint8_t { PushPop = 0, StartEnd = 1, Mark = 2 };

enum class PayloadType : uint8_t {
    None = 0,
    UInt64 = 1,
    Int64 = 2,
    Double = 3,
    UInt32 = 4,
    Int32 = 5,
    Float = 6
};

enum class MemoryOpKind : uint8_t { Memcpy = 0, Memset = 1 };

std::string_view label(CopyKind); // "Host-to-Device"
std::string_view shortLabel(CopyKind); // "HtoD"
std::string_view enumName(CopyKind); // "CUDA_MEMCPY_KIND_HTOD"
std::string_view label(MemoryKind); // "Pageable"
std::string_view enumName(MemoryKind); // "CUDA_MEMOPR_MEMORY_KIND_PAGEABLE"
std::string_view label(SyncType); // "Stream sync"
std::string_view enumName(SyncType); // "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE"
std::string_view label(LaunchType); // "Regular"
std::string_view enumName(LaunchType);
std::string_view label(NvtxStyle); // "PushPop"
std::string_view label(ApiClass); // "CUDA runtime"

} // namespace sightline
