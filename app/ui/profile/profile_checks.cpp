#include "app/ui/profile/profile_checks.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

namespace sightline::ui {

namespace {

const QString kLibraryName = QStringLiteral("libsightline-inject.so");

QString checkExecutable(const ProfileSettings& settings)
{
    const QString typed = settings.executable.trimmed();
    if (typed.isEmpty()) return QStringLiteral("Choose the program to profile.");
    if (!resolveExecutable(settings).isEmpty()) return {};
    if (!typed.contains(QLatin1Char('/')))
        return QStringLiteral("No program named '%1' was found in PATH; give its full path.").arg(typed);
    const QFileInfo info(QDir(settings.effectiveWorkingDirectory()).absoluteFilePath(typed));
    if (!info.exists()) return QStringLiteral("%1 does not exist; check the path.").arg(info.filePath());
    if (info.isDir())
        return QStringLiteral("%1 is a folder; choose the program inside it.").arg(info.filePath());
    return QStringLiteral(
        "%1 is not executable; make it executable (chmod +x) or choose the program that runs it, "
        "such as python3.")
        .arg(info.filePath());
}

QString checkWorkingDirectory(const ProfileSettings& settings)
{
    if (settings.workingDirectory.trimmed().isEmpty()) return {};
    const QFileInfo info(settings.workingDirectory.trimmed());
    if (!info.exists())
        return QStringLiteral("The folder %1 does not exist; create it or choose another.")
            .arg(info.filePath());
    if (!info.isDir())
        return QStringLiteral("%1 is a file, not a folder; choose a folder.").arg(info.filePath());
    return {};
}

QString checkEnvironment(const ProfileSettings& settings)
{
    static const QRegularExpression validName(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    for (int row = 0; row < settings.environment.size(); ++row) {
        const QString& name = settings.environment[row].name;
        if (!validName.match(name).hasMatch())
            return QStringLiteral(
                "Row %1: '%2' is not a variable name; use letters, digits and _, not starting "
                "with a digit.")
                .arg(row + 1)
                .arg(name);
    }
    return {};
}

QString checkCapture(const ProfileSettings& settings)
{
    if (settings.captureRange == CaptureRange::CudaProfilerApi && !settings.traceCuda)
        return QStringLiteral("The cudaProfilerApi capture range needs CUDA tracing; tick CUDA.");
    if (settings.captureRange == CaptureRange::NvtxRange && settings.nvtxRange.trimmed().isEmpty())
        return QStringLiteral("Type the NVTX range that starts the capture (RANGE or RANGE@DOMAIN).");
    return {};
}

QString checkOutput(const ProfileSettings& settings, QString& warning)
{
    const QString path = settings.effectiveOutputFile();
    const QFileInfo file(path);
    const QFileInfo folder(file.absolutePath());
    if (!folder.exists())
        return QStringLiteral("The folder %1 does not exist; create it or choose another output file.")
            .arg(folder.filePath());
    if (!folder.isDir())
        return QStringLiteral("%1 is a file, not a folder; choose another output file.")
            .arg(folder.filePath());
    if (!folder.isWritable())
        return QStringLiteral("The folder %1 is not writable; choose another output file.")
            .arg(folder.filePath());
    if (file.isDir()) return QStringLiteral("%1 is a folder; give a file name for the report.").arg(path);
    if (file.exists())
        warning = QStringLiteral("%1 already exists and will be replaced.").arg(file.fileName());
    return {};
}

QString checkCollector(const QString& sightlinePath)
{
    if (sightlinePath.isEmpty() || !QFileInfo(sightlinePath).isExecutable())
        return QStringLiteral("The sightline command-line tool was not found next to sightline-ui (in %1); "
                              "reinstall Sightline.")
            .arg(QCoreApplication::applicationDirPath());
    QString searched;
    if (findCollectorLibrary(sightlinePath, &searched).isEmpty())
        return QStringLiteral(
            "The collector library %1 is missing (looked in %2); reinstall Sightline, or build it "
            "with the CUDA toolkit's CUPTI and NVTX headers.")
            .arg(kLibraryName, searched);
    return {};
}

} // namespace

QString findSightlineExecutable()
{
    const QString custom = qEnvironmentVariable("SIGHTLINE_CLI");
    if (!custom.isEmpty()) return QFileInfo(custom).isExecutable() ? custom : QString();
    const QString beside = QCoreApplication::applicationDirPath() + QStringLiteral("/sightline");
    return QFileInfo(beside).isExecutable() ? beside : QString();
}

QString findCollectorLibrary(const QString& sightlinePath, QString* searched)
{
    const QString custom = qEnvironmentVariable("SIGHTLINE_INJECT_LIBRARY");
    if (!custom.isEmpty()) {
        if (searched) *searched = custom;
        return QFileInfo::exists(custom) ? custom : QString();
    }
    // Where the executable really is: an installed /usr/bin/sightline may be a symbolic link.
    const QString real = QFileInfo(sightlinePath).canonicalFilePath();
    const QDir bin = QFileInfo(real.isEmpty() ? sightlinePath : real).absoluteDir();
    QStringList places;
    for (const QString& relative :
        {QStringLiteral("../lib/sightline/"), QStringLiteral("../lib/"), QString()}) {
        const QString candidate = QDir::cleanPath(bin.absoluteFilePath(relative + kLibraryName));
        places << candidate;
        if (QFileInfo::exists(candidate)) return candidate;
    }
    if (searched) *searched = places.join(QStringLiteral(", "));
    return {};
}

QString resolveExecutable(const ProfileSettings& settings)
{
    const QString typed = settings.executable.trimmed();
    if (typed.isEmpty()) return {};
    if (!typed.contains(QLatin1Char('/'))) return QStandardPaths::findExecutable(typed);
    const QFileInfo info(QDir(settings.effectiveWorkingDirectory()).absoluteFilePath(typed));
    return info.isFile() && info.isExecutable() ? info.absoluteFilePath() : QString();
}

bool ProfileProblems::blocking() const
{
    return !all().isEmpty();
}

QStringList ProfileProblems::all() const
{
    QStringList list;
    for (const QString* problem :
        {&executable, &workingDirectory, &environment, &trace, &capture, &output, &collector})
        if (!problem->isEmpty()) list << *problem;
    return list;
}

ProfileProblems checkProfileSettings(const ProfileSettings& settings, const QString& sightlinePath)
{
    ProfileProblems problems;
    problems.executable = checkExecutable(settings);
    problems.workingDirectory = checkWorkingDirectory(settings);
    problems.environment = checkEnvironment(settings);
    if (!settings.traceCuda && !settings.traceNvtx && !settings.traceOsrt)
        problems.trace = QStringLiteral("Tick at least one of CUDA, NVTX and OS runtime.");
    problems.capture = checkCapture(settings);
    if (problems.workingDirectory.isEmpty()) problems.output = checkOutput(settings, problems.outputWarning);
    problems.collector = checkCollector(sightlinePath);
    return problems;
}

} // namespace sightline::ui
