#include "model/import/chrome/nsys2json_events.h"

#include "model/import/json/json_number.h"

namespace sightline {
namespace {

struct RowShape
{
    std::string_view category;
    std::string_view tidPrefix; // followed by the thread's or the stream's number
    KinetoKind kind;
};

constexpr RowShape kRows[] = {
    {"cuda_api", "CUDA API Thread ", KinetoKind::RuntimeCall},
    {"cuda", "Stream ", KinetoKind::Kernel},
    {"nvtx-kernel", "NVTX Kernel Thread ", KinetoKind::GpuRange},
    {"nvtx", "NVTX Thread ", KinetoKind::HostRange},
};

// The number that follows `prefix` in `text` ("82" in "Stream 82").
std::optional<int64_t> numberAfter(std::string_view text, std::string_view prefix)
{
    if (!text.starts_with(prefix)) return std::nullopt;
    const std::optional<uint64_t> value = integerFromString(text.substr(prefix.size()));
    if (!value || *value > UINT32_MAX) return std::nullopt;
    return int64_t(*value);
}

void setArg(KinetoEvent& e, IntArg arg, int64_t value)
{
    e.ints[size_t(arg)] = value;
    e.intMask |= 1u << unsigned(arg);
}

} // namespace

std::optional<KinetoKind> readNsys2jsonEvent(const KinetoEvent& e, KinetoEvent& out)
{
    if (e.hasPid || e.hasTid) return std::nullopt;
    const std::optional<int64_t> device = numberAfter(e.pidText, "Device ");
    if (!device) return std::nullopt;
    for (const RowShape& row : kRows) {
        if (e.category != row.category) continue;
        const std::optional<int64_t> number = numberAfter(e.tidText, row.tidPrefix);
        if (!number) return std::nullopt;
        out = e;
        out.hasPid = true;
        out.pid = *device;
        if (row.kind == KinetoKind::Kernel) {
            setArg(out, IntArg::Device, *device);
            setArg(out, IntArg::Stream, *number);
        } else if (row.kind == KinetoKind::GpuRange) {
            setArg(out, IntArg::Device, *device); // its stream is that of its first kernel
        } else {
            out.hasTid = true;
            out.tid = *number;
        }
        return row.kind;
    }
    return std::nullopt;
}

} // namespace sightline
