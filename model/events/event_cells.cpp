#include "model/events/event_cells.h"

#include "model/events/track_labels.h"
#include "model/text/text_format.h"
#include "model/text/time_text.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace sightline {
namespace {

constexpr std::string_view kMiddleDot = "\xC2\xB7";
constexpr std::string_view kRightArrow = "\xE2\x86\x92";

std::string grouped(int64_t value)
{
    return groupDigits(std::to_string(value));
}

// "(256, 1, 1)" in the table, "256x1x1" in a CSV.
std::string dimensions(const std::array<uint32_t, 3>& d, bool forCsv)
{
    const std::string x = std::to_string(d[0]), y = std::to_string(d[1]), z = std::to_string(d[2]);
    if (forCsv) return x + "x" + y + "x" + z;
    return "(" + x + ", " + y + ", " + z + ")";
}

} // namespace

EventCells::EventCells(const Trace& trace)
    : m_trace(trace)
    , m_names(trace)
{
    m_threadOrStream.reserve(trace.tracks.size());
    m_deviceContext.reserve(trace.tracks.size());
    for (const Track& track : trace.tracks) {
        const TrackKey& key = track.key;
        const bool onGpu = onStream(key);
        m_threadOrStream.push_back(onGpu ? streamName(trace, key) : threadName(trace, key));
        m_deviceContext.push_back(onGpu ? "GPU " + std::to_string(key.device.value) + " / Context "
                    + std::to_string(key.context.value)
                                        : std::string());
    }
}

