#include "model/import/chrome/kineto_mapping.h"

#include "model/core/event_kinds.h"

#include <bit>
#include <charconv>
#include <cmath>

namespace sightline {
namespace {

struct CategoryEntry
{
    std::string_view name;
    KinetoKind kind;
    std::string_view current = {}; // today's name of an older spelling
};

// The categories Sightline's Chrome export writes, as the table of event kinds names them.
constexpr std::string_view category(TrackKind kind)
{
    return eventKind(kind).chromeCategory;
}
constexpr std::string_view variant(TrackKind kind)
{
    return eventKind(kind).chromeCategoryVariant;
}

constexpr CategoryEntry kCategories[] = {
    {category(TrackKind::Kernels), KinetoKind::Kernel},
    {category(TrackKind::Memory), KinetoKind::Memcpy},
    {variant(TrackKind::Memory), KinetoKind::Memset},
    {category(TrackKind::CudaApi), KinetoKind::RuntimeCall},
    {variant(TrackKind::CudaApi), KinetoKind::DriverCall},
    {category(TrackKind::Synchronization), KinetoKind::Sync},
    {"cpu_op", KinetoKind::HostRange},
    {"user_annotation", KinetoKind::HostRange},
    {"python_function", KinetoKind::HostRange},
    {"cpu_instant_event", KinetoKind::HostRange},
    {"gpu_user_annotation", KinetoKind::GpuRange},
    {"ac2g", KinetoKind::Flow},
    // PyTorch 1.8-1.10 (early Kineto) spellings.
    {"Kernel", KinetoKind::Kernel, category(TrackKind::Kernels)},
    {"Memcpy", KinetoKind::Memcpy, category(TrackKind::Memory)},
    {"Memset", KinetoKind::Memset, variant(TrackKind::Memory)},
    {"Runtime", KinetoKind::RuntimeCall, category(TrackKind::CudaApi)},
    {"Operator", KinetoKind::HostRange, "cpu_op"},
    // Sightline's JSON exporter.
    {category(TrackKind::Nvtx), KinetoKind::Nvtx},
    {category(TrackKind::OsRuntime), KinetoKind::OsRuntime},
    // The profiler's own bookkeeping.
    {"Trace", KinetoKind::Ignored},
    {"overhead", KinetoKind::Ignored},
    {"fwdbwd", KinetoKind::Ignored},
};

char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
}

bool equalNoCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

std::string_view trim(std::string_view text)
{
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ')
        text.remove_suffix(1);
    return text;
}

} // namespace

KinetoKind kindOfCategory(std::string_view category)
{
    for (const CategoryEntry& entry : kCategories)
        if (entry.name == category) return entry.kind;
    return KinetoKind::Unknown;
}

std::string_view currentCategoryName(std::string_view category)
{
    for (const CategoryEntry& entry : kCategories)
        if (entry.name == category && !entry.current.empty()) return entry.current;
    return category;
}

bool isLaunchFlow(std::string_view category, std::string_view name)
{
    return kindOfCategory(category) == KinetoKind::Flow || (category == "async" && name == "launch");
}

std::optional<MemoryKind> memoryKindFromText(std::string_view text)
{
    text = trim(text);
    for (int i = 0; i < kMemoryKindCount; ++i)
        if (equalNoCase(text, label(MemoryKind(i)))) return MemoryKind(i);
    return std::nullopt;
}

std::optional<CopyKind> copyKindFromText(std::string_view text)
{
    text = trim(text);
    for (int i = 0; i < kCopyKindCount; ++i)
        if (equalNoCase(text, shortLabel(CopyKind(i))) || equalNoCase(text, label(CopyKind(i))))
            return CopyKind(i);
    return std::nullopt;
}

