// Opening reports over HTTP against a local server on loopback: conditional downloads (ETag,
// and Last-Modified alone) that are not repeated while the file is unchanged, a 100 MB report
// with progress, a cancelled download, and one clear sentence each for an unreachable server,
// authentication, a missing file and a file that is not a report.
#include "http_test_server.h"
#include "qt_catch_strings.h"
#include "remote_test_support.h"
#include "shell_test_support.h"
#include "ssh_test_server.h"
#include "test_paths.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <catch2/catch.hpp>

using namespace sightline;

namespace {

QString pathText(const std::filesystem::path& path)
{
    return QString::fromStdString(path.string());
}

void touch(const QString& path, int secondsLater)
{
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadWrite));
    REQUIRE(file.setFileTime(
        QDateTime::currentDateTime().addSecs(secondsLater), QFileDevice::FileModificationTime));
}

} // namespace

TEST_CASE("an HTTP report is downloaded once and answered 304 while unchanged, with ETag or Last-Modified")
{
    test::remoteTestApp();
    const auto folder = test::scratchDir("http-download");
    const QString report = test::writeGeneratedReport(folder, "run1.rep", 30000);
    test::HttpTestServer server(pathText(folder));
    REQUIRE(server.listen());
    const ui::RemoteCache cache = test::scratchCache("http-download-cache");

    for (const bool etag : {true, false}) {
        server.setSendEtag(etag);
        const QString url = server.url(QStringLiteral("run1.rep?etag=%1").arg(etag));
        const int bodiesBefore = server.bodiesSent();
        const int notModifiedBefore = server.notModifiedSent();

        const test::FetchRun first = test::fetchAndWait(url, cache);
        INFO(first.outcome.error.toStdString());
        REQUIRE(first.outcome.status == ui::FetchOutcome::Status::Done);
        CHECK(first.finishedOnce);
        CHECK_FALSE(first.outcome.fromCache);
        CHECK(QFileInfo(first.outcome.localPath).size() == QFileInfo(report).size());
        CHECK(first.outcome.localPath.endsWith(QStringLiteral("/run1.rep")));

        const test::FetchRun second = test::fetchAndWait(url, cache);
        REQUIRE(second.outcome.status == ui::FetchOutcome::Status::Done);
        CHECK(second.outcome.fromCache);
        CHECK(server.bodiesSent() == bodiesBefore + 1);
        CHECK(server.notModifiedSent() == notModifiedBefore + 1);

        touch(report, etag ? 120 : 240);
        const test::FetchRun third = test::fetchAndWait(url, cache);
        REQUIRE(third.outcome.status == ui::FetchOutcome::Status::Done);
        CHECK_FALSE(third.outcome.fromCache);
        CHECK(server.bodiesSent() == bodiesBefore + 2);
    }
}

TEST_CASE("a 100 MB report downloads over HTTP with progress, and a cancelled download leaves no copy")
{
    test::remoteTestApp();
    const auto large = test::largeReport();
    const qint64 size = qint64(std::filesystem::file_size(large));
    test::HttpTestServer server(pathText(large.parent_path()));
    REQUIRE(server.listen());
    const QString url = server.url(QString::fromStdString(large.filename().string()));

    test::checkCancelledThenFullDownload(url, size, "http-large");
}

TEST_CASE(
    "HTTP failures are one clear sentence each: unreachable, authentication, no such file, not a report")
{
    test::remoteTestApp();
    const auto folder = test::scratchDir("http-failures");
    test::HttpTestServer server(pathText(folder));
    REQUIRE(server.listen());
    const ui::RemoteCache cache = test::scratchCache("http-failures-cache");

    const QString closed = QStringLiteral("http://127.0.0.1:%1/run.rep").arg(test::unusedLoopbackPort());
    const test::FetchRun unreachable = test::fetchAndWait(closed, cache);
    CHECK(unreachable.outcome.status == ui::FetchOutcome::Status::Failed);
    CHECK(unreachable.outcome.error
        == QStringLiteral(
            "Cannot reach 127.0.0.1 (the connection was refused); check the address and port and that "
            "the server is up."));

    const test::FetchRun denied = test::fetchAndWait(server.url(QStringLiteral("private/run.rep")), cache);
    CHECK(denied.outcome.status == ui::FetchOutcome::Status::Failed);
    CHECK(denied.outcome.error.startsWith(QStringLiteral("Authentication failed on 127.0.0.1 (HTTP 401)")));

    const test::FetchRun missing = test::fetchAndWait(server.url(QStringLiteral("nothing-here.rep")), cache);
    CHECK(missing.outcome.status == ui::FetchOutcome::Status::Failed);
    CHECK(missing.outcome.error.startsWith(QStringLiteral("No such file: ")));
    CHECK(missing.outcome.error.contains(QStringLiteral("HTTP 404")));

    QByteArray html = "<!DOCTYPE html><html><body>";
    for (int i = 0; i < 5000; ++i)
        html += "<p>a login page, not a report</p>";
    test::writeBytes(folder, "page.rep", html);
    const test::FetchRun notReport = test::fetchAndWait(server.url(QStringLiteral("page.rep")), cache);
    CHECK(notReport.outcome.status == ui::FetchOutcome::Status::Failed);
    CHECK(notReport.outcome.error.startsWith(QStringLiteral("Not a report: ")));
    CHECK_FALSE(
        cache.cachedVersion(*ui::RemoteLocation::parse(server.url(QStringLiteral("page.rep")))).has_value());
}