std::string EventCells::trackTitle(TrackId track) const
{
    std::string text = std::string(eventKind(m_trace.track(track).key.kind).label) + " "
        + std::string(kMiddleDot) + " " + threadOrStreamLabel(track);
    if (!deviceContextLabel(track).empty()) text += " (" + deviceContextLabel(track) + ")";
    return text;
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
std::string EventCells::sampleValueText(EventRef row) const
{
    const auto value = sampleValue(row);
    if (!value) return {};
    const CounterSeries& series = *seriesOf(row);
    if (series.unit == "B") return formatBytes(uint64_t(std::max(0.0, *value)));
    if (series.unit == "B/s") return formatThroughput(uint64_t(std::max(0.0, *value)), 1'000'000'000);
    const int decimals = series.resolution >= 1
        ? 0
        : std::clamp(int(std::ceil(-std::log10(series.resolution) - 1e-9)), 0, 9);
    std::string text;
    appendFixed(text, *value, decimals);
    if (!series.unit.empty()) text += " " + series.unit;
    return text;
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

std::string EventCells::launchShape(EventRef event, EventColumn column, bool forCsv) const
{
    const KernelLaunch* k = launchOf(event);
    if (!k) return {};
    return dimensions(column == EventColumn::Grid ? k->grid : k->block, forCsv);
}

std::optional<int64_t> EventCells::sampleNumber(
    EventRef row, const CounterSeries& series, EventColumn column) const
{
    const CounterTimeline& timeline = m_trace.timelineOf(series);
    if (row.index >= timeline.size()) return std::nullopt;
    switch (column) {
    case EventColumn::Start:
        return timeline.starts[row.index];
    case EventColumn::Duration:
        return timeline.sampleEnd(row.index) - timeline.starts[row.index];
    case EventColumn::End:
        return timeline.sampleEnd(row.index);
    default:
        return std::nullopt;
    }
}

std::optional<int64_t> EventCells::number(EventRef event, EventColumn column) const
{
    if (const CounterSeries* series = seriesOf(event)) return sampleNumber(event, *series, column);
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

std::string_view EventCells::domainLabel(EventRef event) const
{
    if (seriesOf(event)) return {};
    const Track& track = m_trace.track(event.track);
    if (track.key.kind != TrackKind::Nvtx) return {};
    DomainId domain = track.key.domain;
    if (!track.events.detail.empty() && track.events.detail[event.index] < m_trace.nvtxAttributes.size())
        domain = m_trace.nvtxAttributes[track.events.detail[event.index]].domain;
    const std::string_view name = m_trace.domainName(domain);
    return name.empty() ? "default" : name;
}

std::string_view EventCells::copyKindLabel(EventRef event) const
{
    const MemoryOp* op = memoryOpOf(event);
    if (!op) return {};
    if (op->kind == MemoryOpKind::Memset) return "Memset";
    return shortLabel(op->copyKind);
}

std::string EventCells::memoryKindsLabel(EventRef event, bool forCsv) const
{
    const MemoryOp* op = memoryOpOf(event);
    if (!op) return {};
    if (op->kind == MemoryOpKind::Memset) return std::string(label(op->srcKind));
    const std::string arrow = forCsv ? "->" : " " + std::string(kRightArrow) + " ";
    return std::string(label(op->srcKind)) + arrow + std::string(label(op->dstKind));
}

std::string EventCells::display(EventRef event, EventColumn column) const
{
    if (seriesOf(event) && !columnAppliesToSamples(column)) return {};
    switch (column) {
    case EventColumn::Name:
        return std::string(m_names.name(event));
    case EventColumn::Start:
    case EventColumn::End:
        return formatTimestamp(*number(event, column));
    case EventColumn::Duration:
        return formatDuration(*number(event, column));
    case EventColumn::ThreadOrStream:
        return threadOrStreamLabel(event.track);
    case EventColumn::DeviceContext:
        return deviceContextLabel(event.track);
    case EventColumn::Grid:
    case EventColumn::Block:
        return launchShape(event, column, false);
    case EventColumn::SharedMemory:
    case EventColumn::Bytes:
        if (auto bytes = number(event, column)) return formatBytes(uint64_t(*bytes));
        return {};
    case EventColumn::Throughput:
        if (auto rate = throughput(event)) return formatThroughput(uint64_t(*rate), 1000000000);
        return {};
    case EventColumn::CopyKind:
        return std::string(copyKindLabel(event));
    case EventColumn::MemoryKinds:
        return memoryKindsLabel(event);
    case EventColumn::Registers:
    case EventColumn::Correlation:
    case EventColumn::ReturnValue:
        if (auto value = number(event, column)) return grouped(*value);
        return {};
    case EventColumn::Domain:
        return std::string(domainLabel(event));
    case EventColumn::Value:
        return sampleValueText(event);
    case EventColumn::Count:
        break;
    }
    return {};
}

std::string_view EventCells::csv(EventRef event, EventColumn column, std::string& scratch) const
{
    scratch.clear();
    if (seriesOf(event) && !columnAppliesToSamples(column)) return {};
    switch (column) {
    case EventColumn::Name:
        return m_names.name(event);
    case EventColumn::ThreadOrStream:
        return threadOrStreamLabel(event.track);
    case EventColumn::DeviceContext:
        return deviceContextLabel(event.track);
    case EventColumn::CopyKind:
        return copyKindLabel(event);
    case EventColumn::Domain:
        return domainLabel(event);
    case EventColumn::Value:
        if (const auto value = sampleValue(event)) appendDouble(scratch, *value);
        return scratch;
    case EventColumn::Grid:
    case EventColumn::Block:
        scratch = launchShape(event, column, true);
        return scratch;
    case EventColumn::Throughput:
        if (auto rate = throughput(event)) appendFixed(scratch, *rate, 0);
        return scratch;
    case EventColumn::MemoryKinds:
        scratch = memoryKindsLabel(event, true);
        return scratch;
    default:
        if (auto value = number(event, column)) appendInt(scratch, *value);
        return scratch;
    }
}

std::string EventCells::tooltip(EventRef event, EventColumn column) const
{
    if (seriesOf(event) && !columnAppliesToSamples(column)) return {};
    switch (column) {
    case EventColumn::Value:
        if (const CounterSeries* series = seriesOf(event)) {
            std::string value;
            return sampleValue(event) ? std::string(csv(event, column, value)) + " " + series->unit
                                      : "Not known: no sample value was recorded here";
        }
        return {};
    case EventColumn::SharedMemory:
        if (const KernelLaunch* k = launchOf(event))
            return "Static " + formatBytes(k->staticSharedMemory) + ", dynamic "
                + formatBytes(k->dynamicSharedMemory);
        return {};
    case EventColumn::DeviceContext:
        if (const Gpu* gpu = m_trace.findGpu(m_trace.track(event.track).key.device))
            return gpu->name + " (" + display(event, column) + ")";
        return display(event, column);
    case EventColumn::Start:
    case EventColumn::End:
    case EventColumn::Duration:
        return grouped(*number(event, column)) + " ns";
    default:
        return display(event, column);
    }
}

} // namespace sightline
