#include "views/timeline/tooltips/event_tooltip.h"

#include "model/derived/projected_nvtx_tracks.h"
#include "model/events/track_labels.h"
#include "model/text/time_text.h"
#include "model/trace/event_access.h"
#include "views/timeline/interaction/correlated_events.h"

#include <QStringList>
#include <algorithm>
#include <cstring>

namespace sightline::views {
namespace {

QString text(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QString text(const std::string& s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QString dims(const std::array<uint32_t, 3>& d)
{
    return QStringLiteral("<<<%1, %2, %3>>>").arg(d[0]).arg(d[1]).arg(d[2]);
}

QString bytes(uint64_t n)
{
    const QString exact = QStringLiteral("%L1 B").arg(n);
    return n < 1024 ? exact : QStringLiteral("%1 (%2)").arg(text(formatBytes(n)), exact);
}

class Builder
{
public:
    Builder(const Trace& trace, EventRef event)
        : m_trace(trace)
        , m_event(event)
        , m_track(trace.track(event.track))
    { }

    EventTooltip build()
    {
        switch (m_track.key.kind) {
        case TrackKind::Kernels:
            kernel();
            break;
        case TrackKind::Memory:
            memory();
            break;
        case TrackKind::Synchronization:
            synchronization();
            break;
        case TrackKind::CudaApi:
            apiCall();
            break;
        case TrackKind::Nvtx:
            if (isProjectedNvtxTrack(m_trace, m_event.track))
                projectedNvtx();
            else
                nvtx();
            break;
        case TrackKind::OsRuntime:
            osCall();
            break;
        }
        return std::move(m_tip);
    }

private:
    void add(const QString& label, const QString& value) { m_tip.fields.push_back({label, value}); }

    void timing(Timestamp start, Timestamp end) { addTiming(m_tip, start, end); }

    QString deviceText(DeviceId device) const
    {
        const Gpu* gpu = m_trace.findGpu(device);
        return gpu ? QStringLiteral("%1: %2 (%3)").arg(device.value).arg(text(gpu->name), text(gpu->busId))
                   : QString::number(device.value);
    }

    void gpuPlacement()
    {
        const TrackKey& key = m_track.key;
        add(QStringLiteral("Stream"), QString::fromStdString(streamName(m_trace, key)));
        add(QStringLiteral("Device"), deviceText(key.device));
        add(QStringLiteral("Context"), QString::number(key.context.value));
    }

    void launchedFrom(Timestamp start, CorrelationId correlation)
    {
        add(QStringLiteral("Correlation ID"), QString::number(correlation.value));
        const std::optional<EventRef> call = launchingCall(m_trace, m_event);
        if (!call) return;
        const ApiCall api = apiCallAt(m_trace, *call);
        add(QStringLiteral("Launched by"), text(m_trace.strings[api.name]));
        add(QStringLiteral("Launched from thread"), threadText(m_trace, m_trace.track(call->track).key.tid));
        add(QStringLiteral("Latency"),
            QStringLiteral("\u2190%1").arg(text(formatDuration(start - api.start))));
    }

    void kernel()
    {
        const KernelEvent k = kernelAt(m_trace, m_event);
        m_tip.title = text(m_trace.strings[k.name]);
        m_tip.kind = QStringLiteral("CUDA kernel");
        timing(k.start, k.end);
        add(QStringLiteral("grid"), dims(k.launch.grid));
        add(QStringLiteral("block"), dims(k.launch.block));
        add(QStringLiteral("Launch Type"), text(label(k.launch.launchType)));
        add(QStringLiteral("Registers Per Thread"), QString::number(k.launch.registersPerThread));
        add(QStringLiteral("Static Shared Memory"), bytes(k.launch.staticSharedMemory));
        add(QStringLiteral("Dynamic Shared Memory"), bytes(k.launch.dynamicSharedMemory));
        add(QStringLiteral("Local Memory Per Thread"), bytes(k.launch.localMemoryPerThread));
        if (k.launch.graphId != 0)
            add(QStringLiteral("CUDA graph"),
                QStringLiteral("%1 (node %2)").arg(k.launch.graphId).arg(k.launch.graphNodeId));
        gpuPlacement();
        launchedFrom(k.start, k.correlation);
    }

    void memory()
    {
        const MemoryEvent m = memoryAt(m_trace, m_event);
        m_tip.kind = m.op.kind == MemoryOpKind::Memset ? QStringLiteral("CUDA memset")
                                                       : QStringLiteral("CUDA memcpy");
        if (m.op.kind == MemoryOpKind::Memset) {
            m_tip.title = QStringLiteral("Memset (%1)").arg(text(label(m.op.srcKind)));
        } else {
            m_tip.title = QStringLiteral("Memcpy %1 (%2 \u2192 %3)")
                              .arg(text(shortLabel(m.op.copyKind)), text(label(m.op.srcKind)),
                                  text(label(m.op.dstKind)));
        }
        timing(m.start, m.end);
        add(QStringLiteral("Size"), bytes(m.bytes));
        add(QStringLiteral("Throughput"), text(formatThroughput(m.bytes, m.end - m.start)));
        if (m.op.kind == MemoryOpKind::Memset) {
            add(QStringLiteral("Value"), QString::number(m.op.memsetValue));
            add(QStringLiteral("Memory kind"), text(label(m.op.srcKind)));
        } else {
            add(QStringLiteral("Copy kind"), text(label(m.op.copyKind)));
            add(QStringLiteral("Source memory kind"), text(label(m.op.srcKind)));
            add(QStringLiteral("Destination memory kind"), text(label(m.op.dstKind)));
            if (m.op.copyKind == CopyKind::PtoP)
                add(QStringLiteral("Peer devices"),
                    QStringLiteral("%1 \u2192 %2").arg(m.op.srcDevice.value).arg(m.op.dstDevice.value));
        }
        gpuPlacement();
        launchedFrom(m.start, m.correlation);
    }

    void synchronization()
    {
        const SyncEvent s = syncAt(m_trace, m_event);
        m_tip.title = text(syncOpName(s.op));
        m_tip.kind = QStringLiteral("CUDA synchronization");
        timing(s.start, s.end);
        add(QStringLiteral("Type"), text(label(s.op.type)));
        if (s.op.eventId != 0) add(QStringLiteral("CUDA event"), QString::number(s.op.eventId));
        gpuPlacement();
        launchedFrom(s.start, s.correlation);
    }

    void apiCall()
    {
        const ApiCall a = apiCallAt(m_trace, m_event);
        m_tip.title = text(m_trace.strings[a.name]);
        m_tip.kind = a.result.apiClass == ApiClass::Driver ? QStringLiteral("CUDA driver API")
                                                           : QStringLiteral("CUDA runtime API");
        timing(a.start, a.end);
        add(QStringLiteral("Return code"), QString::number(a.result.returnCode));
        add(QStringLiteral("Correlation ID"), QString::number(a.correlation.value));
        add(QStringLiteral("Thread"), threadText(m_trace, m_track.key.tid));
        backtrace(a.start);
        if (a.correlation.value == 0) return;
        const std::vector<EventRef> work = m_trace.correlation.gpuOperations(m_trace, m_event);
        if (work.empty()) return;
        Timestamp first = m_trace.track(work.front().track).events.start[work.front().index];
        for (EventRef op : work)
            first = std::min(first, m_trace.track(op.track).events.start[op.index]);
        add(QStringLiteral("GPU operations"), QString::number(work.size()));
        add(QStringLiteral("Latency"), QStringLiteral("\u2192%1").arg(text(formatDuration(first - a.start))));
    }

    void nvtx()
    {
        const NvtxEvent n = nvtxAt(m_trace, m_event);
        const NvtxAttributes& at = n.attributes;
        m_tip.title = text(m_trace.strings[n.name]);
        m_tip.kind = at.style == NvtxStyle::Mark ? QStringLiteral("NVTX mark") : QStringLiteral("NVTX range");
        timing(n.start, n.end);
        const std::string_view domain = m_trace.domainName(at.domain);
        add(QStringLiteral("Domain"), domain.empty() ? QStringLiteral("default") : text(domain));
        add(QStringLiteral("Category"), QString::number(at.category));
        add(QStringLiteral("Style"), text(label(at.style)));
        add(QStringLiteral("Depth"), QString::number(m_track.laneOf(m_event.index)));
        if (at.hasColor)
            add(QStringLiteral("Color"),
                QStringLiteral("#%1").arg(at.color & 0xffffff, 6, 16, QLatin1Char('0')));
        if (at.payloadType != PayloadType::None) add(QStringLiteral("Payload"), payload(at));
        if (at.endThread.value != 0 && at.endThread != m_track.key.tid)
            add(QStringLiteral("Ended on thread"), threadText(m_trace, at.endThread));
    }

    // A range projected onto a GPU: its text, its GPU work's span and how many operations that is.
    void projectedNvtx()
    {
        const NvtxEvent n = nvtxAt(m_trace, m_event);
        m_tip.title = text(m_trace.strings[n.name]);
        m_tip.kind = QStringLiteral("NVTX range projected onto the GPU");
        timing(n.start, n.end);
        add(QStringLiteral("GPU operations"), QStringLiteral("%L1").arg(m_track.events.value[m_event.index]));
        const std::string_view domain = m_trace.domainName(n.attributes.domain);
        add(QStringLiteral("Domain"), domain.empty() ? QStringLiteral("default") : text(domain));
        add(QStringLiteral("Style"), text(label(n.attributes.style)));
        add(QStringLiteral("Launched from thread"), threadText(m_trace, m_track.key.tid));
        add(QStringLiteral("Device"), deviceText(m_track.key.device));
    }

    static QString payload(const NvtxAttributes& at)
    {
        switch (at.payloadType) {
        case PayloadType::UInt64:
        case PayloadType::UInt32:
            return QString::number(at.payload);
        case PayloadType::Int64:
        case PayloadType::Int32:
            return QString::number(int64_t(at.payload));
        case PayloadType::Double: {
            double value = 0;
            std::memcpy(&value, &at.payload, sizeof value);
            return QString::number(value);
        }
        case PayloadType::Float: {
            float value = 0;
            const uint32_t low = uint32_t(at.payload);
            std::memcpy(&value, &low, sizeof value);
            return QString::number(double(value));
        }
        case PayloadType::None:
            break;
        }
        return {};
    }

    void osCall()
    {
        const OsCall o = osCallAt(m_trace, m_event);
        m_tip.title = text(m_trace.strings[o.name]);
        m_tip.kind = QStringLiteral("OS runtime call");
        timing(o.start, o.end);
        add(QStringLiteral("Return value"), QString::number(o.returnValue));
        add(QStringLiteral("Thread"), threadText(m_trace, m_track.key.tid));
        backtrace(o.start);
    }

    // The stack recorded with the call starting at `start` on this row's thread, if any.
    void backtrace(Timestamp start)
    {
        const uint32_t stack = m_trace.cpu.eventStack(m_track.key.tid, start);
        if (stack == kNoCallStack) return;
        m_tip.listTitle = QStringLiteral("Backtrace");
        m_tip.list = stackLines(m_trace, stack);
    }

    const Trace& m_trace;
    EventRef m_event;
    const Track& m_track;
    EventTooltip m_tip;
};

} // namespace

EventTooltip describeEvent(const Trace& trace, EventRef event)
{
    if (event.track.value >= trace.trackCount() || event.index >= trace.track(event.track).size()) return {};
    return Builder(trace, event).build();
}

QString threadText(const Trace& trace, Tid tid)
{
    const Thread* thread = trace.findThread(tid);
    return QStringLiteral("%1 [%2]")
        .arg(thread ? text(thread->name) : QStringLiteral("thread"))
        .arg(tid.value);
}

void addTiming(EventTooltip& tip, Timestamp start, Timestamp end)
{
    tip.fields.push_back({QStringLiteral("Begins"), text(formatTimestamp(start))});
    tip.fields.push_back({QStringLiteral("Ends"),
        QStringLiteral("%1 (+%2)").arg(text(formatTimestamp(end)), text(formatDuration(end - start)))});
    tip.fields.push_back({QStringLiteral("Duration"), text(formatDuration(end - start))});
}

QStringList stackLines(const Trace& trace, uint32_t stack, size_t limit)
{
    QStringList lines;
    const std::vector<uint32_t> frames = trace.cpu.framesOf(stack);
    for (size_t i = 0; i < frames.size() && i < limit; ++i) {
        if (frames[i] >= trace.cpu.frames.size()) break;
        const StackFrame& frame = trace.cpu.frames[frames[i]];
        const std::string_view module = trace.strings[frame.module];
        lines << (module.empty()
                ? text(trace.strings[frame.function])
                : QStringLiteral("%1 \u2014 %2").arg(text(trace.strings[frame.function]), text(module)));
    }
    if (frames.size() > limit) lines << QStringLiteral("\u2026 %1 more frames").arg(frames.size() - limit);
    return lines;
}

QString EventTooltip::html() const
{
    QString out = QStringLiteral(
        "<p style='white-space:pre'><b>%1</b><br><i>%2</i></p><table cellspacing='0' cellpadding='1'>")
                      .arg(title.toHtmlEscaped(), kind.toHtmlEscaped());
    for (const TooltipField& field : fields)
        out += QStringLiteral("<tr><td style='padding-right:10px'>%1:</td><td>%2</td></tr>")
                   .arg(field.label.toHtmlEscaped(), field.value.toHtmlEscaped());
    out += QStringLiteral("</table>");
    if (list.isEmpty()) return out;
    out += QStringLiteral("<p style='white-space:pre'>%1:").arg(listTitle.toHtmlEscaped());
    for (const QString& line : list)
        out += QStringLiteral("<br>&nbsp;&nbsp;") + line.toHtmlEscaped();
    return out + QStringLiteral("</p>");
}

QString EventTooltip::plainText() const
{
    QStringList lines {title, kind};
    for (const TooltipField& field : fields)
        lines << field.label + QStringLiteral(": ") + field.value;
    if (!list.isEmpty()) {
        lines << listTitle + QLatin1Char(':');
        for (const QString& line : list)
            lines << QStringLiteral("  ") + line;
    }
    return lines.join(QLatin1Char('\n'));
}

QString EventTooltip::value(const QString& label) const
{
    for (const TooltipField& field : fields)
        if (field.label == label) return field.value;
    return {};
}

} // namespace sightline::views
