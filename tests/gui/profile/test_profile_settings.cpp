// The Profile dialog's model: the `sightline profile` command line built from the settings,
// settings remembered per executable, the checks behind the inline messages, and reading the
// launcher's stderr apart from the target's.
#include "../remote/qt_catch_strings.h"
#include "app/ui/profile/launcher_output.h"
#include "app/ui/profile/profile_checks.h"
#include "app/ui/profile/profile_settings.h"
#include "shell_test_support.h"
#include "test_paths.h"

#include <QFile>
#include <QFileInfo>
#include <catch2/catch.hpp>
#include <sys/stat.h>

using namespace sightline;
using ui::CaptureRange;
using ui::ProfileSettings;

namespace {

QString pathText(const std::filesystem::path& path)
{
    return QString::fromStdString(path.string());
}

QString makeFile(const std::filesystem::path& path, bool executable)
{
    test::writeTextFile(path.parent_path(), path.filename().string(), "#!/bin/sh\necho hi\n");
    ::chmod(path.c_str(), executable ? 0755 : 0644);
    return pathText(path);
}

} // namespace

TEST_CASE("the settings become a sightline profile command line that ends with -- and the program")
{
    ProfileSettings s;
    s.executable = QStringLiteral("/opt/app/train");
    s.arguments = QStringLiteral("--epochs 2 \"two words\" --trace=cuda");
    s.workingDirectory = QStringLiteral("/scratch/runs");
    s.environment
        = {{QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("4")}, {QStringLiteral("EMPTY"), QString()}};
    s.traceCuda = false;
    s.osrtThresholdNs = 5000;
    s.captureRange = CaptureRange::NvtxRange;
    s.nvtxRange = QStringLiteral("step@trainer");
    s.delaySeconds = 1.5;
    s.durationSeconds = 10;
    s.outputFile = QStringLiteral("out/run");
    CHECK(s.launcherArguments(true)
        == QStringList {QStringLiteral("profile"), QStringLiteral("--trace=nvtx,osrt"),
            QStringLiteral("--osrt-threshold=5000"), QStringLiteral("--output=/scratch/runs/out/run.rep"),
            QStringLiteral("--force-overwrite"), QStringLiteral("--capture-range=nvtx"),
            QStringLiteral("--nvtx-capture=step@trainer"), QStringLiteral("--delay=1.5"),
            QStringLiteral("--duration=10"), QStringLiteral("--env-var=OMP_NUM_THREADS=4"),
            QStringLiteral("--env-var=EMPTY="), QStringLiteral("--"), QStringLiteral("/opt/app/train"),
            QStringLiteral("--epochs"), QStringLiteral("2"), QStringLiteral("two words"),
            QStringLiteral("--trace=cuda")});

    ProfileSettings none;
    none.executable = QStringLiteral("python3");
    none.traceCuda = none.traceNvtx = none.traceOsrt = false;
    const QStringList args = none.launcherArguments(false);
    CHECK(args.contains(QStringLiteral("--trace=none")));
    CHECK_FALSE(args.filter(QStringLiteral("--osrt-threshold")).size());
    CHECK_FALSE(args.contains(QStringLiteral("--force-overwrite")));
    CHECK(args.filter(QStringLiteral("--capture-range")).isEmpty());
    CHECK(args.mid(args.size() - 2) == QStringList {QStringLiteral("--"), QStringLiteral("python3")});
}

TEST_CASE("without an output file the report is named after the program with the first free number")
{
    const auto folder = test::scratchDir("profile-output-name");
    ProfileSettings s;
    s.executable = makeFile(folder / "train.sh", true);
    CHECK(s.effectiveWorkingDirectory() == pathText(folder));
    CHECK(s.effectiveOutputFile() == pathText(folder / "train_1.rep"));
    test::writeTextFile(folder, "train_1.rep", "x");
    test::writeTextFile(folder, "train_2.rep", "x");
    CHECK(s.effectiveOutputFile() == pathText(folder / "train_3.rep"));
}

TEST_CASE("settings are remembered per executable")
{
    test::guiApp();
    ProfileSettings first;
    first.executable = QStringLiteral("/opt/first/app");
    first.arguments = QStringLiteral("--fast");
    first.environment = {{QStringLiteral("A"), QStringLiteral("1")}};
    first.traceCuda = false;
    first.osrtThresholdNs = 250;
    first.captureRange = CaptureRange::CudaProfilerApi;
    first.delaySeconds = 2;
    first.outputFile = QStringLiteral("/tmp/first.rep");
    ProfileSettings second;
    second.executable = QStringLiteral("/opt/second/app");
    second.arguments = QStringLiteral("--slow");
    second.captureRange = CaptureRange::NvtxRange;
    second.nvtxRange = QStringLiteral("epoch");
    ui::saveProfileSettings(first);
    ui::saveProfileSettings(second);
    CHECK(ui::loadProfileSettings(first.executable) == first);
    CHECK(ui::loadProfileSettings(second.executable) == second);
    CHECK(ui::lastProfiledExecutable() == second.executable);
    ProfileSettings fresh;
    fresh.executable = QStringLiteral("/opt/never/seen");
    CHECK(ui::loadProfileSettings(fresh.executable) == fresh);
}

