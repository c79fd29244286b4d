// The built sightline-ui binary in --screenshot mode: a PNG of exactly the requested size that
// shows the report, a different picture for a --range and for each --view (timeline, events,
// summary), no display needed, and exit code 1 with one sentence on stderr for a bad report or
// range.
#include "shell_test_support.h"
#include "test_paths.h"

#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <catch2/catch.hpp>

using namespace sightline;

namespace {

struct Run
{
    int exitCode = -1;
    QString stdErr;
};

// Runs sightline-ui with `arguments`, with no display and no platform chosen: the screenshot
// mode must pick the offscreen platform by itself.
Run runViewer(const QStringList& arguments)
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("QT_QPA_PLATFORM"));
    environment.remove(QStringLiteral("DISPLAY"));
    environment.remove(QStringLiteral("WAYLAND_DISPLAY"));
    process.setProcessEnvironment(environment);
    process.start(QString::fromStdString((test::binDir() / "sightline-ui").string()), arguments);
    Run run;
    if (!process.waitForFinished(120000)) return run;
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.stdErr = QString::fromUtf8(process.readAllStandardError());
    return run;
}

QStringList errorLines(const QString& stdErr)
{
    return stdErr.split(QLatin1Char('\n')).filter(QRegularExpression(QStringLiteral("^sightline-ui: ")));
}

int distinctColours(const QImage& image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2) {
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y));
    }
    return int(colours.size());
}

QString inFolder(const std::filesystem::path& folder, const char* name)
{
    return QString::fromStdString((folder / name).string());
}

} // namespace

TEST_CASE("a screenshot is a PNG of exactly the requested size showing the report")
{
    test::guiApp();
    const auto folder = test::guiScratch("screenshot");
    const QString report = test::writeGeneratedReport(folder, "shot.rep", 20000);
    const QString whole = inFolder(folder, "whole.png");
    const QString zoomed = inFolder(folder, "zoomed.png");

    const Run first = runViewer({QStringLiteral("--screenshot"), whole, QStringLiteral("--size"),
        QStringLiteral("1000x640"), report});
    INFO(first.stdErr.toStdString());
    REQUIRE(first.exitCode == 0);
    // No error, and none of the offscreen platform's noise (the environment may add its own).
    CHECK_FALSE(first.stdErr.contains(QStringLiteral("sightline-ui:")));
    CHECK_FALSE(first.stdErr.contains(QStringLiteral("does not support")));
    const QImage wholeImage(whole);
    REQUIRE_FALSE(wholeImage.isNull());
    CHECK(wholeImage.size() == QSize(1000, 640));
    // Menus, rows, events and the status bar: far more than a blank window's few colours.
    CHECK(distinctColours(wholeImage) > 30);

    const Run second = runViewer(
        {QStringLiteral("--screenshot"), zoomed, QStringLiteral("--size=1000x640"), QStringLiteral("--range"),
            QStringLiteral("10ms:12ms"), QStringLiteral("--view"), QStringLiteral("timeline"), report});
    INFO(second.stdErr.toStdString());
    REQUIRE(second.exitCode == 0);
    const QImage zoomedImage(zoomed);
    CHECK(zoomedImage.size() == QSize(1000, 640));
    CHECK(zoomedImage != wholeImage);
}

TEST_CASE("a screenshot of a bad report exits 1 with one sentence naming it and writes nothing")
{
    test::guiApp();
    const auto folder = test::guiScratch("screenshot-bad");
    const QString bad = test::writeTextFile(folder, "notes.rep", "not a report at all");
    const QString output = inFolder(folder, "out.png");
    const Run run = runViewer({QStringLiteral("--screenshot"), output, bad});
    CHECK(run.exitCode == 1);
    // One error line (the environment may add Qt's own warnings, e.g. about XDG_RUNTIME_DIR).
    const QStringList errors = errorLines(run.stdErr);
    REQUIRE(errors.size() == 1);
    CHECK(errors.constFirst().contains(QStringLiteral("notes.rep")));
    CHECK_FALSE(QFile::exists(output));
}

TEST_CASE("a screenshot with a range outside the report or a malformed option exits 1")
{
    test::guiApp();
    const auto folder = test::guiScratch("screenshot-range");
    const QString report = test::writeGeneratedReport(folder, "short.rep", 5000);
    const QString output = inFolder(folder, "out.png");

    Run run = runViewer({QStringLiteral("--screenshot"), output, QStringLiteral("--range"),
        QStringLiteral("1000s:1001s"), report});
    CHECK(run.exitCode == 1);
    CHECK(errorLines(run.stdErr).join(QString()).contains(QStringLiteral("short.rep")));
    CHECK_FALSE(QFile::exists(output));

    run = runViewer(
        {QStringLiteral("--screenshot"), output, QStringLiteral("--size"), QStringLiteral("huge"), report});
    CHECK(run.exitCode == 1);
    CHECK(errorLines(run.stdErr).join(QString()).contains(QStringLiteral("huge")));
    CHECK_FALSE(QFile::exists(output));
}

TEST_CASE("screenshots of the Events View and the Analysis Summary are PNGs of the requested size")
{
    test::guiApp();
    const auto folder = test::guiScratch("screenshot-views");
    const QString report = test::writeGeneratedReport(folder, "views.rep", 20000);
    QImage images[3];
    const char* const views[] = {"timeline", "events", "summary"};
    for (int v = 0; v < 3; ++v) {
        const QString output = inFolder(folder, views[v]) + QStringLiteral(".png");
        const Run run = runViewer({QStringLiteral("--screenshot"), output, QStringLiteral("--size"),
            QStringLiteral("1200x800"), QStringLiteral("--view"), QString::fromLatin1(views[v]), report});
        INFO(views[v] << ": " << run.stdErr.toStdString());
        REQUIRE(run.exitCode == 0);
        CHECK_FALSE(run.stdErr.contains(QStringLiteral("sightline-ui:")));
        images[v] = QImage(output);
        REQUIRE_FALSE(images[v].isNull());
        CHECK(images[v].size() == QSize(1200, 800));
        CHECK(distinctColours(images[v]) > 30);
    }
    // Three different pictures: the Events View adds its table, the summary replaces the timeline.
    CHECK(images[1] != images[0]);
    CHECK(images[2] != images[0]);
    CHECK(images[2] != images[1]);
}
