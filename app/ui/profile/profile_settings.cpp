#include "app/ui/profile/profile_settings.h"

#include "app/ui/common/shell_words.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace sightline::ui {

namespace {

const QString kLastExecutableKey = QStringLiteral("profile/lastExecutable");

QString groupFor(const QString& executable)
{
    const QByteArray hash = QCryptographicHash::hash(executable.toUtf8(), QCryptographicHash::Sha1).toHex();
    return QStringLiteral("profile/") + QString::fromLatin1(hash.left(16));
}

QString seconds(double value)
{
    return QString::number(value, 'g', 10);
}

const char* captureName(CaptureRange range)
{
    switch (range) {
    case CaptureRange::CudaProfilerApi:
        return "cudaProfilerApi";
    case CaptureRange::NvtxRange:
        return "nvtx";
    case CaptureRange::None:
        break;
    }
    return "none";
}

CaptureRange captureFromName(const QString& name)
{
    if (name == QLatin1String("cudaProfilerApi")) return CaptureRange::CudaProfilerApi;
    if (name == QLatin1String("nvtx")) return CaptureRange::NvtxRange;
    return CaptureRange::None;
}

} // namespace

QString ProfileSettings::traceList() const
{
    QStringList parts;
    if (traceCuda) parts << QStringLiteral("cuda");
    if (traceNvtx) parts << QStringLiteral("nvtx");
    if (traceOsrt) parts << QStringLiteral("osrt");
    return parts.isEmpty() ? QStringLiteral("none") : parts.join(QLatin1Char(','));
}

QStringList ProfileSettings::argumentList() const
{
    return splitShellWords(arguments);
}

QString ProfileSettings::effectiveWorkingDirectory() const
{
    if (!workingDirectory.trimmed().isEmpty()) return QDir::cleanPath(workingDirectory.trimmed());
    const QFileInfo program(executable.trimmed());
    if (executable.contains(QLatin1Char('/')) && program.exists()) return program.absolutePath();
    return QDir::homePath();
}

QString ProfileSettings::effectiveOutputFile() const
{
    const QDir folder(effectiveWorkingDirectory());
    if (!outputFile.trimmed().isEmpty()) {
        QString path = outputFile.trimmed();
        if (!path.endsWith(QLatin1String(".rep"))) path += QStringLiteral(".rep");
        return QDir::cleanPath(folder.absoluteFilePath(path));
    }
    QString base = QFileInfo(executable.trimmed()).completeBaseName();
    if (base.isEmpty()) base = QStringLiteral("report");
    for (int n = 1;; ++n) {
        const QString candidate = folder.absoluteFilePath(QStringLiteral("%1_%2.rep").arg(base).arg(n));
        if (!QFileInfo::exists(candidate)) return candidate;
    }
}

QStringList ProfileSettings::launcherArguments(bool overwrite) const
{
    QStringList args {QStringLiteral("profile"), QStringLiteral("--trace=") + traceList()};
    if (traceOsrt) args << QStringLiteral("--osrt-threshold=%1").arg(osrtThresholdNs);
    args << QStringLiteral("--output=") + effectiveOutputFile();
    if (overwrite) args << QStringLiteral("--force-overwrite");
    if (captureRange != CaptureRange::None)
        args << QStringLiteral("--capture-range=") + QLatin1String(captureName(captureRange));
    if (captureRange == CaptureRange::NvtxRange)
        args << QStringLiteral("--nvtx-capture=") + nvtxRange.trimmed();
    if (delaySeconds > 0) args << QStringLiteral("--delay=") + seconds(delaySeconds);
    if (durationSeconds > 0) args << QStringLiteral("--duration=") + seconds(durationSeconds);
    for (const EnvironmentVariable& variable : environment)
        args << QStringLiteral("--env-var=%1=%2").arg(variable.name, variable.value);
    args << QStringLiteral("--") << executable.trimmed() << argumentList();
    return args;
}

ProfileSettings loadProfileSettings(const QString& executable)
{
    ProfileSettings s;
    s.executable = executable;
    QSettings settings;
    settings.beginGroup(groupFor(executable));
    if (settings.value(QStringLiteral("executable")).toString() != executable) return s;
    s.arguments = settings.value(QStringLiteral("arguments")).toString();
    s.workingDirectory = settings.value(QStringLiteral("workingDirectory")).toString();
    const QStringList names = settings.value(QStringLiteral("environmentNames")).toStringList();
    const QStringList values = settings.value(QStringLiteral("environmentValues")).toStringList();
    for (int i = 0; i < names.size() && i < values.size(); ++i)
        s.environment.append({names[i], values[i]});
    s.traceCuda = settings.value(QStringLiteral("traceCuda"), true).toBool();
    s.traceNvtx = settings.value(QStringLiteral("traceNvtx"), true).toBool();
    s.traceOsrt = settings.value(QStringLiteral("traceOsrt"), true).toBool();
    s.osrtThresholdNs = settings.value(QStringLiteral("osrtThresholdNs"), 1000).toLongLong();
    s.captureRange = captureFromName(settings.value(QStringLiteral("captureRange")).toString());
    s.nvtxRange = settings.value(QStringLiteral("nvtxRange")).toString();
    s.delaySeconds = settings.value(QStringLiteral("delaySeconds"), 0.0).toDouble();
    s.durationSeconds = settings.value(QStringLiteral("durationSeconds"), 0.0).toDouble();
    s.outputFile = settings.value(QStringLiteral("outputFile")).toString();
    return s;
}

bool hasProfileSettings(const QString& executable)
{
    return QSettings().value(groupFor(executable) + QStringLiteral("/executable")).toString() == executable;
}

void saveProfileSettings(const ProfileSettings& s)
{
    QSettings settings;
    settings.setValue(kLastExecutableKey, s.executable);
    settings.beginGroup(groupFor(s.executable));
    settings.setValue(QStringLiteral("executable"), s.executable);
    settings.setValue(QStringLiteral("arguments"), s.arguments);
    settings.setValue(QStringLiteral("workingDirectory"), s.workingDirectory);
    QStringList names;
    QStringList values;
    for (const EnvironmentVariable& variable : s.environment) {
        names << variable.name;
        values << variable.value;
    }
    settings.setValue(QStringLiteral("environmentNames"), names);
    settings.setValue(QStringLiteral("environmentValues"), values);
    settings.setValue(QStringLiteral("traceCuda"), s.traceCuda);
    settings.setValue(QStringLiteral("traceNvtx"), s.traceNvtx);
    settings.setValue(QStringLiteral("traceOsrt"), s.traceOsrt);
    settings.setValue(QStringLiteral("osrtThresholdNs"), s.osrtThresholdNs);
    settings.setValue(QStringLiteral("captureRange"), QString::fromLatin1(captureName(s.captureRange)));
    settings.setValue(QStringLiteral("nvtxRange"), s.nvtxRange);
    settings.setValue(QStringLiteral("delaySeconds"), s.delaySeconds);
    settings.setValue(QStringLiteral("durationSeconds"), s.durationSeconds);
    settings.setValue(QStringLiteral("outputFile"), s.outputFile);
}

QString lastProfiledExecutable()
{
    return QSettings().value(kLastExecutableKey).toString();
}

} // namespace sightline::ui
