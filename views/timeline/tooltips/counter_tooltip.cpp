#include "views/timeline/tooltips/counter_tooltip.h"

#include "model/text/time_text.h"
#include "model/trace/memory_usage_query.h"

#include <cmath>

namespace sightline::views {
namespace {

constexpr size_t kListedMemoryChanges = 8;

// One allocation or release, as a line: "+1.000 MiB Device at 0x7f0000000000 by cudaMalloc on
// python [4243], released after 2.000 ms".
QString memoryChangeText(const Trace& trace, uint32_t index)
{
    const MemoryUsageEvent& e = trace.memoryUsage[index];
    QString line = QStringLiteral("%1%2 %3")
                       .arg(e.release ? QStringLiteral("\u2212") : QStringLiteral("+"))
                       .arg(QString::fromStdString(formatBytes(e.bytes)))
                       .arg(QString::fromLatin1(label(e.kind)));
    if (e.address != 0) line += QStringLiteral(" at 0x%1").arg(e.address, 0, 16);
    if (const std::optional<EventRef> call = trace.correlation.apiCall(trace, e.pid, e.correlation)) {
        const Track& track = trace.track(call->track);
        line += QStringLiteral(" by %1 on %2")
                    .arg(QString::fromStdString(std::string(trace.strings[track.events.name[call->index]])),
                        threadText(trace, track.key.tid));
    } else if (e.correlation.value != 0) {
        line += QStringLiteral(" (correlation id %1)").arg(e.correlation.value);
    }
    if (!e.release) {
        const std::optional<uint32_t> release = releaseOf(trace, index);
        line += release
            ? QStringLiteral(", released after %1")
                  .arg(QString::fromStdString(formatDuration(trace.memoryUsage[*release].time - e.time)))
            : QStringLiteral(", held to the end");
    }
    return line;
}

// The allocations and releases under the cursor, or the one that set the bytes in use shown.
void addMemoryChanges(EventTooltip& tip, const Trace& trace, DeviceId device, TimeRange pixel)
{
    std::vector<uint32_t> changes = memoryChangesIn(trace, device, pixel);
    if (changes.empty()) {
        const std::optional<uint32_t> last = lastMemoryChangeBefore(trace, device, pixel.start);
        if (!last) return;
        changes = {*last};
        tip.listTitle = QStringLiteral("Last change");
    } else {
        tip.listTitle = changes.size() == 1 ? QStringLiteral("Change here")
                                            : QStringLiteral("%1 changes here").arg(changes.size());
    }
    for (size_t k = 0; k < std::min(changes.size(), kListedMemoryChanges); ++k)
        tip.list << memoryChangeText(trace, changes[k]);
    if (changes.size() > kListedMemoryChanges)
        tip.list << QStringLiteral("\u2026 and %1 more").arg(changes.size() - kListedMemoryChanges);
}

} // namespace

QString counterValueText(const CounterSeries& series, double value)
{
    if (std::isnan(value)) return QStringLiteral("unknown");
    if (series.unit == "B/s")
        return QString::fromStdString(formatThroughput(uint64_t(std::max(0.0, value)), 1'000'000'000));
    if (series.unit == "B") return QString::fromStdString(formatBytes(uint64_t(std::max(0.0, value))));
    return QStringLiteral("%1 %2").arg(value, 0, 'f', 1).arg(QString::fromStdString(series.unit));
}

QString counterKindText(CounterSource source)
{
    switch (source) {
    case CounterSource::GpuMetrics:
        return QStringLiteral("GPU metric");
    case CounterSource::GpuMemory:
        return QStringLiteral("GPU memory in use");
    case CounterSource::CpuUtilization:
        return QStringLiteral("CPU utilization");
    case CounterSource::Process:
        return QStringLiteral("Process counter");
    }
    return QStringLiteral("Counter");
}

EventTooltip describeCounter(
    const Trace& trace, uint32_t series, TimeRange pixel, const std::optional<TimeRange>& selection)
{
    EventTooltip tip;
    if (series >= trace.counterSeries.size()) return tip;
    const CounterSeries& s = trace.counterSeries[series];
    const CounterSummary here
        = trace.counterSummary(series, {pixel.start, std::max(pixel.end, pixel.start + 1)});
    if (here.empty()) return tip;
    tip.title = QString::fromStdString(s.name);
    tip.kind = counterKindText(s.source);
    tip.fields.push_back({QStringLiteral("Value"), counterValueText(s, here.mean())});
    if (here.samples > 1) {
        tip.fields.push_back({QStringLiteral("Samples"), QString::number(here.samples)});
        tip.fields.push_back({QStringLiteral("Min"), counterValueText(s, here.min)});
        tip.fields.push_back({QStringLiteral("Max"), counterValueText(s, here.max)});
    }
    tip.fields.push_back({QStringLiteral("Time"), QString::fromStdString(formatTimestamp(pixel.start))});
    if (selection && !selection->empty()) {
        const CounterSummary over = trace.counterSummary(series, *selection);
        tip.fields.push_back({QStringLiteral("Selection mean"), counterValueText(s, over.mean())});
    }
    if (ownedByProcess(s.source)) {
        const Process* process = trace.findProcess(s.pid);
        tip.fields.push_back({QStringLiteral("Process"),
            QStringLiteral("%1 [%2]")
                .arg(process ? QString::fromStdString(process->name) : QStringLiteral("process"))
                .arg(s.pid.value)});
    } else if (const Gpu* gpu = trace.findGpu(s.device)) {
        tip.fields.push_back({QStringLiteral("Device"),
            QStringLiteral("%1 (%2)").arg(s.device.value).arg(QString::fromStdString(gpu->name))});
    }
    tip.fields.push_back({QStringLiteral("Definition"), QString::fromStdString(s.description)});
    if (s.source == CounterSource::GpuMemory)
        addMemoryChanges(tip, trace, s.device, {pixel.start, std::max(pixel.end, pixel.start + 1)});
    return tip;
}

} // namespace sightline::views
