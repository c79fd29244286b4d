#include "views/timeline/interaction/counter_tooltip.h"

#include "model/text/time_text.h"

#include <cmath>

namespace sightline::views {

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
    return tip;
}

} // namespace sightline::views
