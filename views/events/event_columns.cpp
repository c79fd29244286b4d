#include "views/events/event_columns.h"

#include "model/text/text_format.h"
#include "model/text/time_text.h"
#include "views/common/stream_name.h"

#include <QLocale>
#include <algorithm>
#include <array>
#include <cmath>

namespace sightline::views {
namespace {

struct ColumnInfo
{
    const char* title;
    const char* csvTitle;
    bool numeric;
    bool largestFirst;
};

constexpr std::array<ColumnInfo, kEventColumnCount> kColumns {{
    {"Name", "Name", false, false},
    {"Start", "Start (ns)", true, false},
    {"Duration", "Duration (ns)", true, true},
    {"End", "End (ns)", true, false},
    {"Thread / Stream", "Thread / Stream", false, false},
    {"Device / Context", "Device / Context", false, false},
    {"Grid", "Grid", true, true},
    {"Block", "Block", true, true},
    {"Registers", "Registers per thread", true, true},
    {"Shared memory", "Shared memory (bytes)", true, true},
    {"Bytes", "Bytes", true, true},
    {"Throughput", "Throughput (bytes/s)", true, true},
    {"Copy kind", "Copy kind", false, false},
    {"Memory kinds", "Memory kinds", false, false},
    {"Correlation id", "Correlation id", true, false},
    {"Return value", "Return value", true, false},
    {"Domain", "Domain", false, false},
    {"Value", "Value", true, true},
}};

const ColumnInfo& info(EventColumn column)
{
    return kColumns[size_t(column)];
}

const QLocale& groupedLocale()
{
    static const QLocale locale(QLocale::English, QLocale::UnitedStates);
    return locale;
}

QString grouped(int64_t value)
{
    return groupedLocale().toString(qlonglong(value));
}

QString fromStd(const std::string& text)
{
    return QString::fromStdString(text);
}
QString fromView(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

QString dimensions(const std::array<uint32_t, 3>& d, bool display)
{
    if (display) return QStringLiteral("(%1, %2, %3)").arg(d[0]).arg(d[1]).arg(d[2]);
    return QStringLiteral("%1x%2x%3").arg(d[0]).arg(d[1]).arg(d[2]);
}

QString threadLabel(const Trace& trace, const TrackKey& key)
{
    const Thread* thread = trace.findThread(key.tid);
    if (thread && !thread->name.empty())
        return QStringLiteral("%1 [%2]").arg(fromStd(thread->name)).arg(key.tid.value);
    return QStringLiteral("Thread %1").arg(key.tid.value);
}

} // namespace

QString columnTitle(EventColumn column)
{
    return QString::fromLatin1(info(column).title);
}
QString csvColumnTitle(EventColumn column)
{
    return QString::fromLatin1(info(column).csvTitle);
}
bool isNumericColumn(EventColumn column)
{
    return info(column).numeric;
}
Qt::SortOrder firstClickOrder(EventColumn column)
{
    return info(column).largestFirst ? Qt::DescendingOrder : Qt::AscendingOrder;
}

bool columnApplies(EventColumn column, TrackKind kind)
{
    switch (column) {
    case EventColumn::Name:
    case EventColumn::Start:
    case EventColumn::Duration:
    case EventColumn::End:
    case EventColumn::ThreadOrStream:
        return true;
    case EventColumn::DeviceContext:
        return isGpuKind(kind);
    case EventColumn::Grid:
    case EventColumn::Block:
    case EventColumn::Registers:
    case EventColumn::SharedMemory:
        return kind == TrackKind::Kernels;
    case EventColumn::Bytes:
    case EventColumn::Throughput:
    case EventColumn::CopyKind:
    case EventColumn::MemoryKinds:
        return kind == TrackKind::Memory;
    case EventColumn::Correlation:
        return hasCorrelation(kind);
    case EventColumn::ReturnValue:
        return kind == TrackKind::CudaApi || kind == TrackKind::OsRuntime;
    case EventColumn::Domain:
        return kind == TrackKind::Nvtx;
    case EventColumn::Value:
    case EventColumn::Count:
        break;
    }
    return false;
}

bool columnAppliesToSamples(EventColumn column)
{
    return column == EventColumn::Name || column == EventColumn::Start || column == EventColumn::Duration
        || column == EventColumn::End || column == EventColumn::Value;
}

QVariant columnHeaderData(EventColumn column, int role)
{
    if (role == Qt::DisplayRole) return columnTitle(column);
    if (role == Qt::TextAlignmentRole)
        return int(Qt::AlignVCenter | (isNumericColumn(column) ? Qt::AlignRight : Qt::AlignLeft));
    if (role == Qt::ToolTipRole)
        return firstClickOrder(column) == Qt::DescendingOrder
            ? QStringLiteral("Click to sort, largest first; click again to reverse.")
            : QStringLiteral("Click to sort; click again to reverse.");
    return {};
}

QString trackKindLabel(TrackKind kind)
{
    switch (kind) {
    case TrackKind::CudaApi:
        return QStringLiteral("CUDA API");
    case TrackKind::Nvtx:
        return QStringLiteral("NVTX");
    case TrackKind::OsRuntime:
        return QStringLiteral("OS runtime");
    case TrackKind::Kernels:
        return QStringLiteral("Kernels");
    case TrackKind::Memory:
        return QStringLiteral("Memory");
    case TrackKind::Synchronization:
        return QStringLiteral("Synchronization");
    }
    return {};
}

QString EventCells::trackTitle(TrackId track) const
{
    QString text = trackKindLabel(m_trace.track(track).key.kind) + QStringLiteral(" \u00b7 ")
        + threadOrStreamLabel(track);
    if (!deviceContextLabel(track).isEmpty()) text += QStringLiteral(" (%1)").arg(deviceContextLabel(track));
    return text;
}

EventCells::EventCells(const Trace& trace)
    : m_trace(trace)
    , m_names(trace)
{
    m_threadOrStream.reserve(trace.tracks.size());
    m_deviceContext.reserve(trace.tracks.size());
    for (const Track& track : trace.tracks) {
        const TrackKey& key = track.key;
        const bool onGpu = onStream(key);
        m_threadOrStream.push_back(onGpu ? streamName(trace, key) : threadLabel(trace, key));
        m_deviceContext.push_back(onGpu
                ? QStringLiteral("GPU %1 / Context %2").arg(key.device.value).arg(key.context.value)
                : QString());
    }
}

const CounterSeries* EventCells::seriesOf(EventRef row) const
{
    const auto series = counterSeriesOf(m_trace, row);
    return series && *series < m_trace.counterSeries.size() ? &m_trace.counterSeries[*series] : nullptr;
}

std::optional<double> EventCells::sampleValue(EventRef row) const
{
    const CounterSeries* series = seriesOf(row);
    if (!series || row.index >= series->values.size() || std::isnan(series->values[row.index]))
        return std::nullopt;
    return series->values[row.index];
}

// At the series' resolution with its unit: "93.4 %", "1.500 GiB", "11.234 GB/s".
QString EventCells::sampleValueText(EventRef row) const
{
    const auto value = sampleValue(row);
    if (!value) return {};
    const CounterSeries& series = *seriesOf(row);
    if (series.unit == "B") return fromStd(formatBytes(uint64_t(std::max(0.0, *value))));
    if (series.unit == "B/s")
        return fromStd(formatThroughput(uint64_t(std::max(0.0, *value)), 1'000'000'000));
    const int decimals = series.resolution >= 1
        ? 0
        : std::clamp(int(std::ceil(-std::log10(series.resolution) - 1e-9)), 0, 9);
    return QStringLiteral("%1 %2").arg(*value, 0, 'f', decimals).arg(fromStd(series.unit)).trimmed();
}

const KernelLaunch* EventCells::launchOf(EventRef event) const
{
    const Track& track = m_trace.track(event.track);
    if (track.key.kind != TrackKind::Kernels || track.events.detail.empty()) return nullptr;
    const uint32_t id = track.events.detail[event.index];
    return id < m_trace.kernelLaunches.size() ? &m_trace.kernelLaunches[id] : nullptr;
}

const MemoryOp* EventCells::memoryOpOf(EventRef event) const
{
    const Track& track = m_trace.track(event.track);
    if (track.key.kind != TrackKind::Memory || track.events.detail.empty()) return nullptr;
    const uint32_t id = track.events.detail[event.index];
    return id < m_trace.memoryOps.size() ? &m_trace.memoryOps[id] : nullptr;
}

std::optional<int64_t> EventCells::number(EventRef event, EventColumn column) const
{
    if (const CounterSeries* series = seriesOf(event)) {
        const CounterTimeline& timeline = m_trace.timelineOf(*series);
        if (event.index >= timeline.size()) return std::nullopt;
        switch (column) {
        case EventColumn::Start:
            return timeline.starts[event.index];
        case EventColumn::Duration:
            return timeline.sampleEnd(event.index) - timeline.starts[event.index];
        case EventColumn::End:
            return timeline.sampleEnd(event.index);
        default:
            return std::nullopt;
        }
    }
    const Track& track = m_trace.track(event.track);
    const EventColumns& ev = track.events;
    const uint32_t i = event.index;
    const TrackKind kind = track.key.kind;
    switch (column) {
    case EventColumn::Start:
        return ev.start[i];
    case EventColumn::Duration:
        return ev.end[i] - ev.start[i];
    case EventColumn::End:
        return ev.end[i];
    case EventColumn::Registers:
        if (const KernelLaunch* k = launchOf(event)) return int64_t(k->registersPerThread);
        return std::nullopt;
    case EventColumn::SharedMemory:
        if (const KernelLaunch* k = launchOf(event))
            return int64_t(k->staticSharedMemory) + k->dynamicSharedMemory;
        return std::nullopt;
    case EventColumn::Bytes:
        if (kind == TrackKind::Memory && !ev.value.empty()) return ev.value[i];
        return std::nullopt;
    case EventColumn::Correlation:
        if (hasCorrelation(kind) && !ev.correlation.empty() && ev.correlation[i].value != 0)
            return int64_t(ev.correlation[i].value);
        return std::nullopt;
    case EventColumn::ReturnValue:
        if (kind == TrackKind::OsRuntime && !ev.value.empty()) return ev.value[i];
        if (kind == TrackKind::CudaApi && !ev.detail.empty() && ev.detail[i] < m_trace.apiResults.size())
            return int64_t(m_trace.apiResults[ev.detail[i]].returnCode);
        return std::nullopt;
    default:
        return std::nullopt;
    }
}

std::optional<double> EventCells::throughput(EventRef event) const
{
    if (seriesOf(event)) return std::nullopt;
    const Track& track = m_trace.track(event.track);
    const Duration duration = track.duration(event.index);
    if (track.key.kind != TrackKind::Memory || track.events.value.empty() || duration <= 0)
        return std::nullopt;
    return double(track.events.value[event.index]) * 1e9 / double(duration);
}

QString EventCells::domainLabel(EventRef event) const
{
    if (seriesOf(event)) return {};
    const Track& track = m_trace.track(event.track);
    if (track.key.kind != TrackKind::Nvtx) return {};
    DomainId domain = track.key.domain;
    if (!track.events.detail.empty() && track.events.detail[event.index] < m_trace.nvtxAttributes.size())
        domain = m_trace.nvtxAttributes[track.events.detail[event.index]].domain;
    const std::string_view name = m_trace.domainName(domain);
    return name.empty() ? QStringLiteral("default") : fromView(name);
}

QString EventCells::copyKindLabel(EventRef event) const
{
    const MemoryOp* op = memoryOpOf(event);
    if (!op) return {};
    if (op->kind == MemoryOpKind::Memset) return QStringLiteral("Memset");
    return fromView(shortLabel(op->copyKind));
}

QString EventCells::memoryKindsLabel(EventRef event) const
{
    const MemoryOp* op = memoryOpOf(event);
    if (!op) return {};
    if (op->kind == MemoryOpKind::Memset) return fromView(label(op->srcKind));
    return fromView(label(op->srcKind)) + QStringLiteral(" \u2192 ") + fromView(label(op->dstKind));
}

QString EventCells::display(EventRef event, EventColumn column) const
{
    if (seriesOf(event) && !columnAppliesToSamples(column)) return {};
    switch (column) {
    case EventColumn::Name:
        return fromView(m_names.name(event));
    case EventColumn::Start:
    case EventColumn::End:
        return fromStd(formatTimestamp(*number(event, column)));
    case EventColumn::Duration:
        return fromStd(formatDuration(*number(event, column)));
    case EventColumn::ThreadOrStream:
        return threadOrStreamLabel(event.track);
    case EventColumn::DeviceContext:
        return deviceContextLabel(event.track);
    case EventColumn::Grid:
        if (const KernelLaunch* k = launchOf(event)) return dimensions(k->grid, true);
        return {};
    case EventColumn::Block:
        if (const KernelLaunch* k = launchOf(event)) return dimensions(k->block, true);
        return {};
    case EventColumn::SharedMemory:
    case EventColumn::Bytes:
        if (auto bytes = number(event, column)) return fromStd(formatBytes(uint64_t(*bytes)));
        return {};
    case EventColumn::Throughput:
        if (auto rate = throughput(event)) return fromStd(formatThroughput(uint64_t(*rate), 1000000000));
        return {};
    case EventColumn::CopyKind:
        return copyKindLabel(event);
    case EventColumn::MemoryKinds:
        return memoryKindsLabel(event);
    case EventColumn::Registers:
    case EventColumn::Correlation:
    case EventColumn::ReturnValue:
        if (auto value = number(event, column)) return grouped(*value);
        return {};
    case EventColumn::Domain:
        return domainLabel(event);
    case EventColumn::Value:
        return sampleValueText(event);
    case EventColumn::Count:
        break;
    }
    return {};
}

QString EventCells::raw(EventRef event, EventColumn column) const
{
    if (seriesOf(event) && !columnAppliesToSamples(column)) return {};
    switch (column) {
    case EventColumn::Value: {
        std::string text;
        if (const auto value = sampleValue(event)) appendDouble(text, *value);
        return fromStd(text);
    }
    case EventColumn::Grid:
        if (const KernelLaunch* k = launchOf(event)) return dimensions(k->grid, false);
        return {};
    case EventColumn::Block:
        if (const KernelLaunch* k = launchOf(event)) return dimensions(k->block, false);
        return {};
    case EventColumn::Throughput:
        if (auto rate = throughput(event)) return QString::number(*rate, 'f', 0);
        return {};
    case EventColumn::MemoryKinds: {
        const MemoryOp* op = memoryOpOf(event);
        if (!op || op->kind == MemoryOpKind::Memset) return memoryKindsLabel(event);
        return fromView(label(op->srcKind)) + QStringLiteral("->") + fromView(label(op->dstKind));
    }
    default:
        if (isNumericColumn(column)) {
            if (auto value = number(event, column)) return QString::number(*value);
            return {};
        }
        return display(event, column);
    }
}

QString EventCells::tooltip(EventRef event, EventColumn column) const
{
    if (seriesOf(event) && !columnAppliesToSamples(column)) return {};
    switch (column) {
    case EventColumn::Value:
        if (const CounterSeries* series = seriesOf(event))
            return sampleValue(event) ? raw(event, column) + QLatin1Char(' ') + fromStd(series->unit)
                                      : QStringLiteral("Not known: no sample value was recorded here");
        return {};
    case EventColumn::SharedMemory:
        if (const KernelLaunch* k = launchOf(event))
            return QStringLiteral("Static %1, dynamic %2")
                .arg(fromStd(formatBytes(k->staticSharedMemory)),
                    fromStd(formatBytes(k->dynamicSharedMemory)));
        return {};
    case EventColumn::DeviceContext:
        if (const Gpu* gpu = m_trace.findGpu(m_trace.track(event.track).key.device))
            return QStringLiteral("%1 (%2)").arg(fromStd(gpu->name), display(event, column));
        return display(event, column);
    case EventColumn::Start:
    case EventColumn::End:
    case EventColumn::Duration:
        return grouped(*number(event, column)) + QStringLiteral(" ns");
    default:
        return display(event, column);
    }
}

} // namespace sightline::views
