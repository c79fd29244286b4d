#include "remote_test_support.h"

#include "generate.h"
#include "model/format/report_io.h"
#include "shell_test_support.h"
#include "test_paths.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTest>
#include <QTimer>
#include <catch2/catch.hpp>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <unistd.h>

namespace sightline::test {

void remoteTestApp()
{
    guiApp();
    static const bool cacheRedirected = [] {
        const auto cache
            = scratchDir("gui-remote-cache-" + std::to_string(QCoreApplication::applicationPid()));
        qputenv("XDG_CACHE_HOME", QByteArray::fromStdString(cache.string()));
        return true;
    }();
    (void)cacheRedirected;
}

std::filesystem::path largeReport()
{
    const auto folder = binDir().parent_path() / "test-data";
    const auto path = folder
        / ("remote-large-" + std::to_string(kLargeReportEvents) + "-v"
            + std::to_string(gen::kGeneratorVersion) + ".rep");
    if (std::filesystem::exists(path)) return path;
    std::filesystem::create_directories(folder);
    gen::GeneratorOptions options;
    options.events = kLargeReportEvents;
    const Trace trace = gen::generateTrace(options);
    // Tests running in parallel may both make it: each writes its own file, and the first one
    // linked into place stays. Replacing it would change a file another test has downloaded
    // already, and that test's cached copy would no longer be current.
    const auto partial = folder
        / (path.filename().string() + "." + std::to_string(QCoreApplication::applicationPid()) + ".tmp");
    if (const std::string error = writeReport(trace, partial.string()).error(); !error.empty())
        throw std::runtime_error(error);
    if (::link(partial.c_str(), path.c_str()) != 0 && errno != EEXIST)
        throw std::runtime_error("cannot link " + partial.string() + ": " + std::strerror(errno));
    std::filesystem::remove(partial);
    return path;
}

bool waitWithoutSleeping(const std::function<bool()>& done, int timeoutMs)
{
    QTimer tick; // wakes the loop up even when nothing else happens
    tick.start(20);
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > timeoutMs) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }
    return true;
}

FetchRun fetchAndWait(const QString& location, const ui::RemoteCache& cache,
    const std::function<void(ui::RemoteFetch&, qint64, qint64)>& onProgress, int timeoutMs)
{
    FetchRun run;
    QString error;
    const auto parsed = ui::RemoteLocation::parse(location, &error);
    if (!parsed) throw std::runtime_error(error.toStdString());
    std::unique_ptr<ui::RemoteFetch> fetch = ui::RemoteFetch::create(*parsed, cache);
    int finishedCount = 0;
    QObject::connect(fetch.get(), &ui::RemoteFetch::progressed, [&](qint64 done, qint64 total) {
        run.progress.append({done, total});
        if (onProgress) onProgress(*fetch, done, total);
    });
    QObject::connect(fetch.get(), &ui::RemoteFetch::finished, [&](const ui::FetchOutcome& outcome) {
        run.outcome = outcome;
        ++finishedCount;
    });
    fetch->start();
    if (!waitWithoutSleeping([&] { return finishedCount > 0; }, timeoutMs)) fetch->cancel();
    QTest::qWait(50); // a second `finished` would arrive now
    run.finishedOnce = finishedCount == 1;
    return run;
}

std::filesystem::path writeBytes(
    const std::filesystem::path& folder, const std::string& name, const QByteArray& bytes)
{
    const auto path = folder / name;
    QFile out(QString::fromStdString(path.string()));
    if (!out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size())
        throw std::runtime_error("cannot write " + path.string());
    return path;
}

ui::RemoteCache scratchCache(const std::string& name)
{
    return ui::RemoteCache(QString::fromStdString(scratchDir(name).string()));
}

void checkCancelledThenFullDownload(const QString& location, qint64 size, const std::string& cachePrefix)
{
    const ui::RemoteCache cancelCache = scratchCache(cachePrefix + "-cancel-cache");
    const FetchRun cancelled
        = fetchAndWait(location, cancelCache, [](ui::RemoteFetch& fetch, qint64 done, qint64 total) {
              if (done > 0 && done < total) fetch.cancel();
          });
    REQUIRE(cancelled.outcome.status == ui::FetchOutcome::Status::Cancelled);
    CHECK(cancelled.finishedOnce);
    CHECK(cancelled.outcome.bytesDownloaded < size);
    const auto parsed = *ui::RemoteLocation::parse(location);
    CHECK_FALSE(QFile::exists(cancelCache.partialPath(parsed)));
    CHECK_FALSE(QFile::exists(cancelCache.localPath(parsed)));
    CHECK_FALSE(cancelCache.cachedVersion(parsed).has_value());

    const ui::RemoteCache cache = scratchCache(cachePrefix + "-cache");
    const FetchRun run = fetchAndWait(location, cache);
    INFO(run.outcome.error.toStdString());
    REQUIRE(run.outcome.status == ui::FetchOutcome::Status::Done);
    CHECK(QFileInfo(run.outcome.localPath).size() == size);
    // Progress: many steps, never going back, all against the real size, ending at 100%.
    CHECK(run.progress.size() >= 50);
    bool monotonic = true;
    for (qsizetype i = 1; i < run.progress.size(); ++i)
        monotonic = monotonic && run.progress[i].first >= run.progress[i - 1].first
            && run.progress[i].second == size;
    CHECK(monotonic);
    CHECK(run.progress.last().first == size);
}

SshTestServer& sshServer()
{
    static SshTestServer instance(
        scratchDir("ssh-server-" + std::to_string(QCoreApplication::applicationPid())));
    return instance;
}

bool sshAvailable()
{
    remoteTestApp();
    if (sshServer().sshdMissing()) {
        WARN(sshServer().problem().toStdString());
        return false;
    }
    INFO(sshServer().problem().toStdString());
    REQUIRE(sshServer().problem().isEmpty());
    sshServer().useAuthorizedClient();
    return true;
}

} // namespace sightline::test
