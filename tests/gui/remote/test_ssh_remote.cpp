// Opening reports over SSH against a real sshd on loopback: listing a folder, downloading into
// the cache (and not again while the remote file is unchanged), a 100 MB report with progress,
// a cancelled download, and one clear sentence each for an unreachable host, a refused key, a
// missing file and a file that is not a report.
#include "app/ui/remote/remote_browser_dialog.h"
#include "app/ui/remote/remote_listing.h"
#include "app/ui/shell/screenshot.h"
#include "qt_catch_strings.h"
#include "remote_test_support.h"
#include "shell_test_support.h"
#include "ssh_test_server.h"
#include "test_paths.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QTest>
#include <QTreeWidget>
#include <catch2/catch.hpp>

using namespace sightline;

namespace {

QString pathText(const std::filesystem::path& path)
{
    return QString::fromStdString(path.string());
}

struct Listing
{
    ui::RemoteFolder folder;
    QString error;
};

Listing listFolder(const QString& location)
{
    ui::RemoteFolderListing job;
    Listing result;
    bool done = false;
    QObject::connect(
        &job, &ui::RemoteFolderListing::finished, [&](const ui::RemoteFolder& folder, const QString& error) {
            result = {folder, error};
            done = true;
        });
    job.start(*ui::RemoteLocation::parse(location));
    REQUIRE(test::waitWithoutSleeping([&] { return done; }, 60000));
    return result;
}

} // namespace

TEST_CASE("a remote folder lists its reports and importable traces over SSH, folders first")
{
    if (!test::sshAvailable()) return;
    const auto folder = test::scratchDir("ssh-listing");
    test::writeGeneratedReport(folder, "run 2.rep", 2000);
    test::writeTextFile(folder, "export.sqlite", "SQLite format 3");
    test::writeTextFile(folder, "trace.json.gz", "gz");
    test::writeTextFile(folder, "notes.txt", "not listed");
    test::writeTextFile(folder, ".hidden.rep", "not listed");
    std::filesystem::create_directories(folder / "older runs");

    const Listing listing = listFolder(test::sshServer().location(folder));
    INFO(listing.error.toStdString());
    REQUIRE(listing.error.isEmpty());
    CHECK(listing.folder.absolutePath == pathText(std::filesystem::canonical(folder)));
    QStringList names;
    for (const ui::RemoteEntry& entry : listing.folder.entries)
        names << entry.name;
    CHECK(names
        == QStringList {QStringLiteral("older runs"), QStringLiteral("export.sqlite"),
            QStringLiteral("run 2.rep"), QStringLiteral("trace.json.gz")});
    const ui::RemoteEntry& report = listing.folder.entries[2];
    CHECK(report.size == QFileInfo(pathText(folder / "run 2.rep")).size());
    CHECK(qAbs(report.modified().secsTo(QFileInfo(pathText(folder / "run 2.rep")).lastModified())) <= 1);

    const Listing missing = listFolder(test::sshServer().location(folder / "no such folder"));
    CHECK(missing.error.startsWith(QStringLiteral("No such folder")));
    CHECK(missing.error.contains(QStringLiteral("no such folder")));
}

TEST_CASE("the remote file browser enters folders, goes up and returns the location of the chosen file")
{
    if (!test::sshAvailable()) return;
    const auto folder = test::scratchDir("ssh-browser");
    std::filesystem::create_directories(folder / "day1");
    test::writeGeneratedReport(folder / "day1", "first.rep", 1000);
    test::writeGeneratedReport(folder, "top.rep", 1000);

    ui::RemoteBrowserDialog browser(
        *ui::RemoteLocation::parse(test::sshServer().location(folder / "top.rep")));
    REQUIRE(test::waitWithoutSleeping([&] { return !browser.isListing(); }, 60000));
    INFO(browser.statusText().toStdString());
    QTreeWidget* list = browser.entryList();
    REQUIRE(list->topLevelItemCount() == 2);
    CHECK(list->topLevelItem(0)->text(0) == QStringLiteral("day1"));
    if (const QString shots = qEnvironmentVariable("SIGHTLINE_SCREENSHOT_DIR"); !shots.isEmpty())
        ui::renderWidget(browser).save(shots + QStringLiteral("/remote-browser.png"));
    // The file named by the starting location is selected.
    REQUIRE(browser.selectedFile().has_value());
    CHECK(browser.selectedFile()->path() == pathText(std::filesystem::canonical(folder) / "top.rep"));

    emit list->itemActivated(list->topLevelItem(0), 0);
    REQUIRE(test::waitWithoutSleeping([&] { return !browser.isListing(); }, 60000));
    REQUIRE(list->topLevelItemCount() == 1);
    CHECK(list->topLevelItem(0)->text(0) == QStringLiteral("first.rep"));
    list->setCurrentItem(list->topLevelItem(0));
    const auto chosen = browser.selectedFile();
    REQUIRE(chosen.has_value());
    CHECK(chosen->toString()
        == test::sshServer().location(std::filesystem::canonical(folder) / "day1" / "first.rep"));

    QTest::mouseClick(browser.findChild<QWidget*>(QStringLiteral("remoteUpButton")), Qt::LeftButton);
    REQUIRE(test::waitWithoutSleeping([&] { return !browser.isListing(); }, 60000));
    CHECK(list->topLevelItemCount() == 2);
}

