// What a Chrome trace event means in Sightline's model: the category table (PyTorch profiler's
// current and older category names, plus the ones Sightline's own JSON exporter writes), and
// readers for the facts Kineto only spells out in text: memory-copy kinds in event names
// ("Memcpy HtoD (Pageable -> Device)"), synchronization kinds ("Stream Sync"), colours.
#pragma once

#include "model/core/enums.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace sightline {

enum class KinetoKind : uint8_t {
    Unknown, // a category the importer does not know: counted and skipped
    Ignored, // known and deliberately skipped (the profiler's own span, overhead, fwdbwd)
    Kernel,
    Memcpy,
    Memset,
    RuntimeCall,
    DriverCall,
    Sync,
    HostRange, // cpu_op, user_annotation, python_function...: NVTX-like ranges on a thread
    GpuRange, // gpu_user_annotation: ranges on a CUDA stream
    Nvtx, // Sightline's exporter: NVTX ranges and marks with their attributes
    OsRuntime, // Sightline's exporter: OS runtime calls
    Flow, // ac2g: API call -> GPU activity
};

KinetoKind kindOfCategory(std::string_view category);
// The name today's PyTorch profiler gives a category PyTorch 1.8-1.10 spelled otherwise
// ("Operator" -> "cpu_op"), so that both import alike (NVTX domains are named after it); any
// other category as it is.
std::string_view currentCategoryName(std::string_view category);
// Whether a flow event ("s", "t", "f") links a CUDA launch to its GPU activity: PyTorch's "ac2g",
// which PyTorch 1.8-1.9 wrote as category "async", name "launch".
bool isLaunchFlow(std::string_view category, std::string_view name);

// The memory kind of a label: "Pageable", "Pinned", "Device", "Managed", ... (any case).
std::optional<MemoryKind> memoryKindFromText(std::string_view text);
// "HtoD" or "Host-to-Device" (any case).
std::optional<CopyKind> copyKindFromText(std::string_view text);

struct MemcpyDescription
{
    CopyKind copyKind = CopyKind::Unknown;
    MemoryKind srcKind = MemoryKind::Unknown;
    MemoryKind dstKind = MemoryKind::Unknown;
};
// "Memcpy HtoD (Pageable -> Device)" -> HtoD, Pageable, Device; unknown parts stay Unknown.
MemcpyDescription describeMemcpy(std::string_view name);
// "Memset (Device)" -> Device.
MemoryKind describeMemset(std::string_view name);

// "Stream Sync", "Event Sync", "Context Sync", "Stream Wait Event", or the model's labels.
SyncType syncTypeFromText(std::string_view text);
LaunchType launchTypeFromText(std::string_view text);

// "0xAARRGGBB", "#AARRGGBB" or "#RRGGBB" (opaque).
std::optional<uint32_t> colorFromText(std::string_view text);

// "uint64", "int64", "double", "uint32", "int32", "float" -> the type; the payload's literal
// text -> its raw bits as the model stores them.
PayloadType payloadTypeFromText(std::string_view text);
std::optional<uint64_t> payloadBitsFromText(PayloadType type, std::string_view text);

} // namespace sightline
