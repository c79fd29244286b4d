#include "views/timeline/frame/event_style.h"

#include "model/trace/event_access.h"

#include <QPalette>
#include <algorithm>

namespace sightline::views {
namespace {

constexpr QRgb kKernelShades[] = {qRgb(0x3b, 0x7d, 0xd8), qRgb(0x4f, 0x93, 0xe3), qRgb(0x2c, 0x69, 0xb8),
    qRgb(0x62, 0xa0, 0xe6), qRgb(0x35, 0x74, 0xc6), qRgb(0x46, 0x88, 0xcf)};
constexpr QRgb kHtoD = qRgb(0x3f, 0xa3, 0x4d);
constexpr QRgb kDtoH = qRgb(0xd1, 0x49, 0x5b);
constexpr QRgb kDtoD = qRgb(0xe8, 0xa3, 0x3d);
constexpr QRgb kPeer = qRgb(0xa0, 0x63, 0x2a);
constexpr QRgb kOtherCopy = qRgb(0x8c, 0x8c, 0x8c);
constexpr QRgb kMemset = qRgb(0xc4, 0x5a, 0xb3);
constexpr QRgb kSync = qRgb(0xa9, 0xb1, 0xba);
constexpr QRgb kRuntimeApi = qRgb(0xd6, 0xb3, 0x4f);
constexpr QRgb kDriverApi = qRgb(0xb8, 0x8e, 0x3a);
constexpr QRgb kOsRuntime = qRgb(0x9d, 0x8b, 0xd0);
constexpr QRgb kThreadStates[kThreadStateCount] = {
    qRgb(0x2e, 0xa0, 0x43), // Running
    qRgb(0xc9, 0xd4, 0x3c), // Runnable
    qRgb(0x8c, 0xb9, 0xe3), // Sleeping
    qRgb(0xd9, 0x3f, 0x35), // Blocked
    qRgb(0x8a, 0x5c, 0xcf), // Waiting on I/O
    qRgb(0xc4, 0xc4, 0xc4), // Waiting
};
constexpr QRgb kSampleTick = qRgb(0x6a, 0x6a, 0x6a);
constexpr QRgb kSampleTickOnDark = qRgb(0xa8, 0xa8, 0xa8);
constexpr QRgb kHighlightedSample = qRgb(0xf0, 0x1d, 0xc8);
constexpr QRgb kNvtxPastels[]
    = {qRgb(0x8d, 0xc8, 0x7a), qRgb(0xf2, 0xb2, 0x6b), qRgb(0x7f, 0xb8, 0xe0), qRgb(0xe5, 0x8f, 0x9a),
        qRgb(0xb5, 0x9d, 0xe0), qRgb(0x6f, 0xc9, 0xbd), qRgb(0xe0, 0xd0, 0x6a), qRgb(0xc2, 0xa8, 0x8b)};

uint32_t mix(uint32_t v)
{
    v ^= v >> 16;
    v *= 0x7feb352dU;
    v ^= v >> 15;
    v *= 0x846ca68bU;
    v ^= v >> 16;
    return v;
}

QString fromUtf8(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

QString memoryLabel(const MemoryOp& op)
{
    if (op.kind == MemoryOpKind::Memset)
        return QStringLiteral("Memset (%1)").arg(fromUtf8(label(op.srcKind)));
    return QStringLiteral("Memcpy %1 (%2 \u2192 %3)")
        .arg(fromUtf8(shortLabel(op.copyKind)), fromUtf8(label(op.srcKind)), fromUtf8(label(op.dstKind)));
}

} // namespace

CanvasColors canvasColors(const QPalette& palette)
{
    CanvasColors colors;
    const QColor base = palette.color(QPalette::Base);
    colors.dark = base.lightness() < 128;
    colors.background = base.rgb();
    colors.alternateRow = (colors.dark ? base.lighter(112) : base.darker(104)).rgb();
    colors.groupRow = (colors.dark ? base.lighter(125) : base.darker(108)).rgb();
    QColor separator = palette.color(QPalette::Mid);
    separator.setAlpha(colors.dark ? 110 : 70);
    colors.separator = separator.rgba();
    colors.text = palette.color(QPalette::Text).rgb();
    colors.highlight = colors.dark ? qRgb(0x2e, 0xe6, 0xd6) : qRgb(0x00, 0x9e, 0x9a);
    QColor selection = palette.color(QPalette::Highlight);
    selection.setAlpha(colors.dark ? 40 : 32);
    colors.selectionFill = selection.rgba();
    colors.selectionEdge = palette.color(QPalette::Highlight).rgb();
    return colors;
}

EventStyle::EventStyle(const Trace& trace, bool dark)
    : m_trace(trace)
    , m_dark(dark)
{
    for (const MemoryOp& op : trace.memoryOps) {
        m_memoryColors.push_back(adjusted(memoryColor(op)));
        m_memoryLabels.push_back(memoryLabel(op));
    }
    for (const NvtxAttributes& attributes : trace.nvtxAttributes)
        m_nvtxColors.push_back(attributes.hasColor
                ? adjusted(qRgb(qRed(attributes.color), qGreen(attributes.color), qBlue(attributes.color)))
                : 0);
    for (const SyncOp& op : trace.syncOps)
        m_syncLabels.push_back(fromUtf8(syncOpName(op)));
}

QRgb EventStyle::adjusted(QRgb rgb) const
{
    if (!m_dark) return rgb;
    return QColor(rgb).darker(118).rgb();
}

QRgb EventStyle::memoryColor(const MemoryOp& op) const
{
    if (op.kind == MemoryOpKind::Memset) return kMemset;
    switch (op.copyKind) {
    case CopyKind::HtoD:
    case CopyKind::UvmHtoD:
    case CopyKind::HtoA:
        return kHtoD;
    case CopyKind::DtoH:
    case CopyKind::UvmDtoH:
    case CopyKind::AtoH:
        return kDtoH;
    case CopyKind::DtoD:
    case CopyKind::UvmDtoD:
    case CopyKind::AtoA:
    case CopyKind::AtoD:
    case CopyKind::DtoA:
        return kDtoD;
    case CopyKind::PtoP:
        return kPeer;
    default:
        return kOtherCopy;
    }
}

QRgb EventStyle::kernelColor(StringId name) const
{
    return adjusted(kKernelShades[mix(name.value) % std::size(kKernelShades)]);
}

QRgb EventStyle::color(const Track& track, uint32_t index) const
{
    switch (track.key.kind) {
    case TrackKind::Kernels:
        return kernelColor(track.events.name[index]);
    case TrackKind::Memory: {
        const uint32_t op = track.events.detail[index];
        return op < m_memoryColors.size() ? m_memoryColors[op] : adjusted(kOtherCopy);
    }
    case TrackKind::Synchronization:
        return adjusted(kSync);
    case TrackKind::CudaApi: {
        const uint32_t result = track.events.detail[index];
        const bool driver
            = result < m_trace.apiResults.size() && m_trace.apiResults[result].apiClass == ApiClass::Driver;
        return adjusted(driver ? kDriverApi : kRuntimeApi);
    }
    case TrackKind::OsRuntime:
        return adjusted(kOsRuntime);
    case TrackKind::Nvtx: {
        const uint32_t attributes = track.events.detail[index];
        if (attributes < m_nvtxColors.size() && m_nvtxColors[attributes] != 0)
            return m_nvtxColors[attributes];
        return adjusted(
            kNvtxPastels[mix(track.events.name[index].value + 0x9e37u) % std::size(kNvtxPastels)]);
    }
    }
    return adjusted(kOtherCopy);
}

QRgb EventStyle::textColorOn(QRgb fill)
{
    const double luminance = 0.299 * qRed(fill) + 0.587 * qGreen(fill) + 0.114 * qBlue(fill);
    return luminance > 150 ? qRgb(0x10, 0x10, 0x10) : qRgb(0xff, 0xff, 0xff);
}

const QString& EventStyle::stringLabel(StringId id) const
{
    auto [it, inserted] = m_stringLabels.try_emplace(id.value);
    if (inserted && m_trace.strings.contains(id)) it->second = fromUtf8(m_trace.strings[id]);
    return it->second;
}

const QString& EventStyle::label(const Track& track, uint32_t index) const
{
    static const QString kEmpty;
    const uint32_t detail
        = hasDetail(track.key.kind) && index < track.events.detail.size() ? track.events.detail[index] : 0;
    switch (track.key.kind) {
    case TrackKind::Kernels:
        if (detail < m_trace.kernelLaunches.size() && m_trace.kernelLaunches[detail].shortName.value != 0)
            return stringLabel(m_trace.kernelLaunches[detail].shortName);
        return stringLabel(track.events.name[index]);
    case TrackKind::Memory:
        return detail < m_memoryLabels.size() ? m_memoryLabels[detail] : kEmpty;
    case TrackKind::Synchronization:
        return detail < m_syncLabels.size() ? m_syncLabels[detail] : kEmpty;
    default:
        return stringLabel(track.events.name[index]);
    }
}

QString EventStyle::fullName(EventRef event) const
{
    const Track& track = m_trace.track(event.track);
    if (track.key.kind == TrackKind::Memory || track.key.kind == TrackKind::Synchronization)
        return label(track, event.index);
    return fromUtf8(m_trace.strings[track.events.name[event.index]]);
}

QRgb EventStyle::counterColor(const CounterSeries& series)
{
    if (series.name.starts_with("DRAM")) return qRgb(0xd9, 0x8c, 0x1f);
    if (series.name.starts_with("PCIe")) return qRgb(0x3d, 0x7e, 0xc7);
    if (series.name.starts_with("Tensor")) return qRgb(0x8e, 0x4f, 0xc9);
    switch (series.source) {
    case CounterSource::GpuMemory:
        return qRgb(0x1f, 0x8a, 0x8a);
    case CounterSource::CpuUtilization:
        return qRgb(0x55, 0x62, 0xc8);
    case CounterSource::Process:
        return qRgb(0xb8, 0x5c, 0x8a);
    case CounterSource::GpuMetrics:
        break;
    }
    return qRgb(0x3a, 0xa6, 0x5b);
}

QRgb EventStyle::threadStateColor(ThreadState state) const
{
    return adjusted(kThreadStates[std::min<size_t>(size_t(state), kThreadStateCount - 1)]);
}

QRgb EventStyle::sampleTickColor(bool highlighted) const
{
    if (highlighted) return kHighlightedSample;
    return m_dark ? kSampleTickOnDark : kSampleTick;
}

} // namespace sightline::views