TEST_CASE("a report is downloaded over SSH once, and again only after it changed on the server")
{
    if (!test::sshAvailable()) return;
    const auto folder = test::scratchDir("ssh-download");
    const QString report = test::writeGeneratedReport(folder, "run1.rep", 30000);
    const ui::RemoteCache cache = test::scratchCache("ssh-download-cache");
    const QString location = test::sshServer().location(folder / "run1.rep");

    const test::FetchRun first = test::fetchAndWait(location, cache);
    INFO(first.outcome.error.toStdString());
    REQUIRE(first.outcome.status == ui::FetchOutcome::Status::Done);
    CHECK(first.finishedOnce);
    CHECK_FALSE(first.outcome.fromCache);
    QFile original(report);
    QFile copy(first.outcome.localPath);
    REQUIRE(original.open(QIODevice::ReadOnly));
    REQUIRE(copy.open(QIODevice::ReadOnly));
    CHECK(copy.readAll() == original.readAll());
    copy.close();
    CHECK(first.outcome.bytesDownloaded == original.size());
    REQUIRE_FALSE(first.progress.isEmpty());
    CHECK(first.progress.last() == qMakePair(original.size(), original.size()));

    const test::FetchRun second = test::fetchAndWait(location, cache);
    REQUIRE(second.outcome.status == ui::FetchOutcome::Status::Done);
    CHECK(second.outcome.fromCache);
    CHECK(second.outcome.bytesDownloaded == 0);
    CHECK(second.outcome.localPath == first.outcome.localPath);

    // Same size, newer modification time: downloaded again.
    QFile touched(report);
    REQUIRE(touched.open(QIODevice::ReadWrite));
    REQUIRE(touched.setFileTime(QDateTime::currentDateTime().addSecs(60), QFileDevice::FileModificationTime));
    touched.close();
    const test::FetchRun third = test::fetchAndWait(location, cache);
    REQUIRE(third.outcome.status == ui::FetchOutcome::Status::Done);
    CHECK_FALSE(third.outcome.fromCache);
    CHECK(third.outcome.bytesDownloaded == original.size());
}

TEST_CASE("a 100 MB report downloads over SSH with growing progress, and a cancelled download leaves no copy")
{
    if (!test::sshAvailable()) return;
    const auto large = test::largeReport();
    const qint64 size = qint64(std::filesystem::file_size(large));
    REQUIRE(size >= 100'000'000);
    test::checkCancelledThenFullDownload(test::sshServer().location(large), size, "ssh-large");
}

TEST_CASE("SSH failures are one clear sentence each: unreachable, authentication, no such file, not a report")
{
    if (!test::sshAvailable()) return;
    const auto folder = test::scratchDir("ssh-failures");
    const ui::RemoteCache cache = test::scratchCache("ssh-failures-cache");
    const QString report = test::writeGeneratedReport(folder, "good.rep", 1000);

    const QString closedPort = QStringLiteral("ssh://127.0.0.1:%1%2")
                                   .arg(test::unusedLoopbackPort())
                                   .arg(pathText(folder / "good.rep"));
    const test::FetchRun unreachable = test::fetchAndWait(closedPort, cache);
    CHECK(unreachable.outcome.status == ui::FetchOutcome::Status::Failed);
    CHECK(unreachable.outcome.error.startsWith(QStringLiteral("Cannot reach 127.0.0.1:")));
    CHECK(unreachable.outcome.error.contains(QStringLiteral("refused")));

    test::sshServer().useStrangerClient();
    const test::FetchRun refused = test::fetchAndWait(test::sshServer().location(folder / "good.rep"), cache);
    test::sshServer().useAuthorizedClient();
    CHECK(refused.outcome.status == ui::FetchOutcome::Status::Failed);
    CHECK(refused.outcome.error.startsWith(QStringLiteral("Authentication failed on ")));
    CHECK(refused.outcome.error.contains(QStringLiteral("never asks for passwords")));

    const test::FetchRun missing
        = test::fetchAndWait(test::sshServer().location(folder / "missing.rep"), cache);
    CHECK(missing.outcome.status == ui::FetchOutcome::Status::Failed);
    CHECK(missing.outcome.error.startsWith(QStringLiteral("No such file: ")));
    CHECK(missing.outcome.error.contains(pathText(folder / "missing.rep")));

    // Long enough to be refused from its first bytes, and too short to have all of them.
    QByteArray text;
    for (int i = 0; i < 20000; ++i)
        text += "this is a log file, not a report\n";
    test::writeBytes(folder, "log.rep", text);
    test::writeBytes(folder, "tiny.rep", "hello\n");
    for (const char* name : {"log.rep", "tiny.rep"}) {
        const test::FetchRun notReport = test::fetchAndWait(test::sshServer().location(folder / name), cache);
        CHECK(notReport.outcome.status == ui::FetchOutcome::Status::Failed);
        CHECK(notReport.outcome.error.startsWith(QStringLiteral("Not a report: ")));
        CHECK(notReport.outcome.bytesDownloaded < text.size());
        CHECK_FALSE(cache.cachedVersion(*ui::RemoteLocation::parse(test::sshServer().location(folder / name)))
                        .has_value());
    }

    const test::FetchRun isFolder = test::fetchAndWait(test::sshServer().location(folder), cache);
    CHECK(isFolder.outcome.error.contains(QStringLiteral("is a folder")));

    // Every sentence is one sentence: a single full stop, at the end.
    for (const QString& error : {unreachable.outcome.error, refused.outcome.error, missing.outcome.error})
        CHECK(error.count(QStringLiteral(". ")) == 0);
}
