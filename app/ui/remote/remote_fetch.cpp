#include "app/ui/remote/remote_fetch.h"

#include "app/ui/remote/http_fetch.h"
#include "app/ui/remote/ssh_fetch.h"
#include "model/import/open_trace.h"

#include <QLocale>

namespace sightline::ui {

namespace {

constexpr qint64 kSniffBytes = 64; // enough for every format's signature
constexpr qint64 kProgressStepUnknownTotal = 1 << 20;

} // namespace

std::unique_ptr<RemoteFetch> RemoteFetch::create(
    const RemoteLocation& location, const RemoteCache& cache, QObject* parent)
{
    if (location.isSsh()) return std::make_unique<SshFetch>(location, cache, parent);
    return std::make_unique<HttpFetch>(location, cache, parent);
}

RemoteFetch::RemoteFetch(const RemoteLocation& location, const RemoteCache& cache, QObject* parent)
    : QObject(parent)
    , m_location(location)
    , m_cache(cache)
{ }

RemoteFetch::~RemoteFetch()
{
    if (m_partial.isOpen()) {
        m_partial.close();
        m_cache.discardPartial(m_location);
    }
}

QString RemoteFetch::where() const
{
    return m_location.toString();
}

void RemoteFetch::cancel()
{
    if (m_finished) return;
    abortTransfer();
    FetchOutcome outcome;
    outcome.status = FetchOutcome::Status::Cancelled;
    outcome.bytesDownloaded = m_written;
    finish(outcome);
}

bool RemoteFetch::beginDownload(qint64 expectedSize)
{
    if (const QString error = m_cache.prepare(m_location); !error.isEmpty()) {
        finishFailed(error);
        return false;
    }
    m_partial.setFileName(m_cache.partialPath(m_location));
    if (!m_partial.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        finishFailed(
            QStringLiteral("Cannot write the download to %1; check that the cache folder is writable.")
                .arg(m_partial.fileName()));
        return false;
    }
    m_expected = expectedSize;
    m_written = 0;
    m_sniffed = false;
    emit stateChanged(tr("Downloading %1…").arg(m_location.fileName()));
    emitProgress(true);
    return true;
}

bool RemoteFetch::writeChunk(const QByteArray& bytes)
{
    if (m_finished) return false;
    if (m_partial.write(bytes) != bytes.size()) {
        finishFailed(
            QStringLiteral("Writing the download to %1 failed (%2); free some disk space and try again.")
                .arg(m_partial.fileName(), m_partial.errorString()));
        return false;
    }
    m_written += bytes.size();
    if (!m_sniffed && m_written >= kSniffBytes && !checkLooksLikeTrace()) return false;
    emitProgress(false);
    return true;
}

bool RemoteFetch::checkLooksLikeTrace()
{
    m_sniffed = true;
    m_partial.flush();
    if (sniffTraceFile(m_partial.fileName().toStdString()) != TraceFileKind::Unknown) return true;
    abortTransfer();
    finishFailed(QStringLiteral("Not a report: %1 is not a Sightline report, Nsight Systems SQLite export or "
                                "PyTorch JSON trace; choose another file.")
                     .arg(where()));
    return false;
}

void RemoteFetch::completeDownload(const RemoteVersion& version)
{
    if (m_finished) return;
    if (m_expected >= 0 && m_written != m_expected) {
        finishFailed(
            QStringLiteral("The download of %1 stopped after %2 of %3; the file may have changed on the "
                           "server while it was copied, try again.")
                .arg(where(), QLocale().formattedDataSize(m_written),
                    QLocale().formattedDataSize(m_expected)));
        return;
    }
    if (!m_sniffed && !checkLooksLikeTrace()) return;
    m_partial.close();
    emitProgress(true);
    RemoteVersion stored = version;
    if (stored.size < 0) stored.size = m_written;
    if (const QString error = m_cache.commit(m_location, stored); !error.isEmpty()) {
        finishFailed(error);
        return;
    }
    FetchOutcome outcome;
    outcome.status = FetchOutcome::Status::Done;
    outcome.localPath = m_cache.localPath(m_location);
    outcome.bytesDownloaded = m_written;
    finish(outcome);
}

void RemoteFetch::finishFromCache()
{
    FetchOutcome outcome;
    outcome.status = FetchOutcome::Status::Done;
    outcome.localPath = m_cache.localPath(m_location);
    outcome.fromCache = true;
    finish(outcome);
}

void RemoteFetch::finishFailed(const QString& error)
{
    FetchOutcome outcome;
    outcome.status = FetchOutcome::Status::Failed;
    outcome.error = error;
    outcome.bytesDownloaded = m_written;
    finish(outcome);
}

void RemoteFetch::emitProgress(bool force)
{
    if (m_expected > 0) {
        const int permille = int(std::min(m_written, m_expected) * 1000 / m_expected);
        if (!force && permille == m_lastPermille) return;
        m_lastPermille = permille;
    } else if (!force && m_written - m_lastProgressBytes < kProgressStepUnknownTotal) {
        return;
    }
    m_lastProgressBytes = m_written;
    emit progressed(m_written, m_expected);
}

void RemoteFetch::finish(FetchOutcome outcome)
{
    if (m_finished) return;
    m_finished = true;
    if (outcome.status != FetchOutcome::Status::Done && m_partial.isOpen()) {
        m_partial.close();
        m_cache.discardPartial(m_location);
    }
    emit finished(outcome);
}

} // namespace sightline::ui