MemcpyDescription describeMemcpy(std::string_view name)
{
    MemcpyDescription d;
    // "Memcpy <kind> (<src> -> <dst>)"
    const size_t space = name.find(' ');
    if (space == std::string_view::npos) return d;
    std::string_view rest = name.substr(space + 1);
    const size_t open = rest.find('(');
    d.copyKind = copyKindFromText(rest.substr(0, open)).value_or(CopyKind::Unknown);
    if (open == std::string_view::npos) return d;
    std::string_view kinds = rest.substr(open + 1);
    if (const size_t close = kinds.rfind(')'); close != std::string_view::npos)
        kinds = kinds.substr(0, close);
    const size_t arrow = kinds.find("->");
    if (arrow == std::string_view::npos) return d;
    d.srcKind = memoryKindFromText(kinds.substr(0, arrow)).value_or(MemoryKind::Unknown);
    d.dstKind = memoryKindFromText(kinds.substr(arrow + 2)).value_or(MemoryKind::Unknown);
    return d;
}

MemoryKind describeMemset(std::string_view name)
{
    const size_t open = name.find('(');
    if (open == std::string_view::npos) return MemoryKind::Unknown;
    std::string_view kind = name.substr(open + 1);
    if (const size_t close = kind.find(')'); close != std::string_view::npos) kind = kind.substr(0, close);
    return memoryKindFromText(kind).value_or(MemoryKind::Unknown);
}

SyncType syncTypeFromText(std::string_view text)
{
    text = trim(text);
    if (equalNoCase(text, "Stream Sync")) return SyncType::StreamSynchronize;
    if (equalNoCase(text, "Event Sync")) return SyncType::EventSynchronize;
    if (equalNoCase(text, "Context Sync")) return SyncType::ContextSynchronize;
    if (equalNoCase(text, "Stream Wait Event")) return SyncType::StreamWaitEvent;
    for (int i = 0; i < kSyncTypeCount; ++i)
        if (equalNoCase(text, label(SyncType(i)))) return SyncType(i);
    return SyncType::Unknown;
}

LaunchType launchTypeFromText(std::string_view text)
{
    for (int i = 0; i < kLaunchTypeCount; ++i)
        if (equalNoCase(trim(text), label(LaunchType(i)))) return LaunchType(i);
    return LaunchType::Regular;
}

std::optional<uint32_t> colorFromText(std::string_view text)
{
    text = trim(text);
    bool opaque = false;
    if (text.starts_with("0x") || text.starts_with("0X")) {
        text.remove_prefix(2);
    } else if (text.starts_with('#')) {
        text.remove_prefix(1);
        opaque = text.size() == 6;
    } else {
        return std::nullopt;
    }
    if (text.empty() || text.size() > 8) return std::nullopt;
    uint32_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
    if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return opaque ? (value | 0xFF000000u) : value;
}

PayloadType payloadTypeFromText(std::string_view text)
{
    constexpr PayloadType kTypes[] = {PayloadType::UInt64, PayloadType::Int64, PayloadType::Double,
        PayloadType::UInt32, PayloadType::Int32, PayloadType::Float};
    constexpr std::string_view kNames[] = {"uint64", "int64", "double", "uint32", "int32", "float"};
    for (size_t i = 0; i < std::size(kTypes); ++i)
        if (text == kNames[i]) return kTypes[i];
    return PayloadType::None;
}

std::optional<uint64_t> payloadBitsFromText(PayloadType type, std::string_view text)
{
    const char* begin = text.data();
    const char* end = begin + text.size();
    switch (type) {
    case PayloadType::None:
        return std::nullopt;
    case PayloadType::UInt64:
    case PayloadType::UInt32: {
        uint64_t value = 0;
        if (std::from_chars(begin, end, value).ptr != end) return std::nullopt;
        return type == PayloadType::UInt32 ? uint64_t(uint32_t(value)) : value;
    }
    case PayloadType::Int64:
    case PayloadType::Int32: {
        int64_t value = 0;
        if (std::from_chars(begin, end, value).ptr != end) return std::nullopt;
        return type == PayloadType::Int32 ? uint64_t(std::bit_cast<uint32_t>(int32_t(value)))
                                          : uint64_t(value);
    }
    case PayloadType::Double:
    case PayloadType::Float: {
        double value = 0;
        if (std::from_chars(begin, end, value).ptr != end) return std::nullopt;
        if (type == PayloadType::Double) return std::bit_cast<uint64_t>(value);
        return uint64_t(std::bit_cast<uint32_t>(float(value)));
    }
    }
    return std::nullopt;
}

} // namespace sightline
