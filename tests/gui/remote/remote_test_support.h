// Shared set-up of the remote tests: the QApplication with QSettings and the download cache in
// scratch folders of this process, the large generated report (about 100 MB, made once per
// build tree and generator version), and running a RemoteFetch to its end.
#pragma once

#include "app/ui/remote/remote_fetch.h"
#include "ssh_test_server.h"

#include <QList>
#include <QPair>
#include <filesystem>
#include <functional>

namespace sightline::test {

// guiApp(), plus XDG_CACHE_HOME pointed at a scratch folder of this process.
void remoteTestApp();

// A generated report of about 100 MB (kLargeReportEvents events), written once and reused.
inline constexpr uint64_t kLargeReportEvents = 22'000'000;
std::filesystem::path largeReport();

struct FetchRun
{
    ui::FetchOutcome outcome;
    QList<QPair<qint64, qint64>> progress; // every progressed(done, total)
    bool finishedOnce = false; // finished was emitted exactly once
};

// Runs the event loop until `done` holds or `timeoutMs` passes; returns done(). Unlike
// QTest::qWaitFor it never sleeps between events, so a transfer of thousands of chunks is not
// slowed down by the wait itself.
bool waitWithoutSleeping(const std::function<bool()>& done, int timeoutMs);

// Starts a fetch of `location` into `cache` and waits for its end (at most `timeoutMs`).
// `onProgress` may cancel it (it receives the fetch).
FetchRun fetchAndWait(const QString& location, const ui::RemoteCache& cache,
    const std::function<void(ui::RemoteFetch&, qint64, qint64)>& onProgress = {}, int timeoutMs = 120000);

// The one sshd of this test process (started on first use), in a folder of this process:
// test cases run in parallel processes, each with its own server.
SshTestServer& sshServer();
// False (after a WARN) when sshd is not installed; fails the test when it would not start.
// Otherwise the server is up and the client uses the authorized test key.
bool sshAvailable();

// A download cache in a fresh scratch folder named `name`.
ui::RemoteCache scratchCache(const std::string& name);

// The large-download test both transports share: a download cancelled half-way leaves nothing
// in the cache; a full one reports growing progress against the real size and ends at 100%.
void checkCancelledThenFullDownload(const QString& location, qint64 size, const std::string& cachePrefix);

// Writes `bytes` to `folder/name`; returns the path.
std::filesystem::path writeBytes(
    const std::filesystem::path& folder, const std::string& name, const QByteArray& bytes);

} // namespace sightline::test
