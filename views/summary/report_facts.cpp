#include "views/summary/report_facts.h"

#include "model/text/time_text.h"

#include <QDateTime>
#include <QLocale>
#include <QTimeZone>

namespace sightline::views {
namespace {

QString text(const std::string& s)
{
    return QString::fromStdString(s);
}

void addIf(std::vector<Fact>& facts, const QString& label, const QString& value)
{
    if (!value.isEmpty()) facts.push_back({label, value, {}});
}

Fact gpuFact(const Gpu& gpu)
{
    Fact fact {QStringLiteral("GPU %1").arg(gpu.device.value), text(gpu.name), {}};
    addIf(fact.details, QStringLiteral("UUID"), text(gpu.uuid));
    addIf(fact.details, QStringLiteral("Bus"), text(gpu.busId));
    if (gpu.computeMajor > 0)
        addIf(fact.details, QStringLiteral("Compute capability"),
            QStringLiteral("%1.%2").arg(gpu.computeMajor).arg(gpu.computeMinor));
    if (gpu.smCount > 0) addIf(fact.details, QStringLiteral("SMs"), QString::number(gpu.smCount));
    if (gpu.memoryBytes > 0)
        addIf(fact.details, QStringLiteral("Memory"), text(formatBytes(gpu.memoryBytes)));
    if (gpu.coreClockKHz > 0)
        addIf(fact.details, QStringLiteral("Core clock"),
            QStringLiteral("%1 MHz").arg(gpu.coreClockKHz / 1000));
    if (gpu.memoryClockKHz > 0)
        addIf(fact.details, QStringLiteral("Memory clock"),
            QStringLiteral("%1 MHz").arg(gpu.memoryClockKHz / 1000));
    return fact;
}

} // namespace

QString groupedNumber(qint64 value)
{
    return QLocale(QLocale::English, QLocale::UnitedStates).toString(value);
}

QString utcText(int64_t unixNs)
{
    if (unixNs == 0) return {};
    const QDateTime time = QDateTime::fromMSecsSinceEpoch(unixNs / 1000000, QTimeZone::utc());
    return time.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")) + QStringLiteral(" UTC");
}

QString commandLineText(const std::vector<std::string>& arguments)
{
    QStringList parts;
    for (const std::string& argument : arguments) {
        QString part = text(argument);
        if (part.isEmpty() || part.contains(QLatin1Char(' ')) || part.contains(QLatin1Char('"'))
            || part.contains(QLatin1Char('\''))) {
            part.replace(QLatin1String("'"), QLatin1String("'\\''"));
            part = QLatin1Char('\'') + part + QLatin1Char('\'');
        }
        parts << part;
    }
    return parts.join(QLatin1Char(' '));
}

QString severityText(Severity severity)
{
    switch (severity) {
    case Severity::Info:
        return QStringLiteral("Info");
    case Severity::Warning:
        return QStringLiteral("Warning");
    case Severity::Error:
        return QStringLiteral("Error");
    }
    return {};
}

std::vector<FactSection> reportFacts(const Trace& trace, const ReportFile& file)
{
    const ReportMetadata& m = trace.metadata;
    std::vector<FactSection> sections;

    FactSection target {QStringLiteral("Target"), {}};
    addIf(target.facts, QStringLiteral("Command line"), commandLineText(m.commandLine));
    addIf(target.facts, QStringLiteral("Working directory"), text(m.workingDirectory));
    for (const Process& p : trace.processes)
        addIf(target.facts, QStringLiteral("Process"),
            QStringLiteral("%1 [%2]").arg(text(p.name)).arg(p.pid.value));
    sections.push_back(std::move(target));

    FactSection session {QStringLiteral("Session"), {}};
    addIf(session.facts, QStringLiteral("Start time (UTC)"), utcText(m.startTimeUtcNs));
    addIf(session.facts, QStringLiteral("Duration"), text(formatDuration(trace.span.duration())));
    addIf(session.facts, QStringLiteral("Recorded by"), text(m.producer));
    addIf(session.facts, QStringLiteral("Tool version"), text(m.toolVersion));
    sections.push_back(std::move(session));

    FactSection host {QStringLiteral("Host"), {}};
    addIf(host.facts, QStringLiteral("Host name"), text(m.hostname));
    addIf(host.facts, QStringLiteral("Operating system"), text(m.osName));
    addIf(host.facts, QStringLiteral("CPU"),
        m.cpuCores > 0 && !m.cpuModel.empty()
            ? QStringLiteral("%1 (%2 cores)").arg(text(m.cpuModel)).arg(m.cpuCores)
            : text(m.cpuModel));
    sections.push_back(std::move(host));

    FactSection gpus {QStringLiteral("GPUs"), {}};
    for (const Gpu& gpu : trace.gpus)
        gpus.facts.push_back(gpuFact(gpu));
    sections.push_back(std::move(gpus));

    FactSection versions {QStringLiteral("Versions"), {}};
    addIf(versions.facts, QStringLiteral("NVIDIA driver"), text(m.driverVersion));
    addIf(versions.facts, QStringLiteral("CUDA"), text(m.cudaVersion));
    addIf(versions.facts, QStringLiteral("CUPTI"), text(m.cuptiVersion));
    sections.push_back(std::move(versions));

    FactSection options {QStringLiteral("Collection options"), {}};
    for (const auto& [key, value] : m.options)
        addIf(options.facts, text(key), text(value));
    sections.push_back(std::move(options));

    FactSection report {QStringLiteral("Report file"), {}};
    addIf(report.facts, QStringLiteral("Path"), file.path);
    if (file.sizeBytes >= 0)
        addIf(report.facts, QStringLiteral("Size"),
            QStringLiteral("%1 (%2 bytes)")
                .arg(text(formatBytes(uint64_t(file.sizeBytes))), groupedNumber(file.sizeBytes)));
    sections.push_back(std::move(report));

    FactSection events {QStringLiteral("Events"), {}};
    addIf(events.facts, QStringLiteral("Total"), groupedNumber(qint64(trace.eventCount())));
    for (int k = 0; k < kTrackKindCount; ++k)
        if (const size_t count = trace.eventCount(TrackKind(k)); count > 0)
            addIf(
                events.facts, QString::fromUtf8(eventKind(TrackKind(k)).title), groupedNumber(qint64(count)));
    sections.push_back(std::move(events));

    std::erase_if(sections, [](const FactSection& s) { return s.facts.empty(); });
    return sections;
}

} // namespace sightline::views