TEST_CASE("the checks name a missing or non-executable program, a bad folder and a missing collector")
{
    test::guiApp();
    const auto folder = test::scratchDir("profile-checks");
    const QString sightline = pathText(test::binDir() / "sightline");
    ProfileSettings s;
    s.executable = makeFile(folder / "run.sh", true);
    s.workingDirectory = pathText(folder);
    const ui::ProfileProblems fine = ui::checkProfileSettings(s, sightline);
    INFO(fine.all().join(QLatin1Char('\n')).toStdString());
    CHECK_FALSE(fine.blocking());

    ProfileSettings missing = s;
    missing.executable = pathText(folder / "nope");
    CHECK(ui::checkProfileSettings(missing, sightline).executable
        == pathText(folder / "nope") + QStringLiteral(" does not exist; check the path."));
    ProfileSettings notExecutable = s;
    notExecutable.executable = makeFile(folder / "data.txt", false);
    CHECK(ui::checkProfileSettings(notExecutable, sightline)
              .executable.contains(QStringLiteral("is not executable")));
    ProfileSettings notInPath = s;
    notInPath.executable = QStringLiteral("no-such-program-sightline");
    CHECK(ui::checkProfileSettings(notInPath, sightline).executable.contains(QStringLiteral("in PATH")));
    ProfileSettings inPath = s;
    inPath.executable = QStringLiteral("sh");
    CHECK(ui::checkProfileSettings(inPath, sightline).executable.isEmpty());

    ProfileSettings badFolder = s;
    badFolder.outputFile = pathText(folder / "missing-folder" / "r.rep");
    CHECK(ui::checkProfileSettings(badFolder, sightline).output.contains(QStringLiteral("does not exist")));
    if (::geteuid() != 0) { // root writes anywhere
        std::filesystem::create_directories(folder / "locked");
        ::chmod((folder / "locked").c_str(), 0555);
        ProfileSettings locked = s;
        locked.outputFile = pathText(folder / "locked" / "r.rep");
        CHECK(ui::checkProfileSettings(locked, sightline).output.contains(QStringLiteral("not writable")));
    }
    test::writeTextFile(folder, "plain-file", "x");
    ProfileSettings underFile = s;
    underFile.outputFile = pathText(folder / "plain-file" / "r.rep");
    CHECK(ui::checkProfileSettings(underFile, sightline)
              .output.contains(QStringLiteral("is a file, not a folder")));
    test::writeTextFile(folder, "old.rep", "x");
    ProfileSettings exists = s;
    exists.outputFile = pathText(folder / "old.rep");
    const ui::ProfileProblems replaced = ui::checkProfileSettings(exists, sightline);
    CHECK(replaced.outputWarning.contains(QStringLiteral("will be replaced")));
    CHECK_FALSE(replaced.blocking());

    ProfileSettings badEnvironment = s;
    badEnvironment.environment
        = {{QStringLiteral("GOOD"), QStringLiteral("1")}, {QStringLiteral("1BAD"), QStringLiteral("x")}};
    CHECK(ui::checkProfileSettings(badEnvironment, sightline)
              .environment.startsWith(QStringLiteral("Row 2: '1BAD'")));
    ProfileSettings noTrace = s;
    noTrace.traceCuda = noTrace.traceNvtx = noTrace.traceOsrt = false;
    CHECK_FALSE(ui::checkProfileSettings(noTrace, sightline).trace.isEmpty());
    ProfileSettings cudaCapture = s;
    cudaCapture.traceCuda = false;
    cudaCapture.captureRange = CaptureRange::CudaProfilerApi;
    CHECK(ui::checkProfileSettings(cudaCapture, sightline).capture.contains(QStringLiteral("tick CUDA")));
    ProfileSettings nvtxCapture = s;
    nvtxCapture.captureRange = CaptureRange::NvtxRange;
    CHECK(ui::checkProfileSettings(nvtxCapture, sightline).capture.contains(QStringLiteral("NVTX range")));

    // A sightline without the injection library beside it: the collector is missing.
    std::filesystem::create_directories(folder / "install" / "bin");
    const QString lonely = makeFile(folder / "install" / "bin" / "sightline", true);
    const ui::ProfileProblems noCollector = ui::checkProfileSettings(s, lonely);
    CHECK(noCollector.collector.contains(QStringLiteral("libsightline-inject.so is missing")));
    CHECK(noCollector.collector.contains(
        pathText(folder / "install" / "lib" / "sightline" / "libsightline-inject.so")));
    CHECK(noCollector.blocking());
    std::filesystem::create_directories(folder / "install" / "lib" / "sightline");
    test::writeTextFile(folder / "install" / "lib" / "sightline", "libsightline-inject.so", "x");
    CHECK(ui::checkProfileSettings(s, lonely).collector.isEmpty());
}

TEST_CASE("the stderr lines of the launcher are told apart from those of the target")
{
    using Kind = ui::LauncherLine::Kind;
    CHECK(ui::classifyLauncherLine(QStringLiteral("Collecting data...")).kind == Kind::Collecting);
    const auto progress
        = ui::classifyLauncherLine(QStringLiteral("Collecting data: 12.5 s, 34567 events so far"));
    CHECK(progress.kind == Kind::Progress);
    CHECK(progress.elapsedSeconds == 12.5);
    CHECK(progress.events == 34567);
    const auto processing
        = ui::classifyLauncherLine(QStringLiteral("Processing 1234 events from 2 process recording(s)..."));
    CHECK(processing.kind == Kind::Processing);
    CHECK(processing.events == 1234);
    const auto generated = ui::classifyLauncherLine(QStringLiteral("Generated: runs/a b.rep"));
    CHECK(generated.kind == Kind::Generated);
    CHECK(generated.reportPath == QStringLiteral("runs/a b.rep"));
    CHECK(
        ui::classifyLauncherLine(QStringLiteral("sightline profile: cannot run 'x'")).kind == Kind::Problem);
    CHECK(ui::classifyLauncherLine(QStringLiteral("Epoch 1: loss 0.3")).kind == Kind::TargetOutput);
    CHECK(ui::classifyLauncherLine(QStringLiteral("Collecting data: done")).kind == Kind::TargetOutput);
}
